//! What the app proxy's sign-in (`routes::apps::pass`) keeps: the ids of app tickets already
//! traded for an app cookie (a ticket opens an app once, on every API replica), and the session
//! an app cookie names.

use sqlx::{AnyPool, Row as _};

use super::users::{COLUMNS, UserRow};

/// Records ticket `id` as used until it expires at `expires_at`; false when it already was.
/// Records of expired tickets are dropped on the way (an expired ticket is refused anyway).
pub async fn spend_ticket(db: &AnyPool, id: &str, expires_at: i64, now: i64) -> Result<bool, sqlx::Error> {
    sqlx::query("DELETE FROM app_tickets WHERE expires_at < $1")
        .bind(now)
        .execute(db)
        .await?;
    Ok(
        sqlx::query("INSERT INTO app_tickets (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING")
            .bind(id)
            .bind(expires_at)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Active user `uid`, if session `sid` is theirs and neither revoked nor expired at `now`, with
/// whether their organization requires 2FA. One query.
pub async fn session_user(
    db: &AnyPool,
    uid: &str,
    sid: &str,
    now: i64,
) -> Result<Option<(UserRow, bool)>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, o.is_2fa_required AS org_2fa FROM users u \
         JOIN organizations o ON o.id = u.organization_id \
         JOIN token_families f ON f.id = $2 AND f.user_uid = u.uid \
         WHERE u.uid = $1 AND u.status = 'active' AND f.revoked_at IS NULL AND f.expires_at > $3"
    );
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(uid)
        .bind(sid)
        .bind(now)
        .fetch_optional(db)
        .await?
    else {
        return Ok(None);
    };
    Ok(Some((
        UserRow::from_row(&row)?,
        row.try_get::<i64, _>("org_2fa")? != 0,
    )))
}
