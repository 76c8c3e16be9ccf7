//! What bounds one computation: the rows it may read, and a flag that stops it. The flag is set
//! when the caller goes away (the request's future is dropped, see [`Cancel::on_drop`]) or when
//! its time is up; the loops check it — every CSV row, every k-means iteration, before every
//! forecast candidate — so the work ends there instead of running on for nobody.

use std::sync::{
    Arc,
    atomic::{AtomicBool, Ordering},
};

use super::TemplateError;

/// A flag shared by a computation on a blocking thread and the request waiting for it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the computation to stop at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// [`TemplateError::Cancelled`] once the flag is set.
    pub fn check(&self) -> Result<(), TemplateError> {
        if self.is_cancelled() {
            return Err(TemplateError::Cancelled);
        }
        Ok(())
    }

    /// A guard that sets the flag when it is dropped: kept by the request's future, so a client
    /// that goes away (or a request timeout) stops the computation.
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }
}

/// Sets its [`Cancel`] when dropped.
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// The bounds of one computation.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The most data rows (after the header) it reads; one more is [`TemplateError::TooManyRows`].
    pub max_rows: usize,
    pub cancel: Cancel,
}

impl Limits {
    pub fn new(max_rows: usize) -> Self {
        Self {
            max_rows,
            cancel: Cancel::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_the_guard_cancels_and_checks_then_fail() {
        let cancel = Cancel::new();
        assert!(cancel.check().is_ok());
        let guard = cancel.on_drop();
        assert!(!cancel.is_cancelled());
        drop(guard);
        assert!(matches!(cancel.check(), Err(TemplateError::Cancelled)));
    }
}
