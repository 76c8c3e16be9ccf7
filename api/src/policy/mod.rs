//! Pure decisions over loaded facts: no sqlx, no axum. Every route asks these functions, and
//! each has a table of cases.

pub mod flags;
pub mod sharing;
pub mod users;

/// The roles, from the spec: developer, management, administrator, superadmin.
pub const DEVELOPER: &str = "developer";
pub const MANAGEMENT: &str = "management";
pub const ADMINISTRATOR: &str = "administrator";
pub const SUPERADMIN: &str = "superadmin";
pub const ROLES: [&str; 4] = [DEVELOPER, MANAGEMENT, ADMINISTRATOR, SUPERADMIN];

/// Superadmin counts as admin.
pub fn is_admin(role: &str) -> bool {
    role == ADMINISTRATOR || role == SUPERADMIN
}

pub fn is_role(role: &str) -> bool {
    ROLES.contains(&role)
}
