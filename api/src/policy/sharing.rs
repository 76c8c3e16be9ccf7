//! The one access rule for every asset kind (docs/design.md "The one access rule", spec 000 §4 and 001 §6):
//! the owner has edit; an administrator of the asset's organization, or a superadmin, has edit;
//! a member of the asset's organization has the highest of their own share and the
//! organization's share; anyone else, or a member with neither, does not see the asset (404,
//! never 403, so ids cannot be probed). Shares never reach outside the asset's organization.
//! Pure functions over loaded facts, used by every route and websocket that takes an asset.

use crate::domain::{AccessLevel, AssetKind, Role};

/// Who asks.
#[derive(Clone, Copy, Debug)]
pub struct Caller<'a> {
    pub uid: &'a str,
    pub organization_id: &'a str,
    pub role: Role,
}

/// The asset, as far as access goes.
#[derive(Clone, Copy, Debug)]
pub struct Asset<'a> {
    pub owner_uid: &'a str,
    pub organization_id: &'a str,
}

/// The shares that concern the caller: their own entry and the asset's organization entry
/// (`None`: no entry; an `unshare` entry is `Some(AccessLevel::None)`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Shares {
    pub user: Option<AccessLevel>,
    pub organization: Option<AccessLevel>,
}

/// The caller's level on the asset.
pub fn access(caller: Caller<'_>, asset: Asset<'_>, shares: Shares) -> AccessLevel {
    if caller.uid == asset.owner_uid {
        return AccessLevel::Edit;
    }
    if administers(caller, asset) {
        return AccessLevel::Edit;
    }
    // Shares stay inside the asset's organization: its organization entry reaches its members,
    // and a personal entry only a member too (one made before this rule, or left by someone who
    // moved to another organization, grants nothing).
    if caller.organization_id != asset.organization_id {
        return AccessLevel::None;
    }
    shares.user.max(shares.organization).unwrap_or(AccessLevel::None)
}

/// Why an action on an asset is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Denied {
    /// The asset does not exist for the caller: 404.
    NotFound,
    /// The caller sees the asset but may not do this: 403.
    Forbidden,
}

impl Denied {
    pub fn status(self) -> u16 {
        match self {
            Denied::NotFound => 404,
            Denied::Forbidden => 403,
        }
    }
}

/// Whether `have` allows what needs `need`: no access at all is a 404, too little a 403.
pub fn require(have: AccessLevel, need: AccessLevel) -> Result<(), Denied> {
    if have == AccessLevel::None {
        Err(Denied::NotFound)
    } else if have < need {
        Err(Denied::Forbidden)
    } else {
        Ok(())
    }
}

/// Why a share is refused (messages as the spec and the console say them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareDenied {
    /// The caller cannot see the asset.
    NotFound,
    /// Only editors share.
    NotAnEditor,
    /// 'Cannot share to yourself!'
    SelfShare,
    /// The owner's entry is fixed.
    OwnerEntry,
    /// `execute` on a dataset, or `none` as a grant.
    LevelNotOffered(AccessLevel),
    /// An entry declared in the resource's `spec.sharing` is managed there (GitOps).
    ManagedByResource,
}

impl ShareDenied {
    pub fn message(&self) -> String {
        match self {
            ShareDenied::NotFound => "Not found".into(),
            ShareDenied::NotAnEditor => "Only editors can share this item".into(),
            ShareDenied::SelfShare => "Cannot share to yourself!".into(),
            ShareDenied::OwnerEntry => "The owner's access cannot be changed".into(),
            ShareDenied::LevelNotOffered(l) => format!("{} access cannot be granted here", l.role_name()),
            ShareDenied::ManagedByResource => {
                "This access is declared in the resource's spec.sharing; change it there".into()
            }
        }
    }
}

/// A share entry to be set (`grant`, or `None` to revoke) for `target_uid`, by a caller with
/// level `caller_level` on an asset of `kind` owned by `owner_uid`.
pub fn check_share(
    caller_uid: &str,
    caller_level: AccessLevel,
    kind: AssetKind,
    owner_uid: &str,
    target_uid: &str,
    grant: AccessLevel,
    managed_by_resource: bool,
) -> Result<(), ShareDenied> {
    match caller_level {
        AccessLevel::None => return Err(ShareDenied::NotFound),
        AccessLevel::Edit => {}
        _ => return Err(ShareDenied::NotAnEditor),
    }
    if target_uid == caller_uid {
        return Err(ShareDenied::SelfShare);
    }
    if target_uid == owner_uid {
        return Err(ShareDenied::OwnerEntry);
    }
    if managed_by_resource {
        return Err(ShareDenied::ManagedByResource);
    }
    if grant != AccessLevel::None && !kind.grantable().contains(&grant) {
        return Err(ShareDenied::LevelNotOffered(grant));
    }
    Ok(())
}

/// Whether the caller may move the asset to another owner: only the owner's organization
/// administrators, or a superadmin.
pub fn may_move_ownership(caller: Caller<'_>, asset: Asset<'_>) -> bool {
    administers(caller, asset)
}

/// An administrator of the asset's organization, or a superadmin.
fn administers(caller: Caller<'_>, asset: Asset<'_>) -> bool {
    caller.role == Role::Superadmin
        || (caller.role.is_admin() && caller.organization_id == asset.organization_id)
}

/// The spec's share input: e-mails separated by commas, trimmed, empty ones dropped,
/// duplicates removed (case-insensitively), in order.
pub fn split_emails(input: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in input.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        if !out.iter().any(|o| o.eq_ignore_ascii_case(e)) {
            out.push(e.to_owned());
        }
    }
    out
}

/// '{type} shared!' (e.g. 'Insight shared!').
pub fn shared_message(entity_label: &str) -> String {
    format!("{entity_label} shared!")
}

#[cfg(test)]
mod tests {
    use super::{
        AccessLevel::{Edit, Execute, View},
        *,
    };
    use crate::domain::Role::{
        Administrator as ADMINISTRATOR, Developer as DEVELOPER, Management as MANAGEMENT,
        Superadmin as SUPERADMIN,
    };

    const ASSET: Asset<'static> = Asset {
        owner_uid: "owner",
        organization_id: "acme",
    };

    fn caller<'a>(uid: &'a str, org: &'a str, role: Role) -> Caller<'a> {
        Caller {
            uid,
            organization_id: org,
            role,
        }
    }

    #[test]
    fn the_access_rule() {
        let s = |user, organization| Shares { user, organization };
        #[rustfmt::skip]
        let cases = [
            // (who, organization, role, user share, org share, level)
            ("owner", "acme", DEVELOPER, None, None, Edit),
            ("owner", "acme", DEVELOPER, Some(View), None, Edit), // nothing lowers the owner
            ("admin", "acme", ADMINISTRATOR, None, None, Edit),
            ("admin", "other", ADMINISTRATOR, None, None, AccessLevel::None), // another organization's admin
            ("root", "other", SUPERADMIN, None, None, Edit),
            ("dev", "acme", DEVELOPER, None, None, AccessLevel::None), // no share: does not exist
            ("dev", "acme", DEVELOPER, Some(View), None, View),
            ("dev", "acme", MANAGEMENT, Some(Execute), None, Execute),
            ("dev", "acme", DEVELOPER, None, Some(View), View),
            ("dev", "acme", DEVELOPER, Some(View), Some(Edit), Edit), // the highest wins
            ("dev", "acme", DEVELOPER, Some(Edit), Some(View), Edit),
            ("dev", "acme", DEVELOPER, Some(AccessLevel::None), None, AccessLevel::None), // unshared
            ("dev", "acme", DEVELOPER, Some(AccessLevel::None), Some(View), View),
            ("dev", "other", DEVELOPER, None, Some(Edit), AccessLevel::None), // org share is for members only
            ("dev", "other", DEVELOPER, Some(View), Some(Edit), AccessLevel::None), // nor a personal one
            ("admin", "other", ADMINISTRATOR, Some(Edit), None, AccessLevel::None),
        ];
        for (uid, org, role, user, organization, want) in cases {
            assert_eq!(
                access(caller(uid, org, role), ASSET, s(user, organization)),
                want,
                "{uid}/{org}/{role} user={user:?} org={organization:?}"
            );
        }
    }

    #[test]
    fn no_access_is_not_found_and_too_little_is_forbidden() {
        assert_eq!(require(AccessLevel::None, View), Err(Denied::NotFound));
        assert_eq!(
            require(AccessLevel::None, AccessLevel::None),
            Err(Denied::NotFound)
        );
        assert_eq!(require(View, Execute), Err(Denied::Forbidden));
        assert_eq!(require(Execute, Edit), Err(Denied::Forbidden));
        assert_eq!(require(Execute, Execute), Ok(()));
        assert_eq!(require(Edit, View), Ok(()));
        assert_eq!(Denied::NotFound.status(), 404);
        assert_eq!(Denied::Forbidden.status(), 403);
    }

    #[test]
    fn who_may_share_what() {
        use AssetKind::{Dataset, Insight};
        let ok = |level, kind, target, grant| check_share("me", level, kind, "owner", target, grant, false);
        assert_eq!(ok(Edit, Insight, "bob", Edit), Ok(()));
        assert_eq!(ok(Edit, Insight, "bob", AccessLevel::None), Ok(())); // revoke
        assert_eq!(ok(Execute, Insight, "bob", View), Err(ShareDenied::NotAnEditor));
        assert_eq!(ok(View, Insight, "bob", View), Err(ShareDenied::NotAnEditor));
        assert_eq!(
            ok(AccessLevel::None, Insight, "bob", View),
            Err(ShareDenied::NotFound)
        );
        assert_eq!(ok(Edit, Insight, "me", View), Err(ShareDenied::SelfShare));
        assert_eq!(
            ok(Edit, Insight, "owner", AccessLevel::None),
            Err(ShareDenied::OwnerEntry)
        );
        assert_eq!(
            ok(Edit, Dataset, "bob", Execute),
            Err(ShareDenied::LevelNotOffered(Execute))
        );
        assert_eq!(ok(Edit, Dataset, "bob", Edit), Ok(()));
        assert_eq!(
            check_share("me", Edit, Insight, "owner", "bob", View, true),
            Err(ShareDenied::ManagedByResource)
        );
        assert_eq!(ShareDenied::SelfShare.message(), "Cannot share to yourself!");
        assert_eq!(shared_message("Insight"), "Insight shared!");
    }

    #[test]
    fn ownership_moves_only_by_the_organizations_admins_or_a_superadmin() {
        assert!(may_move_ownership(caller("a", "acme", ADMINISTRATOR), ASSET));
        assert!(may_move_ownership(caller("r", "x", SUPERADMIN), ASSET));
        assert!(!may_move_ownership(caller("a", "other", ADMINISTRATOR), ASSET));
        assert!(!may_move_ownership(caller("owner", "acme", DEVELOPER), ASSET));
    }

    #[test]
    fn share_input_is_split_on_commas_and_trimmed() {
        assert_eq!(
            split_emails(" a@x.io, b@x.io ,, A@X.io,c@x.io "),
            ["a@x.io", "b@x.io", "c@x.io"]
        );
        assert!(split_emails(" , ").is_empty());
    }
}
