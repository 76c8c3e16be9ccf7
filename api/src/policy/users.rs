//! Who may see, create, change and delete users (spec 001 §5–§6): administrators act only in
//! their own organization, the superadmin role is assigned only by a superadmin, only a
//! superadmin moves users between organizations, and the password field on edit is for a
//! superadmin, or an administrator editing a non-superadmin. Changes a caller may not make are
//! refused, never silently applied, so extra fields cannot raise a role or move a user.

use crate::domain::{Role, UserStatus};

/// The facts about a person the rules need.
#[derive(Debug, Clone, Copy)]
pub struct Person<'a> {
    pub uid: &'a str,
    pub role: Role,
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

/// Whether `actor` may know that `target` exists: same organization, or a superadmin.
pub fn can_see(actor: Person<'_>, target: Person<'_>) -> bool {
    actor.role == Role::Superadmin || actor.organization_id == target.organization_id
}

/// Whether `actor` may see an organization at all.
pub fn can_see_org(actor: Person<'_>, organization_id: &str) -> bool {
    actor.role == Role::Superadmin || actor.organization_id == organization_id
}

/// Whether `actor` administers an organization.
pub fn administers(actor: Person<'_>, organization_id: &str) -> bool {
    actor.role == Role::Superadmin
        || (actor.role == Role::Administrator && actor.organization_id == organization_id)
}

/// Roles `actor` may assign.
pub fn assignable_roles(actor_role: Role) -> Vec<Role> {
    match actor_role {
        Role::Superadmin => Role::ALL.to_vec(),
        Role::Administrator => Role::ALL
            .iter()
            .copied()
            .filter(|r| *r != Role::Superadmin)
            .collect(),
        _ => vec![],
    }
}

/// The role a new user gets, when `actor` may create them with it.
pub fn check_create(actor: Person<'_>, role: &str, organization_id: &str) -> Result<Role, Denied> {
    if !can_see_org(actor, organization_id) {
        return Err(Denied::OrganizationNotFound);
    }
    if !actor.role.is_admin() {
        return Err(Denied::NotAdmin);
    }
    check_role(actor, role)
}

/// A requested role, when it is one and `actor` may assign it.
fn check_role(actor: Person<'_>, role: &str) -> Result<Role, Denied> {
    let role: Role = role.parse().map_err(|_| Denied::InvalidRole(role.to_owned()))?;
    if role == Role::Superadmin && actor.role != Role::Superadmin {
        return Err(Denied::SuperadminRole);
    }
    Ok(role)
}

/// The password field on edit: a superadmin, or an administrator of the user's organization
/// editing a non-superadmin.
pub fn may_set_password(actor: Person<'_>, target: Person<'_>) -> bool {
    actor.role == Role::Superadmin
        || (actor.role == Role::Administrator
            && target.role != Role::Superadmin
            && actor.organization_id == target.organization_id)
}

pub fn check_update(actor: Person<'_>, target: Person<'_>, changes: Changes<'_>) -> Result<(), Denied> {
    if !can_see(actor, target) {
        return Err(Denied::UserNotFound);
    }
    let is_self = actor.uid == target.uid;
    if !is_self {
        if !actor.role.is_admin() {
            return Err(Denied::NotAdmin);
        }
        if target.role == Role::Superadmin && actor.role != Role::Superadmin {
            return Err(Denied::TargetIsSuperadmin);
        }
    }
    if let Some(role) = changes.role {
        check_role(actor, role)?;
        if is_self {
            return Err(Denied::OwnRole);
        }
    }
    if changes.organization_id.is_some() && actor.role != Role::Superadmin {
        return Err(Denied::Organization);
    }
    if let Some(status) = changes.status {
        if status.parse::<UserStatus>().is_err() {
            return Err(Denied::InvalidStatus(status.to_owned()));
        }
        if !actor.role.is_admin() || is_self {
            return Err(Denied::Status);
        }
    }
    if changes.email && !actor.role.is_admin() {
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
    if !actor.role.is_admin() {
        return Err(Denied::NotAdmin);
    }
    if target.role == Role::Superadmin && actor.role != Role::Superadmin {
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
    use crate::domain::Role::{Administrator, Developer, Management, Superadmin};

    const SUPER: Person<'static> = Person {
        uid: "s",
        role: Superadmin,
        organization_id: "o1",
    };
    const ADMIN1: Person<'static> = Person {
        uid: "a1",
        role: Administrator,
        organization_id: "o1",
    };
    const ADMIN2: Person<'static> = Person {
        uid: "a2",
        role: Administrator,
        organization_id: "o2",
    };
    const DEV1: Person<'static> = Person {
        uid: "d1",
        role: Developer,
        organization_id: "o1",
    };
    const DEV2: Person<'static> = Person {
        uid: "d2",
        role: Developer,
        organization_id: "o2",
    };

    #[test]
    fn create_rules() {
        let cases = [
            (SUPER, "developer", "o2", Ok(Developer)),
            (SUPER, "superadmin", "o2", Ok(Superadmin)),
            (ADMIN1, "management", "o1", Ok(Management)),
            (ADMIN1, "administrator", "o1", Ok(Administrator)),
            (ADMIN1, "superadmin", "o1", Err(Denied::SuperadminRole)),
            (ADMIN1, "developer", "o2", Err(Denied::OrganizationNotFound)),
            (DEV1, "developer", "o1", Err(Denied::NotAdmin)),
            (DEV1, "developer", "o2", Err(Denied::OrganizationNotFound)),
            (ADMIN1, "king", "o1", Err(Denied::InvalidRole("king".into()))),
        ];
        for (actor, role, org, expected) in cases {
            assert_eq!(check_create(actor, role, org), expected, "{actor:?} {role} {org}");
        }
    }

    #[test]
    fn update_rules() {
        let none = Changes::default();
        let role = |r: crate::domain::Role| Changes {
            role: Some(r.as_str()),
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
            (DEV1, DEV1, role(Superadmin), Err(Denied::SuperadminRole)),
            (DEV1, DEV1, role(Administrator), Err(Denied::OwnRole)),
            (DEV1, DEV1, org, Err(Denied::Organization)),
            (ADMIN1, ADMIN1, org, Err(Denied::Organization)),
            (ADMIN1, DEV1, org, Err(Denied::Organization)),
            (DEV1, DEV1, status, Err(Denied::Status)),
            (DEV1, DEV1, password, Err(Denied::Password)),
            // colleagues
            (DEV1, ADMIN1, none, Err(Denied::NotAdmin)),
            (ADMIN1, DEV1, role(Management), Ok(())),
            (ADMIN1, DEV1, role(Superadmin), Err(Denied::SuperadminRole)),
            (ADMIN1, DEV1, password, Ok(())),
            (ADMIN1, DEV1, status, Ok(())),
            (ADMIN1, SUPER, none, Err(Denied::TargetIsSuperadmin)),
            (ADMIN1, SUPER, password, Err(Denied::TargetIsSuperadmin)),
            // other organizations do not exist for administrators
            (ADMIN1, DEV2, none, Err(Denied::UserNotFound)),
            (ADMIN2, DEV1, role(Developer), Err(Denied::UserNotFound)),
            // superadmins do everything, except change their own role
            (SUPER, DEV2, org, Ok(())),
            (SUPER, DEV2, role(Superadmin), Ok(())),
            (SUPER, DEV2, password, Ok(())),
            (SUPER, SUPER, role(Developer), Err(Denied::OwnRole)),
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
            assignable_roles(Administrator),
            vec![Developer, Management, Administrator]
        );
        assert_eq!(assignable_roles(Superadmin).len(), 4);
        assert!(assignable_roles(Developer).is_empty());
    }
}
