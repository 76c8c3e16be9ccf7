//! Tracing setup: `RUST_LOG` filters (default `info`), plain or JSON lines.

use tracing_subscriber::{EnvFilter, fmt};

/// Installs the global subscriber. `format` is `json` or anything else for human-readable lines.
pub fn init(format: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let result = if format == "json" {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
    // A second init (tests) keeps the first subscriber.
    let _ = result;
}
