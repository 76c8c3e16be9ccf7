//! The containment suite: organization B's ordinary developer attacks from inside real containers
//! on the real node, with whatever their pods hold, and each attack has a control showing it can
//! fail (the same step from the side that may, succeeds):
//! - [`network`]: scanning the pod network for A's apps and a colleague's preview finds nothing
//!   the API does not proxy; the object store, the API server and the kubelet are out of reach;
//! - [`storage`]: boto3 with the pod's credentials reaches B's own dataset (writes only with
//!   edit) and nothing of A's, of the logs or of the bucket; a revoke ends it within seconds;
//! - [`terminals`]: an executor's terminal shows no hidden variable and cannot change the
//!   workspace; what they started goes with their access;
//! - [`notebooks`]: an executor's notebook cells narrow what the owner's pod reaches, and a revoke
//!   restarts it with a new token, with nothing of theirs open.
//!
//! Elsewhere, where their subjects live: the checkout never runs what a workspace planted
//! (`operator/src/controllers/checkout.rs`), a pod's git token reaches only its own repository
//! and dies with the pod (`projects_run`, `projects_files`), an app runs the commit it was
//! published at (`operator/tests/integration_insight.rs`).
//!
//! Needs the test command's cluster with its real node and its S3 server (a missing one fails
//! with what to start).

mod network;
mod notebooks;
mod storage;
mod terminals;
