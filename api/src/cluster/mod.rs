//! The cluster side of assets: the API writes custom resources with server-side apply under its
//! own field manager (`ludis-api`: [`insights`], [`datasets`]), and watches them ([`watcher`]) so
//! that resources applied with kubectl or a GitOps tool appear in the console (rows in
//! `assets`/`insights`/`datasets`, `spec.sharing` as managed share entries) and the operator's
//! observations (status) reach the database.

pub mod apply;
pub mod datasets;
pub mod insights;
pub mod keys_secret;
pub mod network_policy;
pub mod organization_access;
pub mod organizations;
pub mod pod_identity;
pub mod projects;
pub mod quota;
pub mod services;
pub mod storage_client;
pub mod watcher;
pub mod workflow_runs;
pub mod workflows;
