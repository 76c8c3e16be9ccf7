//! The Ludis API: an axum application built with [`App::build`] and served with
//! [`App::run_until_stopped`], so tests can start it on port 0.

pub mod ai;
mod app;
pub mod assets;
pub mod auth;
pub mod cluster;
pub mod compute;
pub mod crypto;
pub mod db;
pub mod domain;
pub mod error;
pub mod idle;
pub mod mail_recipients;
pub mod networks;
pub mod notebooks;
pub mod openapi;
pub mod outbound;
pub mod policy;
pub mod projects;
pub mod proxy;
mod recent;
mod routes;
pub mod runners;
pub mod samples;
pub mod seeds;
mod settings;
pub mod state;
pub mod storage_gateway;
pub mod telemetry;
pub mod templates;
pub mod views;
pub mod web3;
pub mod workflows;

pub use app::App;
pub use routes::BODY_LIMIT;
pub use settings::{AppsOrigin, AppsPlacement, Origin, Secret, Settings};
pub use state::AppState;
