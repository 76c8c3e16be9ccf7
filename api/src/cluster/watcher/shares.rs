//! `spec.sharing` as the row's resource (managed) share entries, for every kind.

use std::collections::BTreeMap;

use ludis_crds::common::{AccessLevel as DeclaredLevel, Sharing};

use crate::{
    db::{self, shares},
    domain::{AccessLevel, StoredTarget},
};

/// Share entries by target: `(to_type, to_id) → level`.
pub(super) type Declared = BTreeMap<(StoredTarget, String), AccessLevel>;

/// The resource share entries of `spec.sharing`: `(to_type, to_id) → level` (the highest when an
/// address repeats). Users of the organization by uid, unknown addresses by lowercased e-mail,
/// users of other organizations skipped, the owner skipped (they have edit).
/// `level_of` maps a declared level to the kind's (datasets have no execute).
pub(super) async fn resource_shares(
    db: &sqlx::AnyPool,
    organization_id: &str,
    sharing: Option<&Sharing>,
    owner_uid: Option<&str>,
    level_of: fn(DeclaredLevel) -> AccessLevel,
) -> anyhow::Result<Declared> {
    let mut out = Declared::new();
    let Some(sharing) = sharing else {
        return Ok(out);
    };
    let mut add = |to_type: StoredTarget, to_id: String, level: AccessLevel| {
        let e = out.entry((to_type, to_id)).or_insert(level);
        *e = (*e).max(level);
    };
    for u in &sharing.users {
        let email = u.email.trim().to_lowercase();
        match db::users::by_email(db, &email).await? {
            Some(user) if user.organization_id == organization_id => {
                if Some(user.uid.as_str()) != owner_uid {
                    add(StoredTarget::User, user.uid, level_of(u.level));
                }
            }
            Some(_) => {
                tracing::info!(%email, "spec.sharing names a user of another organization; skipped");
            }
            None => add(StoredTarget::Email, email, level_of(u.level)),
        }
    }
    if let Some(level) = sharing.organization {
        add(
            StoredTarget::Organization,
            organization_id.to_owned(),
            level_of(level),
        );
    }
    Ok(out)
}

/// The row's resource (managed) share entries, in [`resource_shares`]'s shape.
pub(super) async fn managed_shares(db: &sqlx::AnyPool, asset_id: &str) -> anyhow::Result<Declared> {
    Ok(shares::for_asset(db, asset_id)
        .await?
        .into_iter()
        .filter(|s| s.is_managed())
        .map(|s| ((s.to_type, s.to_id), s.level))
        .collect())
}

pub(super) fn entries(shares: &Declared) -> Vec<shares::Entry<'_>> {
    shares
        .iter()
        .map(|((to_type, to_id), level)| shares::Entry {
            to_type: *to_type,
            to_id,
            level: *level,
        })
        .collect()
}
