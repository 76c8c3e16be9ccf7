//! The Ludis API: an axum application built with [`App::build`] and served with
//! [`App::run_until_stopped`], so tests can start it on port 0.

pub mod access;
mod app;
pub mod auth;
pub mod cluster;
pub mod crypto;
pub mod db;
pub mod error;
pub mod k8s;
pub mod openapi;
pub mod policy;
mod routes;
pub mod samples;
pub mod seeds;
mod settings;
pub mod telemetry;
pub mod views;

pub use app::{App, AppState, BODY_LIMIT};
pub use settings::{AppsOrigin, AppsPlacement, Origin, Secret, Settings};
