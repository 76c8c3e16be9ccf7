//! Pure decisions over loaded facts: no sqlx, no axum. Every route asks these functions, and
//! each has a table of cases. The vocabulary (kinds, levels, roles, features) is in
//! [`crate::domain`].

pub mod flags;
pub mod sharing;
pub mod users;
