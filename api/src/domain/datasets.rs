//! The fixed sets of a dataset's details (the `datasets` table and the Dataset resource).

use super::names;

names! {
    /// Where a dataset's storage stands.
    #[derive(Default)]
    pub enum DatasetStatus ("dataset status") {
        /// Storage not confirmed yet.
        #[default]
        Pending = "pending",
        Ready = "ready",
        /// The resource is being deleted (the operator's finalizer deals with the objects).
        Deleting = "deleting",
        /// The operator reported a failure.
        Failed = "failed",
    }
}

names! {
    /// What happens to a dataset's objects when it is deleted (the resource's `deletionPolicy`).
    #[derive(Default)]
    pub enum DeletionPolicy ("deletion policy") {
        #[default]
        Retain = "Retain",
        Delete = "Delete",
    }
}

impl DeletionPolicy {
    /// A policy as a client may write it: any case.
    pub fn parse_any_case(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|p| p.as_str().eq_ignore_ascii_case(s))
    }
}
