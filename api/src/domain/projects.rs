//! The fixed sets of a project's details (the `projects` table and the Project resource).

use super::names;

names! {
    /// The state of a project's preview container (the contract's `status`).
    #[derive(Default)]
    pub enum ProjectStatus ("project status") {
        #[default]
        Stopped = "stopped",
        Starting = "starting",
        Running = "running",
        Failed = "failed",
    }
}

names! {
    /// What an entry of a project's folder is (the contract's `RepoContentItem.type`).
    pub enum RepoEntryType ("repository entry type") {
        File = "file",
        /// A folder.
        Dir = "dir",
    }
}

names! {
    /// What a project's preview runs (the resource's `spec.flavour`): its entry file, or
    /// JupyterLab for the legacy notebook-style project (spec 000 §2 "legacy project list").
    #[derive(Default)]
    pub enum ProjectFlavour ("project flavour") {
        #[default]
        Code = "code",
        Notebook = "notebook",
    }
}
