//! Results kept between builds of the live preview, each with the fingerprints of
//! what made it: held assertions ([`super::AssertCache`]) and derived values
//! ([`super::DeriveCache`]). A result is taken again only while every
//! fingerprint is the same; one no build used is forgotten when the build ends.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

use crate::render::recorded::{Print, Prints, Sources};
use crate::template::reads::Read;

/// Results of type `V` kept by key, with what each read.
pub struct KeptByReads<V> {
    kept: Mutex<HashMap<Print, Entry<V>>>,
    /// Fingerprints of the build under way.
    pub(crate) now: Prints,
    /// Results made / kept (not made again) in the last build.
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
    /// Of results kept in parts (an assertion's rows, see
    /// [`super::kept::Rows`]): parts made / kept in the last build. The result
    /// counts as made when any of its parts was.
    pub parts_made: AtomicUsize,
    pub parts_reused: AtomicUsize,
}

impl<V> Default for KeptByReads<V> {
    fn default() -> Self {
        Self {
            kept: Mutex::default(),
            now: Prints::default(),
            made: AtomicUsize::default(),
            reused: AtomicUsize::default(),
            parts_made: AtomicUsize::default(),
            parts_reused: AtomicUsize::default(),
        }
    }
}

/// One kept result.
struct Entry<V> {
    /// Shared, so that a build checks them without copying them.
    reads: Arc<[(Read, Print)]>,
    value: V,
    used: bool,
}

impl<V: Clone> KeptByReads<V> {
    /// A build starts: fingerprints are made anew, the counts start at zero.
    pub(crate) fn begin(&self) {
        self.now.clear();
        self.made.store(0, Relaxed);
        self.reused.store(0, Relaxed);
        self.parts_made.store(0, Relaxed);
        self.parts_reused.store(0, Relaxed);
    }

    /// The build is done: results it did not use are forgotten (edited away,
    /// changed, or failing now).
    pub(crate) fn finish(&self) {
        if let Ok(mut kept) = self.kept.lock() {
            kept.retain(|_, e| std::mem::replace(&mut e.used, false));
        }
    }

    /// Number of results kept.
    pub fn len(&self) -> usize {
        self.kept.lock().map(|k| k.len()).unwrap_or(0)
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The result kept under `key`, if nothing it read changed.
    pub(crate) fn reuse(&self, s: &Sources, key: &Print) -> Option<V> {
        let v = self.take(s, key)?;
        self.reused.fetch_add(1, Relaxed);
        Some(v)
    }

    /// [`Self::reuse`], not counted.
    pub(crate) fn take(&self, s: &Sources, key: &Print) -> Option<V> {
        let reads = Arc::clone(&self.kept.lock().ok()?.get(key)?.reads);
        if !self.now.unchanged(s, &reads) {
            return None;
        }
        let mut kept = self.kept.lock().ok()?;
        let e = kept.get_mut(key)?;
        e.used = true;
        Some(e.value.clone())
    }

    /// Keeps a result, with the fingerprints of what it read.
    pub(crate) fn keep(&self, s: &Sources, key: Print, reads: Vec<Read>, value: V) {
        let Some(reads) = self.now.all(s, reads) else {
            return;
        };
        if let Ok(mut kept) = self.kept.lock() {
            let used = true;
            let reads = reads.into();
            kept.insert(key, Entry { reads, value, used });
        }
    }
}
