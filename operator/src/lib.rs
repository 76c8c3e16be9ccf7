//! The Ludis operator: one controller per custom resource kind.
//!
//! Module edges (no cycles): `verdict`, `images` and `error` stand alone; `k8s` (applies,
//! children, labels, caches) uses `error`; `context` holds the client, caches, image watch and
//! configuration; `datasets` (lookups every controller shares) and `events` (the events of
//! verdict changes) use `context`; `controllers` use all of them.

pub mod context;
pub mod controllers;
pub mod datasets;
pub mod error;
pub mod events;
pub mod images;
pub mod k8s;
pub mod list_watch;
pub mod log_archive;
pub mod mail_policy;
pub mod metrics;
pub mod notify;
pub mod sizes;
pub mod telemetry;
pub mod verdict;
