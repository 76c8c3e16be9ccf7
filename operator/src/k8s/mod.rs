//! Kubernetes helpers shared by every controller: labels, server-side apply, orphan cleanup,
//! status patches, and the caches of children.

pub mod apply;
pub mod labels;
pub mod stores;
