//! The Ludis operator: one controller per custom resource kind.

pub mod context;
pub mod controllers;
pub mod error;
pub mod k8s;
pub mod metrics;
pub mod notify;
