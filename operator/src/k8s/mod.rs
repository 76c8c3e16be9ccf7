//! Kubernetes helpers shared by every controller: labels, server-side apply, orphan cleanup,
//! status patches.

pub mod apply;
pub mod labels;
