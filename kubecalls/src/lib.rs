//! Calls to the Kubernetes API server, measured: their [`Verb`], how they ended ([`Outcome`]),
//! and [`CallLayer`], the tower layer on a kube client that reports both to a [`Recorder`].
//! Shared by the operator and the API, so both read a call the same way.

mod layer;
mod verb;

pub use layer::{CallLayer, Calls, Recorder};
pub use verb::{Outcome, Verb};
