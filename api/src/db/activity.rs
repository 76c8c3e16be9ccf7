//! Sign-in events and the activity log, recorded as they happen and queried by the metrics
//! routes. Other modules record an [`Activity`] for every create/update/delete they perform.

use std::borrow::Cow;

use sqlx::AnyPool;

use super::{assets::AssetRow, organizations::OrganizationRow, users::UserRow};
use crate::domain::{ActivityAction, ActivityEntity, AssetKind};

/// One activity: who did what to which entity. Made by one of the constructors, which say how
/// each entity is named in the log (the metrics read it).
#[derive(Debug, Clone)]
pub struct Activity<'a> {
    pub user_uid: Option<&'a str>,
    pub organization_id: Option<&'a str>,
    pub entity_type: ActivityEntity,
    pub entity_id: &'a str,
    /// The entity's name at the time of the action (kept when the entity is renamed or deleted).
    pub entity_name: Cow<'a, str>,
    pub action: ActivityAction,
}

impl<'a> Activity<'a> {
    fn new(
        by: &'a UserRow,
        organization_id: &'a str,
        (entity_type, entity_id, entity_name): (ActivityEntity, &'a str, Cow<'a, str>),
        action: ActivityAction,
    ) -> Self {
        Self {
            user_uid: Some(&by.uid),
            organization_id: Some(organization_id),
            entity_type,
            entity_id,
            entity_name,
            action,
        }
    }

    /// `by` did `action` to an asset (of its organization).
    pub fn on_asset(by: &'a UserRow, asset: &'a AssetRow, action: ActivityAction) -> Self {
        let entity = (
            asset.kind.activity_entity(),
            asset.id.as_str(),
            Cow::Borrowed(asset.name.as_str()),
        );
        Self::new(by, &asset.organization_id, entity, action)
    }

    /// `by` did `action` to a user (named by e-mail, in the user's organization).
    pub fn on_user(by: &'a UserRow, user: &'a UserRow, action: ActivityAction) -> Self {
        let entity = (
            ActivityEntity::Users,
            user.uid.as_str(),
            Cow::Borrowed(user.email.as_str()),
        );
        Self::new(by, &user.organization_id, entity, action)
    }

    /// `by` did `action` to an organization.
    pub fn on_organization(by: &'a UserRow, org: &'a OrganizationRow, action: ActivityAction) -> Self {
        let entity = (
            ActivityEntity::Organizations,
            org.id.as_str(),
            Cow::Borrowed(org.name.as_str()),
        );
        Self::new(by, &org.id, entity, action)
    }

    /// `by` changed an organization's flighting (named by the organization).
    pub fn on_flighting(by: &'a UserRow, org: &'a OrganizationRow) -> Self {
        let entity = (
            ActivityEntity::Flighting,
            org.id.as_str(),
            Cow::Borrowed(org.name.as_str()),
        );
        Self::new(by, &org.id, entity, ActivityAction::Updated)
    }

    /// `by` moved the assets of a kind from one owner to another in their organization.
    pub fn owners_moved(by: &'a UserRow, kind: AssetKind, from: &'a UserRow, to: &UserRow) -> Self {
        let moved = Cow::Owned(format!("{} -> {}", from.email, to.email));
        let entity = (kind.activity_entity(), from.uid.as_str(), moved);
        Self::new(by, &from.organization_id, entity, ActivityAction::OwnerMigrated)
    }

    /// Recorded outside any organization (the organization itself is gone).
    pub fn outside_organization(self) -> Self {
        Self {
            organization_id: None,
            ..self
        }
    }

    /// Records the activity. Failures are logged and never fail the caller's request.
    pub async fn record(self, db: &AnyPool) {
        let now = super::now();
        let result = sqlx::query(
            "INSERT INTO activity (id, user_uid, organization_id, entity_type, entity_id, entity_name, action, at, day) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        // Time-ordered, so entries of the same second stay in the order they happened.
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(self.user_uid)
        .bind(self.organization_id)
        .bind(self.entity_type.as_str())
        .bind(self.entity_id)
        .bind(self.entity_name.as_ref())
        .bind(self.action.as_str())
        .bind(now)
        .bind(super::day(now))
        .execute(db)
        .await;
        if let Err(e) = result {
            tracing::error!(error = %e, entity_type = %self.entity_type, action = %self.action, "failed to record activity");
        }
    }
}

pub struct LoginEvent<'a> {
    pub user_uid: Option<&'a str>,
    pub email: &'a str,
    pub organization_id: Option<&'a str>,
    pub success: bool,
    /// `password`, `2fa`, `bad_password`, `bad_code`, `unknown_user`, `throttled`, …
    pub reason: &'a str,
    pub ip: &'a str,
}

pub async fn record_login(db: &AnyPool, e: LoginEvent<'_>) {
    let now = super::now();
    let result = sqlx::query(
        "INSERT INTO login_events (id, user_uid, email, organization_id, success, reason, ip, at, day) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(super::new_id())
    .bind(e.user_uid)
    .bind(e.email)
    .bind(e.organization_id)
    .bind(i64::from(e.success))
    .bind(e.reason)
    .bind(e.ip)
    .bind(now)
    .bind(super::day(now))
    .execute(db)
    .await;
    if let Err(err) = result {
        tracing::error!(error = %err, "failed to record a sign-in event");
    }
}
