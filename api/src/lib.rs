//! The Ludis API: an axum application built with [`App::build`] and served with
//! [`App::run_until_stopped`], so tests can start it on port 0.

mod app;
mod routes;
mod settings;
pub mod telemetry;

pub use app::{App, AppState};
pub use settings::Settings;
