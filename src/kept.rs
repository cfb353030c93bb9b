//! Values kept between builds (`watch`, the live preview) by a hash of everything
//! that decides them, each marked when a build uses it so that what the last
//! build did not use can be forgotten.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Values by a 32-byte hash (SHA-256 of what decides them), with counts of the
/// values made and reused since the caller last reset them.
pub struct ByHash<V> {
    /// Each value, and whether the current build has used it.
    values: Mutex<HashMap<[u8; 32], (V, bool)>>,
    /// Values made (not found) / found kept, until the caller resets them.
    pub made: AtomicUsize,
    pub reused: AtomicUsize,
}

impl<V> Default for ByHash<V> {
    fn default() -> Self {
        ByHash {
            values: Mutex::new(HashMap::new()),
            made: AtomicUsize::new(0),
            reused: AtomicUsize::new(0),
        }
    }
}

impl<V: Clone> ByHash<V> {
    /// The value kept under `key`, or the one `make` makes (kept if it is `Ok`).
    pub fn get_or_make<E>(
        &self,
        key: [u8; 32],
        make: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        let hit = self.values.lock().ok().and_then(|mut m| {
            m.get_mut(&key).map(|(v, used)| {
                *used = true;
                v.clone()
            })
        });
        if let Some(v) = hit {
            self.reused.fetch_add(1, Relaxed);
            return Ok(v);
        }
        let made = make()?;
        self.made.fetch_add(1, Relaxed);
        if let Ok(mut m) = self.values.lock() {
            m.insert(key, (made.clone(), true));
        }
        Ok(made)
    }

    /// Forgets the values the last build did not use (faces edited away), so a long
    /// session holds only the current ones.
    pub fn keep_used(&self) {
        if let Ok(mut m) = self.values.lock() {
            m.retain(|_, (_, used)| std::mem::replace(used, false));
        }
    }

    /// Number of values held.
    pub fn len(&self) -> usize {
        self.values.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Whether no value is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_the_last_build_used() {
        let k: ByHash<u32> = ByHash::default();
        assert_eq!(k.get_or_make::<()>([1; 32], || Ok(10)), Ok(10));
        assert_eq!(k.get_or_make::<()>([1; 32], || Ok(99)), Ok(10), "kept");
        assert_eq!(k.get_or_make([2; 32], || Err("no")), Err("no"));
        assert_eq!(
            (k.made.load(Relaxed), k.reused.load(Relaxed), k.len()),
            (1, 1, 1)
        );
        k.keep_used(); // [1] was used: kept, and marked unused
        assert_eq!(k.len(), 1);
        k.keep_used(); // not used since: forgotten
        assert!(k.is_empty());
    }
}
