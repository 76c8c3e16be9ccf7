//! Flighting: per organization, per feature key, `active` plus the roles that see the feature.
//!
//! Rules (spec 000 §6, 001 §6): a superadmin always has every feature; anyone else has a feature
//! when its flag is missing (nothing restricts it) or is active and lists their role. An
//! administrator edits their own organization's flags for the roles developer and management; a
//! superadmin edits any organization's flags and also the administrator role and `active`.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{ADMINISTRATOR, DEVELOPER, MANAGEMENT, SUPERADMIN};

/// The feature keys and their display names, in display order.
pub const FEATURES: [(&str, &str); 5] = [
    ("insights", "Insights"),
    ("projects", "Projects"),
    ("workflows", "Workflows"),
    ("datasets", "Datasets"),
    ("notebooks", "Notebooks"),
];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Flag {
    /// One of insights, projects, workflows, datasets, notebooks.
    pub key: String,
    pub name: String,
    pub active: bool,
    /// Roles that see the feature (developer, management, administrator).
    pub user_roles: Vec<String>,
}

/// The flighting of a new organization: every feature active for every role.
pub fn defaults() -> Vec<Flag> {
    FEATURES
        .iter()
        .map(|(key, name)| Flag {
            key: (*key).into(),
            name: (*name).into(),
            active: true,
            user_roles: vec![DEVELOPER.into(), MANAGEMENT.into(), ADMINISTRATOR.into()],
        })
        .collect()
}

pub fn sort(flags: &mut [Flag]) {
    flags.sort_by_key(|f| {
        FEATURES
            .iter()
            .position(|(k, _)| *k == f.key)
            .unwrap_or(usize::MAX)
    });
}

pub fn feature_name(key: &str) -> Option<&'static str> {
    FEATURES.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
}

/// Whether a role may use a feature, given its flag (None: no flag restricts it).
pub fn allowed(role: &str, flag: Option<&Flag>) -> bool {
    if role == SUPERADMIN {
        return true;
    }
    match flag {
        None => true,
        Some(f) => f.active && f.user_roles.iter().any(|r| r == role),
    }
}

/// The feature an API path belongs to, for the flighting gate on every route of that area.
/// Sharing (`/v1/applications/share…`, shared by every asset kind) and comments are not gated by
/// path: the share calls check the feature of the shared asset's kind themselves.
pub fn feature_for_path(path: &str) -> Option<&'static str> {
    const UNGATED: [&str; 1] = ["/v1/applications/share"];
    let under = |path: &str, prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    if UNGATED.iter().any(|p| under(path, p)) {
        return None;
    }
    const AREAS: [(&str, &str); 9] = [
        ("/v1/applications", "insights"),
        ("/v2/applications", "insights"),
        ("/v1/templates", "insights"),
        ("/v1/projects", "projects"),
        ("/v2/projects", "projects"),
        ("/v2/workflows", "workflows"),
        ("/v1/datasets", "datasets"),
        ("/v1/notebook", "notebooks"),
        ("/v1/notebooks", "notebooks"),
    ];
    AREAS
        .iter()
        .find(|(prefix, _)| under(path, prefix))
        .map(|(_, key)| *key)
}

/// Roles whose membership the caller may change.
pub fn editable_roles(caller_role: &str) -> &'static [&'static str] {
    match caller_role {
        SUPERADMIN => &[DEVELOPER, MANAGEMENT, ADMINISTRATOR],
        ADMINISTRATOR => &[DEVELOPER, MANAGEMENT],
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
pub fn apply_update(caller_role: &str, current: &[Flag], requested: &[Flag]) -> Result<Vec<Flag>, FlagError> {
    let editable = editable_roles(caller_role);
    if editable.is_empty() {
        return Err(FlagError::NotAllowed);
    }
    let mut out: Vec<Flag> = FEATURES
        .iter()
        .map(|(key, _)| {
            current
                .iter()
                .find(|f| f.key == *key)
                .cloned()
                .unwrap_or_else(|| {
                    defaults()
                        .into_iter()
                        .find(|f| f.key == *key)
                        .expect("a default per key")
                })
        })
        .collect();
    let mut seen = Vec::new();
    for req in requested {
        let Some(name) = feature_name(&req.key) else {
            return Err(FlagError::UnknownKey(req.key.clone()));
        };
        if seen.contains(&req.key) {
            return Err(FlagError::Duplicate(req.key.clone()));
        }
        seen.push(req.key.clone());
        for r in &req.user_roles {
            if ![DEVELOPER, MANAGEMENT, ADMINISTRATOR].contains(&r.as_str()) {
                return Err(FlagError::UnknownRole(r.clone()));
            }
        }
        let slot = out
            .iter_mut()
            .find(|f| f.key == req.key)
            .expect("every key has a slot");
        if req.active != slot.active && caller_role != SUPERADMIN {
            return Err(FlagError::Active);
        }
        let had_admin = slot.user_roles.iter().any(|r| r == ADMINISTRATOR);
        let wants_admin = req.user_roles.iter().any(|r| r == ADMINISTRATOR);
        if had_admin != wants_admin && !editable.contains(&ADMINISTRATOR) {
            return Err(FlagError::AdministratorRole);
        }
        let mut roles: Vec<String> = [DEVELOPER, MANAGEMENT, ADMINISTRATOR]
            .iter()
            .filter(|r| req.user_roles.iter().any(|x| x == *r))
            .map(|r| (*r).to_owned())
            .collect();
        roles.dedup();
        *slot = Flag {
            key: req.key.clone(),
            name: name.to_owned(),
            active: req.active,
            user_roles: roles,
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flag(key: &str, active: bool, roles: &[&str]) -> Flag {
        Flag {
            key: key.into(),
            name: feature_name(key).unwrap_or("?").into(),
            active,
            user_roles: roles.iter().map(|r| (*r).to_owned()).collect(),
        }
    }

    #[test]
    fn who_may_use_a_feature() {
        let dev_only = flag("projects", true, &[DEVELOPER]);
        let off = flag("projects", false, &[DEVELOPER, ADMINISTRATOR]);
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
            ("/v1/applications/insights", Some("insights")),
            ("/v2/applications/create", Some("insights")),
            ("/v1/projects", Some("projects")),
            ("/v2/projects/12", Some("projects")),
            ("/v2/workflows/run/1", Some("workflows")),
            ("/v1/datasets/listdatasets", Some("datasets")),
            ("/v1/notebook/3", Some("notebooks")),
            ("/v1/projectsfoo", None),
            ("/v1/users", None),
            ("/v1/flighting", None),
            ("/v1/applications/pin/list", Some("insights")),
            ("/v2/applications/redeploy/1", Some("insights")),
            ("/v1/applications/share", None),
            ("/v1/applications/share/1", None),
            ("/v1/applications/shared", Some("insights")),
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
        let cases: Vec<(&str, Vec<Flag>, Result<(), FlagError>)> = vec![
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
                Err(FlagError::UnknownRole(SUPERADMIN.into())),
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
        assert_eq!(out[3], flag("datasets", true, &[DEVELOPER, ADMINISTRATOR]));
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
