//! Results kept per face and text for the whole process: the text engine's
//! measurements and shapings repeat (a wrap measures each line again with every
//! word added, a rulebook's words recur page after page and game after game), and
//! finding a kept one costs far less than shaping again.

use std::collections::HashMap;
use std::sync::Mutex;

/// Face address -> text -> value. Hashed with foldhash (seeded per process): the
/// keys are compared in full on a match, and a text is hashed on every look-up.
type Texts<V> = HashMap<usize, HashMap<String, V, Hasher>, Hasher>;

/// The hasher of [`Texts`].
type Hasher = foldhash::fast::RandomState;

/// A map from (face, text) to a kept `V`, at most `limit` texts: past that, every
/// kept one is forgotten and made again when asked, so memory stays bounded
/// whatever the input. Faces are keyed by address (they live for the whole
/// process).
pub(crate) struct PerFace<V> {
    /// Face address -> text -> value, and how many texts are kept.
    kept: Mutex<(Texts<V>, usize)>,
    limit: usize,
}

impl<V: Clone> PerFace<V> {
    /// An empty map that keeps at most `limit` texts.
    pub(crate) fn new(limit: usize) -> Self {
        PerFace {
            kept: Mutex::new((HashMap::default(), 0)),
            limit,
        }
    }

    /// The kept value of `text` in `face`, or `make()`'s, kept from now on. The
    /// lock is not held while `make` runs.
    pub(crate) fn get_or_make(
        &self,
        face: &'static rustybuzz::Face<'static>,
        text: &str,
        make: impl FnOnce() -> V,
    ) -> V {
        let key = face as *const rustybuzz::Face<'static> as usize;
        let found = self
            .kept
            .lock()
            .ok()
            .and_then(|m| m.0.get(&key).and_then(|t| t.get(text)).cloned());
        if let Some(v) = found {
            return v;
        }
        let made = make();
        if let Ok(mut m) = self.kept.lock() {
            let (kept, count) = &mut *m;
            if *count >= self.limit {
                kept.clear();
                *count = 0;
            }
            let texts = kept.entry(key).or_default();
            if texts.insert(text.to_string(), made.clone()).is_none() {
                *count += 1;
            }
        }
        made
    }
}
