//! Keys seen lately, per API replica: what saves a write that was made a moment ago (a pod's
//! runner recorded, a workload's use clocked).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// Keys remembered for `window` each; cheap to clone (one map shared).
#[derive(Clone)]
pub struct Recent {
    window: Duration,
    seen: Arc<Mutex<HashMap<String, Instant>>>,
}

impl Recent {
    pub fn new(window: Duration) -> Self {
        Self {
            window,
            seen: Arc::default(),
        }
    }

    /// Whether `key` was remembered within the window.
    pub fn fresh(&self, key: &str) -> bool {
        let map = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.get(key).is_some_and(|at| at.elapsed() < self.window)
    }

    /// Forgets `key`: it is not fresh any more.
    pub fn forget(&self, key: &str) {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(key);
    }

    /// Remembers `key` from now on (and forgets keys whose window is over).
    pub fn remember(&self, key: String) {
        let mut map = self
            .seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        map.retain(|_, at| at.elapsed() < self.window);
        map.insert(key, Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_fresh_once_remembered() {
        let recent = Recent::new(Duration::from_secs(3600));
        assert!(!recent.fresh("a"));
        recent.remember("a".into());
        assert!(recent.fresh("a") && !recent.fresh("b"));
        recent.forget("a");
        assert!(!recent.fresh("a"));
    }

    #[test]
    fn a_key_is_stale_after_its_window() {
        let recent = Recent::new(Duration::ZERO);
        recent.remember("a".into());
        assert!(!recent.fresh("a"));
    }
}
