//! The crate against a real git server: its smart-HTTP router on loopback with Basic
//! authentication, the `git` command line, hosted repositories and the external path.

mod external;
mod hosted;
mod server;
mod support;
