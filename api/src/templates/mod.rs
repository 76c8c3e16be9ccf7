//! The template apps' computations (spec 001 §7, §9): a data file's columns and pages, k-means,
//! aggregations by a column and forecasts. Pure functions over a reader; the routes find the file
//! and check access.

pub mod aggregate;
mod error;
pub mod forecast;
pub mod kmeans;
pub mod table;

pub use error::TemplateError;
