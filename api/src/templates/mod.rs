//! The template apps' computations (spec 001 §7, §9): a data file's columns and pages, k-means,
//! aggregations by a column and forecasts — pure functions over a reader, within [`limits`] (rows
//! read, a flag that stops them) — and the [`pool`] they run in. The routes find the file and
//! check access.

pub mod aggregate;
mod error;
pub mod forecast;
pub mod kmeans;
pub mod limits;
pub mod pool;
pub mod table;

pub use error::TemplateError;
