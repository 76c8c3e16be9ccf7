//! One module per resource, each exporting `router()`; the table is [`crate::openapi::api`].

pub mod apps;
pub mod auth;
pub mod comments;
pub mod console;
pub mod datasets;
pub mod flighting;
pub mod health;
pub mod images;
pub mod insights;
pub mod metrics;
pub mod organizations;
pub mod shares;
pub mod two_factor;
pub mod users;
