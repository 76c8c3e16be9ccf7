//! The operator's error type. Every failing call has its own variant (or a `what` naming it), so
//! errors are told apart in logs, events and the `reconcile_failures` metric.

use std::time::Duration;

/// How long a reconcile waits for a cache's first full listing before it gives up (and retries).
pub const CACHE_READY_TIMEOUT: Duration = Duration::from_secs(30);

/// An error of one reconcile. Invalid specs are not errors: they are reported in status
/// (Stalled) and the controller waits for a change.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("failed to read the image list: {0}")]
    ReadImages(#[source] kube::Error),
    #[error("failed to read {what}: {source}")]
    Observe {
        what: &'static str,
        #[source]
        source: kube::Error,
    },
    #[error("failed to apply {what} {name}: {source}")]
    Apply {
        what: &'static str,
        name: String,
        #[source]
        source: kube::Error,
    },
    #[error("failed to delete orphaned {what}: {source}")]
    DeleteOrphans {
        what: &'static str,
        #[source]
        source: kube::Error,
    },
    #[error("failed to create {what}: {source}")]
    Create {
        what: &'static str,
        #[source]
        source: kube::Error,
    },
    #[error("failed to patch the status: {0}")]
    PatchStatus(#[source] kube::Error),
    #[error("object storage: {0}")]
    Storage(#[source] ludis_storage::StorageError),
    #[error("failed to send the notification e-mail: {0}")]
    Notify(String),
    #[error("finalizer: {0}")]
    Finalizer(String),
    #[error(transparent)]
    Cache(#[from] CacheError),
}

/// Why a cache cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("the {0} cache is not started")]
    NotStarted(&'static str),
    #[error("the {0} cache did not finish its first listing in {CACHE_READY_TIMEOUT:?}")]
    NotReady(&'static str),
}

/// Why the API server would not make a child, in its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdmissionRefusal<'a> {
    /// The organization's quota has no room for it now.
    Quota(&'a str),
    /// It asks for more than one container or pod may have there.
    Limits(&'a str),
}

impl<'a> AdmissionRefusal<'a> {
    /// The refusal a message of the API server's (a 403, or a controller's FailedCreate) is.
    pub fn of_message(message: &'a str) -> Option<Self> {
        if message.contains("exceeded quota") {
            Some(Self::Quota(message))
        } else if message.contains("usage per Container") || message.contains("usage per Pod") {
            Some(Self::Limits(message))
        } else {
            None
        }
    }

    /// The verdict of an object whose child was refused: waiting for room, or stalled.
    pub fn verdict(&self) -> crate::verdict::Verdict {
        use crate::verdict::{Reason, Verdict};
        match self {
            Self::Quota(why) => Verdict::progressing(
                Reason::WaitingForQuota,
                format!("waiting for the organization's quota: {why}"),
            ),
            Self::Limits(why) => Verdict::degraded(
                Reason::LimitsExceeded,
                format!("the organization's limits refuse the pod: {why}"),
            ),
        }
    }
}

impl Error {
    /// When the API server refused to make a child because of its namespace's quota (the
    /// organization's ResourceQuota: the child waits for room) or limits (its LimitRange: the
    /// spec must change), what it said.
    pub fn admission_refusal(&self) -> Option<AdmissionRefusal<'_>> {
        let (Error::Create {
            source: kube::Error::Api(status),
            ..
        }
        | Error::Apply {
            source: kube::Error::Api(status),
            ..
        }) = self
        else {
            return None;
        };
        if status.code != 403 {
            return None;
        }
        AdmissionRefusal::of_message(&status.message)
    }

    /// A stable snake_case label for metrics and event reasons.
    pub fn label(&self) -> String {
        match self {
            Error::ReadImages(_) => "read_images".into(),
            Error::Observe { what, .. } => format!("observe_{}", what.replace(' ', "_")),
            Error::Apply { what, .. } => format!("apply_{}", what.replace(' ', "_")),
            Error::DeleteOrphans { what, .. } => format!("delete_orphans_{}", what.replace(' ', "_")),
            Error::Create { what, .. } => format!("create_{}", what.replace(' ', "_")),
            Error::PatchStatus(_) => "patch_status".into(),
            Error::Storage(_) => "storage".into(),
            Error::Notify(_) => "notify".into(),
            Error::Finalizer(_) => "finalizer".into(),
            Error::Cache(_) => "cache_not_ready".into(),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `map_err` helpers naming the call that failed.
pub fn observe(what: &'static str) -> impl FnOnce(kube::Error) -> Error {
    move |source| Error::Observe { what, source }
}

pub fn apply(what: &'static str, name: &str) -> impl FnOnce(kube::Error) -> Error {
    let name = name.to_owned();
    move |source| Error::Apply { what, name, source }
}

pub fn orphans(what: &'static str) -> impl FnOnce(kube::Error) -> Error {
    move |source| Error::DeleteOrphans { what, source }
}

pub fn create(what: &'static str) -> impl FnOnce(kube::Error) -> Error {
    move |source| Error::Create { what, source }
}
