//! Kubernetes helpers shared by every controller: server-side apply, the children of an object,
//! labels, and the caches of children.

pub mod apply;
pub mod children;
pub mod labels;
pub mod stores;
