//! What a reconcile concluded about an object, and why: the [`Verdict`] that becomes the
//! conditions every kind carries, with a [`Reason`] from one list: `Ready`, and kstatus's
//! `Reconciling` and `Stalled` (with `Progressing` and `Degraded`, their deprecated aliases).
//!
//! | verdict | Ready | Reconciling (Progressing) | Stalled (Degraded) | kstatus | Argo CD |
//! |---|---|---|---|---|---|
//! | [`Verdict::Ready`] | True | False | False | Current | Healthy (Suspended: a paused workflow) |
//! | [`Verdict::Progressing`] | False | True | False | InProgress | Progressing |
//! | [`Verdict::Degraded`] | False | False | True | Failed | Degraded |

use k8s_openapi::{
    apimachinery::pkg::apis::meta::v1::{Condition, Time},
    jiff::Timestamp,
};
use ludis_crds::common::{
    CONDITION_DEGRADED, CONDITION_PROGRESSING, CONDITION_READY, CONDITION_RECONCILING, CONDITION_STALLED,
    set_condition,
};

/// Every condition reason the operator writes (PascalCase on the wire).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    // Why a spec cannot be carried out (Stalled), or what it waits for (Reconciling).
    /// An image outside the administrator's list.
    ImageNotAllowed,
    /// A size outside the administrator's size list (or the list's ConfigMap is not valid).
    SizeNotAllowed,
    /// A referenced Secret does not exist (looked at again every 5 s).
    SecretNotFound,
    /// A referenced dataset does not exist (looked at again every 15 s).
    DatasetNotFound,
    /// A referenced dataset exists but its storage is not ready yet.
    WaitingForDataset,
    /// A dataset's object storage did not answer (or refused its bucket); retried.
    WaitingForStorage,
    /// A pod waits for room in its organization's quota (looked at again every 10 s).
    WaitingForQuota,
    /// A pod asks for more than its namespace's LimitRange allows one container or pod.
    LimitsExceeded,
    /// An insight's source project does not exist (looked at again when it appears).
    ProjectNotFound,
    /// The operator has no object storage for datasets.
    StorageNotConfigured,
    /// A namespace's bucket (its `ludis.dev/bucket` annotation) is not a valid bucket name.
    InvalidBucket,
    /// A run's workflow does not exist.
    WorkflowNotFound,
    /// A workflow cannot run: a cycle, a missing project, an image outside the list.
    WorkflowBroken,
    /// A workflow's DAG file is being read.
    ReadingDagFile,
    /// A task of a run cannot be made into a pod.
    TaskInvalid,
    /// A preview's or an application's entry file is outside the project or of no kind the
    /// launch rule runs.
    InvalidEntryFile,

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
    /// An application scaled to zero while nobody uses it.
    ScaledToZero,
    Rendering,
    Rendered,
    RenderFailed,
    /// An application's pod cannot start or its program keeps exiting.
    AppFailed,

    // Datasets.
    Available,

    // Workflows and their runs (and Running).
    Paused,
    Scheduled,
    Succeeded,
    Failed,

    // The reasons of conditions that are off.
    /// Reconciling=False (and Progressing=False).
    Idle,
    /// Stalled=False (and Degraded=False).
    AsExpected,
}

impl Reason {
    /// The reason as written in a condition.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::ImageNotAllowed => "ImageNotAllowed",
            Reason::SizeNotAllowed => "SizeNotAllowed",
            Reason::SecretNotFound => "SecretNotFound",
            Reason::DatasetNotFound => "DatasetNotFound",
            Reason::WaitingForDataset => "WaitingForDataset",
            Reason::WaitingForStorage => "WaitingForStorage",
            Reason::WaitingForQuota => "WaitingForQuota",
            Reason::LimitsExceeded => "LimitsExceeded",
            Reason::ProjectNotFound => "ProjectNotFound",
            Reason::StorageNotConfigured => "StorageNotConfigured",
            Reason::InvalidBucket => "InvalidBucket",
            Reason::WorkflowNotFound => "WorkflowNotFound",
            Reason::WorkflowBroken => "WorkflowBroken",
            Reason::ReadingDagFile => "ReadingDagFile",
            Reason::TaskInvalid => "TaskInvalid",
            Reason::InvalidEntryFile => "InvalidEntryFile",
            Reason::Stopped => "Stopped",
            Reason::PreviewStarting => "PreviewStarting",
            Reason::PreviewRunning => "PreviewRunning",
            Reason::PreviewFailed => "PreviewFailed",
            Reason::PreviewExited => "PreviewExited",
            Reason::External => "External",
            Reason::Uploaded => "Uploaded",
            Reason::Starting => "Starting",
            Reason::ScaledToZero => "ScaledToZero",
            Reason::Running => "Running",
            Reason::Rendering => "Rendering",
            Reason::Rendered => "Rendered",
            Reason::RenderFailed => "RenderFailed",
            Reason::AppFailed => "AppFailed",
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

/// What a reconcile concluded, turned into the conditions (see the table at the top).
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Ready=True: the object is doing what its spec asks.
    Ready(Reason, String),
    /// Reconciling=True: the operator is still working towards the spec.
    Progressing(Reason, String),
    /// Stalled=True: the spec cannot be carried out as it is (it is looked at again when it, or
    /// what it refers to, changes), or the object failed for good (a failed run).
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

    /// The reason of the Ready condition (and of Reconciling or Stalled when that one is on).
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

    /// The conditions after this verdict, for the object's `generation`, keeping the transition
    /// times of the ones whose status did not change (and any other condition as it was).
    pub fn conditions(&self, existing: &[Condition], generation: Option<i64>) -> Vec<Condition> {
        let now = Time(Timestamp::now());
        let (reason, message) = (self.reason(), self.message());
        // Ready carries the verdict's reason either way; the others only while they are on.
        let conditions = [
            (CONDITION_READY, self.is_ready(), reason),
            (CONDITION_RECONCILING, self.is_progressing(), Reason::Idle),
            (CONDITION_PROGRESSING, self.is_progressing(), Reason::Idle),
            (CONDITION_STALLED, self.is_degraded(), Reason::AsExpected),
            (CONDITION_DEGRADED, self.is_degraded(), Reason::AsExpected),
        ];
        let mut out = existing.to_vec();
        for (type_, on, off_reason) in conditions {
            let (reason, message) = if on || type_ == CONDITION_READY {
                (reason, message)
            } else {
                (off_reason, "")
            };
            set_condition(
                &mut out,
                Condition {
                    type_: type_.into(),
                    status: if on { "True" } else { "False" }.into(),
                    reason: reason.as_str().into(),
                    message: message.into(),
                    observed_generation: generation,
                    last_transition_time: now.clone(),
                },
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (type, status, reason) of every condition.
    fn summary(conds: &[Condition]) -> Vec<(&str, &str, &str)> {
        conds
            .iter()
            .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str()))
            .collect()
    }

    #[test]
    fn each_verdict_sets_ready_reconciling_and_stalled_with_their_aliases() {
        let ready = Verdict::ready(Reason::Stopped, "no preview runs").conditions(&[], Some(3));
        assert_eq!(
            summary(&ready),
            [
                ("Degraded", "False", "AsExpected"),
                ("Progressing", "False", "Idle"),
                ("Ready", "True", "Stopped"),
                ("Reconciling", "False", "Idle"),
                ("Stalled", "False", "AsExpected")
            ]
        );
        assert!(ready.iter().all(|c| c.observed_generation == Some(3)));
        let progressing =
            Verdict::progressing(Reason::PreviewStarting, "waiting for the pod").conditions(&[], Some(1));
        assert_eq!(
            summary(&progressing),
            [
                ("Degraded", "False", "AsExpected"),
                ("Progressing", "True", "PreviewStarting"),
                ("Ready", "False", "PreviewStarting"),
                ("Reconciling", "True", "PreviewStarting"),
                ("Stalled", "False", "AsExpected")
            ]
        );
        let degraded = Verdict::degraded(Reason::RenderFailed, "see the logs").conditions(&[], Some(1));
        assert_eq!(
            summary(&degraded),
            [
                ("Degraded", "True", "RenderFailed"),
                ("Progressing", "False", "Idle"),
                ("Ready", "False", "RenderFailed"),
                ("Reconciling", "False", "Idle"),
                ("Stalled", "True", "RenderFailed")
            ]
        );
    }

    #[test]
    fn a_stalled_verdict_explains_itself() {
        let conds =
            Verdict::degraded(Reason::ImageNotAllowed, "image x is not in the list").conditions(&[], Some(1));
        for type_ in ["Stalled", "Degraded", "Ready"] {
            let c = conds.iter().find(|c| c.type_ == type_).unwrap();
            assert_eq!(
                (c.reason.as_str(), c.message.as_str()),
                ("ImageNotAllowed", "image x is not in the list")
            );
        }
        let reconciling = conds.iter().find(|c| c.type_ == "Reconciling").unwrap();
        assert_eq!(reconciling.message, "");
    }

    #[test]
    fn a_new_verdict_keeps_unrelated_conditions_and_the_times_of_steady_ones() {
        let mut old = Verdict::ready(Reason::Stopped, "").conditions(&[], Some(1));
        let earlier = Time(Timestamp::from_second(100).unwrap());
        for c in &mut old {
            c.last_transition_time = earlier.clone();
        }
        old.push(Condition {
            type_: "Other".into(),
            status: "True".into(),
            reason: "Elsewhere".into(),
            message: String::new(),
            observed_generation: None,
            last_transition_time: earlier.clone(),
        });
        let new = Verdict::progressing(Reason::PreviewStarting, "").conditions(&old, Some(2));
        let at = |t: &str| new.iter().find(|c| c.type_ == t).unwrap();
        assert_eq!(at("Stalled").last_transition_time, earlier, "still False");
        assert_ne!(at("Reconciling").last_transition_time, earlier, "flipped to True");
        assert_ne!(at("Ready").last_transition_time, earlier, "flipped to False");
        assert_eq!(at("Stalled").observed_generation, Some(2));
        assert_eq!(at("Other").reason, "Elsewhere");
    }

    #[test]
    fn a_reason_matches_its_wire_form() {
        assert_eq!(Reason::DatasetNotFound, "DatasetNotFound");
        assert_ne!(Reason::DatasetNotFound, "ProjectNotFound");
        assert_eq!(Reason::WaitingForDataset.to_string(), "WaitingForDataset");
    }
}
