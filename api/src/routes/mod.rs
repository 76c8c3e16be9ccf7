//! One module per resource, each exporting `router()`.

pub mod console;
pub mod health;
