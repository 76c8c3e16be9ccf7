//! Sign-in events and the activity log, recorded as they happen and queried by the metrics
//! routes. Other modules call [`record`] for every create/update/delete they perform.

use sqlx::AnyPool;

/// One activity: who did what to which entity.
pub struct Activity<'a> {
    pub user_uid: Option<&'a str>,
    pub organization_id: Option<&'a str>,
    /// `applications`, `projects`, `datasets`, `workflows`, `users`, `organizations`, `flighting`…
    pub entity_type: &'a str,
    pub entity_id: &'a str,
    pub entity_name: &'a str,
    /// `created`, `updated`, `deleted`, `shared`, …
    pub action: &'a str,
}

/// Records an activity. Failures are logged and never fail the caller's request.
pub async fn record(db: &AnyPool, a: Activity<'_>) {
    let now = super::now();
    let result = sqlx::query(
        "INSERT INTO activity (id, user_uid, organization_id, entity_type, entity_id, entity_name, action, at, day) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(super::new_id())
    .bind(a.user_uid)
    .bind(a.organization_id)
    .bind(a.entity_type)
    .bind(a.entity_id)
    .bind(a.entity_name)
    .bind(a.action)
    .bind(now)
    .bind(super::day(now))
    .execute(db)
    .await;
    if let Err(e) = result {
        tracing::error!(error = %e, entity_type = a.entity_type, action = a.action, "failed to record activity");
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
