//! The fixed sets of an insight's details (the `insights` table and the Insight resource).

use super::names;

names! {
    /// What an insight is.
    #[derive(Default)]
    pub enum AppType ("app type") {
        /// A web application: runs in the cluster, or external (an `app_url`).
        #[default]
        Application = "application",
        /// A report rendered from a project by a job.
        Report = "report",
        /// An uploaded report file.
        UserReport = "user_report",
    }
}

names! {
    /// An insight's status: the spec's `running` and `external`, and the operator's phases.
    #[derive(Default)]
    pub enum InsightStatus ("insight status") {
        Running = "running",
        Stopped = "stopped",
        /// Scaled to zero while nobody uses it; the next request through the proxy starts it.
        Idle = "idle",
        #[default]
        Starting = "starting",
        External = "external",
        Rendering = "rendering",
        Rendered = "rendered",
        Uploaded = "uploaded",
        Failed = "failed",
    }
}

names! {
    /// The language of an insight's code.
    #[derive(Default)]
    pub enum Language ("language") {
        #[default]
        Python = "python",
        R = "r",
    }
}

names! {
    /// The app templates (spec 000 §9).
    pub enum Template ("template") {
        Cluster = "cluster",
        SliceAndDice = "slice-and-dice",
        Campaign = "campaign",
    }
}
