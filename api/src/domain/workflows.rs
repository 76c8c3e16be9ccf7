//! The fixed sets of a workflow's details (the `workflows` table, the Workflow and WorkflowRun
//! resources, docs/contracts/workflows.md "Types").

use super::names;

names! {
    /// Where a workflow stands (the contract's `status`).
    #[derive(Default)]
    pub enum WorkflowStatus ("workflow status") {
        /// Never published: no Workflow resource yet.
        #[default]
        Unpublished = "unpublished",
        /// Published; the operator has not made it ready yet.
        Initializing = "initializing",
        /// Runs on schedule and on demand.
        Ready = "ready",
        /// Cannot run (`import_error` says why).
        Broken = "broken",
    }
}

names! {
    /// When notification e-mails are sent (the contract's `email_on`).
    #[derive(Default)]
    pub enum EmailOn ("e-mail setting") {
        #[default]
        Both = "both",
        Failure = "failure",
        Success = "success",
    }
}

names! {
    /// The state of a run (the contract's `RunView.state`).
    pub enum RunState ("run state") {
        Queued = "queued",
        Running = "running",
        Success = "success",
        Failed = "failed",
    }
}

names! {
    /// What started a run (the contract's `RunView.trigger`).
    pub enum RunTrigger ("run trigger") {
        Schedule = "schedule",
        Manual = "manual",
        Rerun = "rerun",
    }
}

names! {
    /// The state of a task in a run (the contract's `TaskInstance.state`).
    pub enum TaskState ("task state") {
        Queued = "queued",
        Running = "running",
        Success = "success",
        Failed = "failed",
        UpstreamFailed = "upstream_failed",
        Skipped = "skipped",
    }
}

names! {
    /// The state a task may be marked as ('Mark State As').
    pub enum MarkState ("task mark") {
        Success = "success",
        Failed = "failed",
    }
}

names! {
    /// What a designer node runs (`data.taskType`).
    pub enum NodeTaskType ("designer task type") {
        Script = "script",
        Upload = "upload",
    }
}

impl From<ludis_crds::workflow::WorkflowState> for WorkflowStatus {
    fn from(s: ludis_crds::workflow::WorkflowState) -> Self {
        use ludis_crds::workflow::WorkflowState as S;
        match s {
            S::Unpublished => Self::Unpublished,
            S::Initializing => Self::Initializing,
            S::Ready => Self::Ready,
            S::Broken => Self::Broken,
        }
    }
}

impl From<ludis_crds::workflow::RunPhase> for RunState {
    fn from(p: ludis_crds::workflow::RunPhase) -> Self {
        use ludis_crds::workflow::RunPhase as P;
        match p {
            P::Pending => Self::Queued,
            P::Running => Self::Running,
            P::Succeeded => Self::Success,
            P::Failed => Self::Failed,
        }
    }
}

impl From<ludis_crds::workflow::Trigger> for RunTrigger {
    fn from(t: ludis_crds::workflow::Trigger) -> Self {
        use ludis_crds::workflow::Trigger as T;
        match t {
            T::Schedule => Self::Schedule,
            T::Manual => Self::Manual,
            T::Rerun => Self::Rerun,
        }
    }
}

impl From<ludis_crds::workflow::TaskState> for TaskState {
    fn from(s: ludis_crds::workflow::TaskState) -> Self {
        use ludis_crds::workflow::TaskState as S;
        match s {
            S::Queued => Self::Queued,
            S::Running => Self::Running,
            S::Success => Self::Success,
            S::Failed => Self::Failed,
            S::UpstreamFailed => Self::UpstreamFailed,
            S::Skipped => Self::Skipped,
        }
    }
}

impl From<EmailOn> for ludis_crds::workflow::NotifyOn {
    fn from(e: EmailOn) -> Self {
        match e {
            EmailOn::Both => Self::Both,
            EmailOn::Failure => Self::Failure,
            EmailOn::Success => Self::Success,
        }
    }
}
