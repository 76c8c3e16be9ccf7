//! Roles (spec 000 §9: developer, management, administrator, superadmin) and account statuses.

use super::names;

names! {
    /// A user's role.
    pub enum Role ("role") {
        Developer = "developer",
        Management = "management",
        /// Administers their own organization.
        Administrator = "administrator",
        /// Administers every organization.
        Superadmin = "superadmin",
    }
}

impl Role {
    /// An administrator of their organization, or a superadmin (who counts as one everywhere).
    pub fn is_admin(self) -> bool {
        matches!(self, Self::Administrator | Self::Superadmin)
    }

    /// The roles flighting lists (a superadmin always has every feature).
    pub const FLIGHTED: [Role; 3] = [Self::Developer, Self::Management, Self::Administrator];
}

names! {
    /// Whether an account may sign in.
    pub enum UserStatus ("user status") {
        Active = "active",
        Inactive = "inactive",
    }
}
