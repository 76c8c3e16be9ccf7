//! Who may see, create, change and delete users (spec 001 §5–§6): administrators act only in
//! their own organization, the superadmin role is assigned only by a superadmin, only a
//! superadmin moves users between organizations, and the password field on edit is for a
//! superadmin, or an administrator editing a non-superadmin. Changes a caller may not make are
//! refused, never silently applied, so extra fields cannot raise a role or move a user.

use super::{ADMINISTRATOR, SUPERADMIN, is_admin, is_role};

/// The facts about a person the rules need.
#[derive(Debug, Clone, Copy)]
pub struct Person<'a> {
    pub uid: &'a str,
    pub role: &'a str,
    pub organization_id: &'a str,
}

/// What an update asks to change (only fields whose value differs from the stored one).
#[derive(Debug, Default, Clone, Copy)]
pub struct Changes<'a> {
    pub role: Option<&'a str>,
    pub organization_id: Option<&'a str>,
    pub status: Option<&'a str>,
    pub email: bool,
    pub password: bool,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Denied {
    #[error("User not found")]
    UserNotFound,
    #[error("Organization not found")]
    OrganizationNotFound,
    #[error("Only administrators can manage users")]
    NotAdmin,
    #[error("Only a superadmin can assign the superadmin role")]
    SuperadminRole,
    #[error("Only a superadmin can change a superadmin")]
    TargetIsSuperadmin,
    #[error("You cannot change your own role")]
    OwnRole,
    #[error("Only a superadmin can move a user to another organization")]
    Organization,
    #[error("You are not allowed to set this user's password")]
    Password,
    #[error("Only administrators can change a user's status")]
    Status,
    #[error("Only administrators can change a user's e-mail")]
    Email,
    #[error("You cannot delete your own account")]
    DeleteSelf,
    #[error("Invalid role: {0}")]
    InvalidRole(String),
    #[error("Invalid status: {0}")]
    InvalidStatus(String),
}

impl Denied {
    /// 404 for things the caller may not know exist, 400 for bad values, 403 otherwise.
    pub fn status(&self) -> u16 {
        match self {
            Self::UserNotFound | Self::OrganizationNotFound => 404,
            Self::InvalidRole(_) | Self::InvalidStatus(_) => 400,
            _ => 403,
        }
    }
    pub fn code(&self) -> &'static str {
        match self {
            Self::UserNotFound => "user_not_found",
            Self::OrganizationNotFound => "organization_not_found",
            Self::NotAdmin => "admin_required",
            Self::SuperadminRole => "superadmin_role_required",
            Self::TargetIsSuperadmin => "superadmin_target",
            Self::OwnRole => "own_role",
            Self::Organization => "organization_change_forbidden",
            Self::Password => "password_change_forbidden",
            Self::Status => "status_change_forbidden",
            Self::Email => "email_change_forbidden",
            Self::DeleteSelf => "delete_self",
            Self::InvalidRole(_) => "invalid_role",
            Self::InvalidStatus(_) => "invalid_status",
        }
    }
}

pub const STATUSES: [&str; 2] = ["active", "inactive"];

/// Whether `actor` may know that `target` exists: same organization, or a superadmin.
pub fn can_see(actor: Person<'_>, target: Person<'_>) -> bool {
    actor.role == SUPERADMIN || actor.organization_id == target.organization_id
}

/// Whether `actor` may see an organization at all.
pub fn can_see_org(actor: Person<'_>, organization_id: &str) -> bool {
    actor.role == SUPERADMIN || actor.organization_id == organization_id
}

/// Whether `actor` administers an organization.
pub fn administers(actor: Person<'_>, organization_id: &str) -> bool {
    actor.role == SUPERADMIN || (actor.role == ADMINISTRATOR && actor.organization_id == organization_id)
}

/// Roles `actor` may assign.
pub fn assignable_roles(actor_role: &str) -> Vec<&'static str> {
    match actor_role {
        SUPERADMIN => super::ROLES.to_vec(),
        ADMINISTRATOR => super::ROLES
            .iter()
            .copied()
            .filter(|r| *r != SUPERADMIN)
            .collect(),
        _ => vec![],
    }
}

pub fn check_create(actor: Person<'_>, role: &str, organization_id: &str) -> Result<(), Denied> {
    if !can_see_org(actor, organization_id) {
        return Err(Denied::OrganizationNotFound);
    }
    if !is_admin(actor.role) {
        return Err(Denied::NotAdmin);
    }
    check_role(actor, role)
}

fn check_role(actor: Person<'_>, role: &str) -> Result<(), Denied> {
    if !is_role(role) {
        return Err(Denied::InvalidRole(role.to_owned()));
    }
    if role == SUPERADMIN && actor.role != SUPERADMIN {
        return Err(Denied::SuperadminRole);
    }
    Ok(())
}

/// The password field on edit: a superadmin, or an administrator of the user's organization
/// editing a non-superadmin.
pub fn may_set_password(actor: Person<'_>, target: Person<'_>) -> bool {
    actor.role == SUPERADMIN
        || (actor.role == ADMINISTRATOR
            && target.role != SUPERADMIN
            && actor.organization_id == target.organization_id)
}

pub fn check_update(actor: Person<'_>, target: Person<'_>, changes: Changes<'_>) -> Result<(), Denied> {
    if !can_see(actor, target) {
        return Err(Denied::UserNotFound);
    }
    let is_self = actor.uid == target.uid;
    if !is_self {
        if !is_admin(actor.role) {
            return Err(Denied::NotAdmin);
        }
        if target.role == SUPERADMIN && actor.role != SUPERADMIN {
            return Err(Denied::TargetIsSuperadmin);
        }
    }
    if let Some(role) = changes.role {
        check_role(actor, role)?;
        if is_self {
            return Err(Denied::OwnRole);
        }
    }
    if changes.organization_id.is_some() && actor.role != SUPERADMIN {
        return Err(Denied::Organization);
    }
    if let Some(status) = changes.status {
        if !STATUSES.contains(&status) {
            return Err(Denied::InvalidStatus(status.to_owned()));
        }
        if !is_admin(actor.role) || is_self {
            return Err(Denied::Status);
        }
    }
    if changes.email && !is_admin(actor.role) {
        return Err(Denied::Email);
    }
    if changes.password && !may_set_password(actor, target) {
        return Err(Denied::Password);
    }
    Ok(())
}

pub fn check_delete(actor: Person<'_>, target: Person<'_>) -> Result<(), Denied> {
    if !can_see(actor, target) {
        return Err(Denied::UserNotFound);
    }
    if actor.uid == target.uid {
        return Err(Denied::DeleteSelf);
    }
    if !is_admin(actor.role) {
        return Err(Denied::NotAdmin);
    }
    if target.role == SUPERADMIN && actor.role != SUPERADMIN {
        return Err(Denied::TargetIsSuperadmin);
    }
    Ok(())
}

/// Seats: a new active user fits when fewer than `max_seats` are active.
pub fn seat_available(max_seats: i64, active_users: i64) -> bool {
    active_users < max_seats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{DEVELOPER, MANAGEMENT};

    const SUPER: Person<'static> = Person {
        uid: "s",
        role: SUPERADMIN,
        organization_id: "o1",
    };
    const ADMIN1: Person<'static> = Person {
        uid: "a1",
        role: ADMINISTRATOR,
        organization_id: "o1",
    };
    const ADMIN2: Person<'static> = Person {
        uid: "a2",
        role: ADMINISTRATOR,
        organization_id: "o2",
    };
    const DEV1: Person<'static> = Person {
        uid: "d1",
        role: DEVELOPER,
        organization_id: "o1",
    };
    const DEV2: Person<'static> = Person {
        uid: "d2",
        role: DEVELOPER,
        organization_id: "o2",
    };

    #[test]
    fn create_rules() {
        let cases = [
            (SUPER, DEVELOPER, "o2", Ok(())),
            (SUPER, SUPERADMIN, "o2", Ok(())),
            (ADMIN1, MANAGEMENT, "o1", Ok(())),
            (ADMIN1, ADMINISTRATOR, "o1", Ok(())),
            (ADMIN1, SUPERADMIN, "o1", Err(Denied::SuperadminRole)),
            (ADMIN1, DEVELOPER, "o2", Err(Denied::OrganizationNotFound)),
            (DEV1, DEVELOPER, "o1", Err(Denied::NotAdmin)),
            (DEV1, DEVELOPER, "o2", Err(Denied::OrganizationNotFound)),
            (ADMIN1, "king", "o1", Err(Denied::InvalidRole("king".into()))),
        ];
        for (actor, role, org, expected) in cases {
            assert_eq!(check_create(actor, role, org), expected, "{actor:?} {role} {org}");
        }
    }

    #[test]
    fn update_rules() {
        let none = Changes::default();
        let role = |r| Changes {
            role: Some(r),
            ..Changes::default()
        };
        let org = Changes {
            organization_id: Some("o2"),
            ..Changes::default()
        };
        let password = Changes {
            password: true,
            ..Changes::default()
        };
        let status = Changes {
            status: Some("inactive"),
            ..Changes::default()
        };
        let cases = [
            // profile edits of oneself
            (DEV1, DEV1, none, Ok(())),
            // extra fields cannot raise a role or move a user
            (DEV1, DEV1, role(SUPERADMIN), Err(Denied::SuperadminRole)),
            (DEV1, DEV1, role(ADMINISTRATOR), Err(Denied::OwnRole)),
            (DEV1, DEV1, org, Err(Denied::Organization)),
            (ADMIN1, ADMIN1, org, Err(Denied::Organization)),
            (ADMIN1, DEV1, org, Err(Denied::Organization)),
            (DEV1, DEV1, status, Err(Denied::Status)),
            (DEV1, DEV1, password, Err(Denied::Password)),
            // colleagues
            (DEV1, ADMIN1, none, Err(Denied::NotAdmin)),
            (ADMIN1, DEV1, role(MANAGEMENT), Ok(())),
            (ADMIN1, DEV1, role(SUPERADMIN), Err(Denied::SuperadminRole)),
            (ADMIN1, DEV1, password, Ok(())),
            (ADMIN1, DEV1, status, Ok(())),
            (ADMIN1, SUPER, none, Err(Denied::TargetIsSuperadmin)),
            (ADMIN1, SUPER, password, Err(Denied::TargetIsSuperadmin)),
            // other organizations do not exist for administrators
            (ADMIN1, DEV2, none, Err(Denied::UserNotFound)),
            (ADMIN2, DEV1, role(DEVELOPER), Err(Denied::UserNotFound)),
            // superadmins do everything, except change their own role
            (SUPER, DEV2, org, Ok(())),
            (SUPER, DEV2, role(SUPERADMIN), Ok(())),
            (SUPER, DEV2, password, Ok(())),
            (SUPER, SUPER, role(DEVELOPER), Err(Denied::OwnRole)),
        ];
        for (actor, target, changes, expected) in cases {
            assert_eq!(
                check_update(actor, target, changes),
                expected,
                "{actor:?} -> {target:?} {changes:?}"
            );
        }
    }

    #[test]
    fn password_field_rule() {
        let cases = [
            (SUPER, SUPER, true),
            (SUPER, DEV2, true),
            (ADMIN1, DEV1, true),
            (ADMIN1, ADMIN1, true),
            (ADMIN1, SUPER, false),
            (ADMIN1, DEV2, false),
            (DEV1, DEV1, false),
        ];
        for (actor, target, expected) in cases {
            assert_eq!(
                may_set_password(actor, target),
                expected,
                "{actor:?} -> {target:?}"
            );
        }
    }

    #[test]
    fn delete_rules() {
        let cases = [
            (ADMIN1, DEV1, Ok(())),
            (ADMIN1, ADMIN1, Err(Denied::DeleteSelf)),
            (ADMIN1, SUPER, Err(Denied::TargetIsSuperadmin)),
            (ADMIN1, DEV2, Err(Denied::UserNotFound)),
            (DEV1, ADMIN1, Err(Denied::NotAdmin)),
            (SUPER, DEV2, Ok(())),
        ];
        for (actor, target, expected) in cases {
            assert_eq!(check_delete(actor, target), expected, "{actor:?} -> {target:?}");
        }
    }

    #[test]
    fn seats_and_roles() {
        assert!(seat_available(2, 1));
        assert!(!seat_available(2, 2));
        assert!(!seat_available(0, 0));
        assert_eq!(
            assignable_roles(ADMINISTRATOR),
            vec![DEVELOPER, MANAGEMENT, ADMINISTRATOR]
        );
        assert_eq!(assignable_roles(SUPERADMIN).len(), 4);
        assert!(assignable_roles(DEVELOPER).is_empty());
    }
}
