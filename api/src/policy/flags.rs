//! Flighting: per organization, per feature key, `active` plus the roles that see the feature.
//!
//! Rules (spec 000 §6, 001 §6): a superadmin always has every feature; anyone else has a feature
//! when its flag is missing (nothing restricts it) or is active and lists their role. An
//! administrator edits their own organization's flags for the roles developer and management; a
//! superadmin edits any organization's flags and also the administrator role and `active`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{Feature, Role};

/// A feature's flag in an organization.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Flag {
    pub key: Feature,
    pub name: String,
    pub active: bool,
    /// Roles that see the feature (developer, management, administrator).
    pub user_roles: Vec<Role>,
}

/// A flag as a client asks to set it (its key and roles are checked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FlagChange {
    #[schema(value_type = Feature)]
    pub key: String,
    /// Ignored: the name is the feature's.
    #[serde(default)]
    pub name: String,
    pub active: bool,
    /// Roles that see the feature: developer, management, administrator.
    #[schema(value_type = Vec<Role>)]
    pub user_roles: Vec<String>,
}

impl Flag {
    /// The flag of `key` with every flighted role.
    fn default_of(key: Feature) -> Self {
        Flag {
            key,
            name: key.name().into(),
            active: true,
            user_roles: Role::FLIGHTED.to_vec(),
        }
    }
}

/// The flighting of a new organization: every feature active for every role.
pub fn defaults() -> Vec<Flag> {
    Feature::ALL.iter().copied().map(Flag::default_of).collect()
}

/// Display order: the features' own.
pub fn sort(flags: &mut [Flag]) {
    flags.sort_by_key(|f| Feature::ALL.iter().position(|k| *k == f.key));
}

/// Whether a role may use a feature, given its flag (None: no flag restricts it).
pub fn allowed(role: Role, flag: Option<&Flag>) -> bool {
    if role == Role::Superadmin {
        return true;
    }
    match flag {
        None => true,
        Some(f) => f.active && f.user_roles.contains(&role),
    }
}

/// The feature an API path belongs to, for the flighting gate on every route of that area.
/// Sharing (`/v1/applications/share…`, shared by every asset kind) and comments are not gated by
/// path: the share calls check the feature of the shared asset's kind themselves.
pub fn feature_for_path(path: &str) -> Option<Feature> {
    const UNGATED: [&str; 1] = ["/v1/applications/share"];
    let under = |path: &str, prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    if UNGATED.iter().any(|p| under(path, p)) {
        return None;
    }
    // A legacy project's notebook server (`/v1/users/{id}/getJupyterDevUrl`).
    if path.starts_with("/v1/users/") && path.ends_with("/getJupyterDevUrl") {
        return Some(Feature::Notebooks);
    }
    const AREAS: [(&str, Feature); 9] = [
        ("/v1/applications", Feature::Insights),
        ("/v2/applications", Feature::Insights),
        ("/v1/templates", Feature::Insights),
        // The legacy notebook-style projects (the console's Notebooks section).
        ("/v1/projects", Feature::Notebooks),
        ("/v2/projects", Feature::Projects),
        ("/v2/workflows", Feature::Workflows),
        ("/v1/datasets", Feature::Datasets),
        ("/v1/notebook", Feature::Notebooks),
        ("/v1/notebooks", Feature::Notebooks),
    ];
    AREAS
        .iter()
        .find(|(prefix, _)| under(path, prefix))
        .map(|(_, key)| *key)
}

/// Roles whose membership the caller may change.
pub fn editable_roles(caller_role: Role) -> &'static [Role] {
    match caller_role {
        Role::Superadmin => &Role::FLIGHTED,
        Role::Administrator => &[Role::Developer, Role::Management],
        _ => &[],
    }
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlagError {
    #[error("Only administrators and superadmins can change flighting")]
    NotAllowed,
    #[error("Unknown feature key: {0}")]
    UnknownKey(String),
    #[error("Unknown role: {0}")]
    UnknownRole(String),
    #[error("Only a superadmin can change which features administrators see")]
    AdministratorRole,
    #[error("Only a superadmin can switch a feature on or off")]
    Active,
    #[error("Feature key {0} appears more than once")]
    Duplicate(String),
}

/// The flags after `caller_role` applies `requested` to `current`. Keys not in `requested` stay
/// as they are; changes to roles or `active` the caller may not make are refused (not ignored),
/// so a console mistake is visible.
pub fn apply_update(
    caller_role: Role,
    current: &[Flag],
    requested: &[FlagChange],
) -> Result<Vec<Flag>, FlagError> {
    let editable = editable_roles(caller_role);
    if editable.is_empty() {
        return Err(FlagError::NotAllowed);
    }
    let mut out: Vec<Flag> = Feature::ALL
        .iter()
        .map(|key| {
            current
                .iter()
                .find(|f| f.key == *key)
                .cloned()
                .unwrap_or_else(|| Flag::default_of(*key))
        })
        .collect();
    let mut seen = Vec::new();
    for req in requested {
        let Ok(key) = req.key.parse::<Feature>() else {
            return Err(FlagError::UnknownKey(req.key.clone()));
        };
        if seen.contains(&key) {
            return Err(FlagError::Duplicate(req.key.clone()));
        }
        seen.push(key);
        let mut wanted = Vec::new();
        for r in &req.user_roles {
            match r.parse::<Role>() {
                Ok(role) if Role::FLIGHTED.contains(&role) => wanted.push(role),
                _ => return Err(FlagError::UnknownRole(r.clone())),
            }
        }
        let slot = out
            .iter_mut()
            .find(|f| f.key == key)
            .expect("every key has a slot");
        if req.active != slot.active && caller_role != Role::Superadmin {
            return Err(FlagError::Active);
        }
        let had_admin = slot.user_roles.contains(&Role::Administrator);
        let wants_admin = wanted.contains(&Role::Administrator);
        if had_admin != wants_admin && !editable.contains(&Role::Administrator) {
            return Err(FlagError::AdministratorRole);
        }
        *slot = Flag {
            key,
            name: key.name().to_owned(),
            active: req.active,
            user_roles: Role::FLIGHTED
                .into_iter()
                .filter(|r| wanted.contains(r))
                .collect(),
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Role::{
        Administrator as ADMINISTRATOR, Developer as DEVELOPER, Management as MANAGEMENT,
        Superadmin as SUPERADMIN,
    };

    /// A requested flag.
    fn flag(key: &str, active: bool, roles: &[Role]) -> FlagChange {
        FlagChange {
            key: key.into(),
            name: key.into(),
            active,
            user_roles: roles.iter().map(|r| r.to_string()).collect(),
        }
    }

    /// A stored flag.
    fn stored(key: Feature, active: bool, roles: &[Role]) -> Flag {
        Flag {
            key,
            name: key.name().into(),
            active,
            user_roles: roles.to_vec(),
        }
    }

    #[test]
    fn who_may_use_a_feature() {
        let dev_only = stored(Feature::Projects, true, &[DEVELOPER]);
        let off = stored(Feature::Projects, false, &[DEVELOPER, ADMINISTRATOR]);
        let cases = [
            (DEVELOPER, Some(&dev_only), true),
            (MANAGEMENT, Some(&dev_only), false),
            (ADMINISTRATOR, Some(&dev_only), false),
            (SUPERADMIN, Some(&dev_only), true),
            (DEVELOPER, Some(&off), false),
            (ADMINISTRATOR, Some(&off), false),
            (SUPERADMIN, Some(&off), true),
            (DEVELOPER, None, true),
        ];
        for (role, f, expected) in cases {
            assert_eq!(allowed(role, f), expected, "{role} {f:?}");
        }
    }

    #[test]
    fn paths_map_to_features() {
        let cases = [
            ("/v1/applications/insights", Some(Feature::Insights)),
            ("/v2/applications/create", Some(Feature::Insights)),
            ("/v1/projects", Some(Feature::Notebooks)),
            ("/v1/users/u1/getJupyterDevUrl", Some(Feature::Notebooks)),
            ("/v1/users/u1", None),
            ("/v2/projects/12", Some(Feature::Projects)),
            ("/v2/workflows/run/1", Some(Feature::Workflows)),
            ("/v1/datasets/listdatasets", Some(Feature::Datasets)),
            ("/v1/notebook/3", Some(Feature::Notebooks)),
            ("/v1/projectsfoo", None),
            ("/v1/users", None),
            ("/v1/flighting", None),
            ("/v1/applications/pin/list", Some(Feature::Insights)),
            ("/v2/applications/redeploy/1", Some(Feature::Insights)),
            ("/v1/applications/share", None),
            ("/v1/applications/share/1", None),
            ("/v1/applications/shared", Some(Feature::Insights)),
            ("/v1/shares/sharedwith/1", None),
            ("/v1/comment/list", None),
            ("/v1/directory/share", None),
        ];
        for (path, expected) in cases {
            assert_eq!(feature_for_path(path), expected, "{path}");
        }
    }

    #[test]
    fn update_rules_by_caller() {
        let current = defaults();
        let all = [DEVELOPER, MANAGEMENT, ADMINISTRATOR];
        let cases: Vec<(Role, Vec<FlagChange>, Result<(), FlagError>)> = vec![
            // an administrator takes management off projects
            (
                ADMINISTRATOR,
                vec![flag("projects", true, &[DEVELOPER, ADMINISTRATOR])],
                Ok(()),
            ),
            // … but may not touch the administrator role
            (
                ADMINISTRATOR,
                vec![flag("projects", true, &[DEVELOPER, MANAGEMENT])],
                Err(FlagError::AdministratorRole),
            ),
            // … nor switch a feature off
            (
                ADMINISTRATOR,
                vec![flag("projects", false, &all)],
                Err(FlagError::Active),
            ),
            // a superadmin may do both
            (SUPERADMIN, vec![flag("projects", false, &[DEVELOPER])], Ok(())),
            // developers and management may not edit at all
            (
                DEVELOPER,
                vec![flag("projects", true, &all)],
                Err(FlagError::NotAllowed),
            ),
            (MANAGEMENT, vec![], Err(FlagError::NotAllowed)),
            // the superadmin role is never listed, unknown keys and roles are refused
            (
                SUPERADMIN,
                vec![flag("projects", true, &[SUPERADMIN])],
                Err(FlagError::UnknownRole("superadmin".into())),
            ),
            (
                SUPERADMIN,
                vec![flag("crypto", true, &all)],
                Err(FlagError::UnknownKey("crypto".into())),
            ),
            (
                SUPERADMIN,
                vec![flag("insights", true, &all), flag("insights", true, &all)],
                Err(FlagError::Duplicate("insights".into())),
            ),
        ];
        for (caller, requested, expected) in cases {
            let got = apply_update(caller, &current, &requested).map(|_| ());
            assert_eq!(got, expected, "{caller} {requested:?}");
        }
    }

    #[test]
    fn an_update_keeps_other_keys_and_orders_roles() {
        let out = apply_update(
            ADMINISTRATOR,
            &defaults(),
            &[flag("datasets", true, &[ADMINISTRATOR, DEVELOPER, DEVELOPER])],
        )
        .unwrap();
        assert_eq!(out.len(), 5);
        assert_eq!(
            out[3],
            stored(Feature::Datasets, true, &[DEVELOPER, ADMINISTRATOR])
        );
        assert_eq!(out[0], defaults()[0]);
    }

    #[test]
    fn editable_roles_by_caller() {
        assert_eq!(
            editable_roles(SUPERADMIN),
            &[DEVELOPER, MANAGEMENT, ADMINISTRATOR]
        );
        assert_eq!(editable_roles(ADMINISTRATOR), &[DEVELOPER, MANAGEMENT]);
        assert!(editable_roles(DEVELOPER).is_empty());
    }
}
