//! What a reconcile concluded about an object, and why: the [`Verdict`] that becomes the three
//! standard conditions (Ready, Progressing, Degraded), with a [`Reason`] from one list.

use k8s_openapi::{
    apimachinery::pkg::apis::meta::v1::{Condition, Time},
    jiff::Timestamp,
};
use ludis_crds::common::{CONDITION_DEGRADED, CONDITION_PROGRESSING, CONDITION_READY, set_condition};

/// Every condition reason the operator writes (PascalCase on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    // Why a spec cannot be carried out (Degraded), or what it waits for (Progressing).
    /// An image outside the administrator's list.
    ImageNotAllowed,
    /// A referenced Secret does not exist (looked at again every 5 s).
    SecretNotFound,
    /// A referenced dataset does not exist (looked at again every 15 s).
    DatasetNotFound,
    /// A referenced dataset exists but its storage is not ready yet.
    WaitingForDataset,
    /// An insight's source project does not exist (looked at again when it appears).
    ProjectNotFound,
    /// The operator has no object storage for datasets.
    StorageNotConfigured,
    /// A run's workflow does not exist.
    WorkflowNotFound,
    /// A workflow cannot run: a cycle, a missing project, an image outside the list.
    WorkflowBroken,
    /// A workflow's DAG file is being read.
    ReadingDagFile,
    /// A task of a run cannot be made into a pod.
    TaskInvalid,

    // Projects.
    /// The workspace is ready and no preview runs.
    Stopped,
    PreviewStarting,
    PreviewRunning,
    PreviewFailed,
    PreviewExited,

    // Insights (and Stopped).
    External,
    Uploaded,
    Starting,
    Running,
    Rendering,
    Rendered,
    RenderFailed,

    // Datasets.
    Available,

    // Workflows and their runs (and Running).
    Paused,
    Scheduled,
    Succeeded,
    Failed,

    // The reasons of conditions that are off.
    /// Progressing=False.
    Idle,
    /// Degraded=False.
    AsExpected,
}

impl Reason {
    /// The reason as written in a condition.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::ImageNotAllowed => "ImageNotAllowed",
            Reason::SecretNotFound => "SecretNotFound",
            Reason::DatasetNotFound => "DatasetNotFound",
            Reason::WaitingForDataset => "WaitingForDataset",
            Reason::ProjectNotFound => "ProjectNotFound",
            Reason::StorageNotConfigured => "StorageNotConfigured",
            Reason::WorkflowNotFound => "WorkflowNotFound",
            Reason::WorkflowBroken => "WorkflowBroken",
            Reason::ReadingDagFile => "ReadingDagFile",
            Reason::TaskInvalid => "TaskInvalid",
            Reason::Stopped => "Stopped",
            Reason::PreviewStarting => "PreviewStarting",
            Reason::PreviewRunning => "PreviewRunning",
            Reason::PreviewFailed => "PreviewFailed",
            Reason::PreviewExited => "PreviewExited",
            Reason::External => "External",
            Reason::Uploaded => "Uploaded",
            Reason::Starting => "Starting",
            Reason::Running => "Running",
            Reason::Rendering => "Rendering",
            Reason::Rendered => "Rendered",
            Reason::RenderFailed => "RenderFailed",
            Reason::Available => "Available",
            Reason::Paused => "Paused",
            Reason::Scheduled => "Scheduled",
            Reason::Succeeded => "Succeeded",
            Reason::Failed => "Failed",
            Reason::Idle => "Idle",
            Reason::AsExpected => "AsExpected",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason compares equal to its wire form, so a condition read back is matched by the enum.
impl PartialEq<str> for Reason {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Reason {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// What a reconcile concluded, turned into the three standard conditions.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Ready=True: the object is doing what its spec asks.
    Ready(Reason, String),
    /// Progressing=True: the operator is still working towards the spec.
    Progressing(Reason, String),
    /// Degraded=True: the spec cannot be carried out as it is.
    Degraded(Reason, String),
}

impl Verdict {
    pub fn ready(reason: Reason, message: impl Into<String>) -> Self {
        Verdict::Ready(reason, message.into())
    }

    pub fn progressing(reason: Reason, message: impl Into<String>) -> Self {
        Verdict::Progressing(reason, message.into())
    }

    pub fn degraded(reason: Reason, message: impl Into<String>) -> Self {
        Verdict::Degraded(reason, message.into())
    }

    /// The reason of the Ready condition (and of Progressing or Degraded when that one is on).
    pub fn reason(&self) -> Reason {
        match self {
            Verdict::Ready(r, _) | Verdict::Progressing(r, _) | Verdict::Degraded(r, _) => *r,
        }
    }

    /// What a person should know.
    pub fn message(&self) -> &str {
        match self {
            Verdict::Ready(_, m) | Verdict::Progressing(_, m) | Verdict::Degraded(_, m) => m,
        }
    }

    pub fn is_ready(&self) -> bool {
        matches!(self, Verdict::Ready(..))
    }

    pub fn is_progressing(&self) -> bool {
        matches!(self, Verdict::Progressing(..))
    }

    pub fn is_degraded(&self) -> bool {
        matches!(self, Verdict::Degraded(..))
    }

    /// The conditions after this verdict, keeping transition times of unchanged ones.
    pub fn conditions(&self, existing: &[Condition], generation: Option<i64>) -> Vec<Condition> {
        let now = Time(Timestamp::now());
        let cond = |type_: &str, on: bool, reason: Reason, message: &str| Condition {
            type_: type_.into(),
            status: if on { "True" } else { "False" }.into(),
            reason: reason.as_str().into(),
            message: message.into(),
            observed_generation: generation,
            last_transition_time: now.clone(),
        };
        let (reason, message) = (self.reason(), self.message());
        let mut out = existing.to_vec();
        set_condition(&mut out, cond(CONDITION_READY, self.is_ready(), reason, message));
        let (p_reason, p_msg) = if self.is_progressing() {
            (reason, message)
        } else {
            (Reason::Idle, "")
        };
        set_condition(
            &mut out,
            cond(CONDITION_PROGRESSING, self.is_progressing(), p_reason, p_msg),
        );
        let (d_reason, d_msg) = if self.is_degraded() {
            (reason, message)
        } else {
            (Reason::AsExpected, "")
        };
        set_condition(
            &mut out,
            cond(CONDITION_DEGRADED, self.is_degraded(), d_reason, d_msg),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_verdict_sets_the_three_conditions() {
        let conds = Verdict::ready(Reason::Stopped, "no preview runs").conditions(&[], Some(3));
        let get = |t: &str| conds.iter().find(|c| c.type_ == t).unwrap();
        assert_eq!(get("Ready").status, "True");
        assert_eq!(get("Ready").reason, "Stopped");
        assert_eq!(get("Progressing").status, "False");
        assert_eq!(get("Degraded").status, "False");
        assert_eq!(get("Degraded").reason, "AsExpected");
        assert!(conds.iter().all(|c| c.observed_generation == Some(3)));
    }

    #[test]
    fn a_degraded_verdict_explains_itself() {
        let conds =
            Verdict::degraded(Reason::ImageNotAllowed, "image x is not in the list").conditions(&[], Some(1));
        let degraded = conds.iter().find(|c| c.type_ == "Degraded").unwrap();
        assert_eq!(degraded.status, "True");
        assert_eq!(degraded.reason, "ImageNotAllowed");
        assert_eq!(degraded.message, "image x is not in the list");
        assert_eq!(conds.iter().find(|c| c.type_ == "Ready").unwrap().status, "False");
    }

    #[test]
    fn a_reason_matches_its_wire_form() {
        assert_eq!(Reason::DatasetNotFound, "DatasetNotFound");
        assert_ne!(Reason::DatasetNotFound, "ProjectNotFound");
        assert_eq!(Reason::WaitingForDataset.to_string(), "WaitingForDataset");
    }
}
