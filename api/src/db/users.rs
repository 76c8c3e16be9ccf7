//! The `users` table.

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::named;
use crate::domain::{Role, UserStatus};

#[derive(Debug, Clone)]
pub struct UserRow {
    pub uid: String,
    pub email: String,
    pub password_hash: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub status: UserStatus,
    pub organization_id: String,
    pub cluster_id: Option<String>,
    pub timezone: String,
    pub date_format: String,
    pub photo_path: Option<String>,
    pub git_username: Option<String>,
    pub git_token_enc: Option<String>,
    pub enabled_2fa: bool,
    pub confirmed_2fa: bool,
    pub secret_2fa_enc: Option<String>,
    pub last_totp_step: i64,
    pub api_key_enc: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub const COLUMNS: &str = "u.uid, u.email, u.password_hash, u.first_name, u.last_name, u.role, u.status, \
    u.organization_id, u.cluster_id, u.timezone, u.date_format, u.photo_path, u.git_username, u.git_token_enc, \
    u.enabled_2fa, u.confirmed_2fa, u.secret_2fa_enc, u.last_totp_step, u.api_key_enc, u.created_at, u.updated_at";

impl UserRow {
    pub fn from_row(r: &AnyRow) -> Result<Self, sqlx::Error> {
        Ok(Self {
            uid: r.try_get("uid")?,
            email: r.try_get("email")?,
            password_hash: r.try_get("password_hash")?,
            first_name: r.try_get("first_name")?,
            last_name: r.try_get("last_name")?,
            role: named(r, "role")?,
            status: named(r, "status")?,
            organization_id: r.try_get("organization_id")?,
            cluster_id: r.try_get("cluster_id")?,
            timezone: r.try_get("timezone")?,
            date_format: r.try_get("date_format")?,
            photo_path: r.try_get("photo_path")?,
            git_username: r.try_get("git_username")?,
            git_token_enc: r.try_get("git_token_enc")?,
            enabled_2fa: r.try_get::<i64, _>("enabled_2fa")? != 0,
            confirmed_2fa: r.try_get::<i64, _>("confirmed_2fa")? != 0,
            secret_2fa_enc: r.try_get("secret_2fa_enc")?,
            last_totp_step: r.try_get("last_totp_step")?,
            api_key_enc: r.try_get("api_key_enc")?,
            created_at: r.try_get("created_at")?,
            updated_at: r.try_get("updated_at")?,
        })
    }

    /// The account may sign in.
    pub fn is_active(&self) -> bool {
        self.status == UserStatus::Active
    }

    /// 2FA is on: enrolled and confirmed with a first code.
    pub fn has_2fa(&self) -> bool {
        self.enabled_2fa && self.confirmed_2fa
    }
}

pub async fn by_uid(db: &AnyPool, uid: &str) -> Result<Option<UserRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM users u WHERE u.uid = $1");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(uid)
        .fetch_optional(db)
        .await?
        .map(|r| UserRow::from_row(&r))
        .transpose()
}

pub async fn by_email(db: &AnyPool, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
    let sql = format!("SELECT {COLUMNS} FROM users u WHERE u.email = $1");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(email.trim().to_lowercase())
        .fetch_optional(db)
        .await?
        .map(|r| UserRow::from_row(&r))
        .transpose()
}

pub struct NewUser<'a> {
    pub uid: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub role: Role,
    pub organization_id: &'a str,
    pub cluster_id: Option<&'a str>,
    pub timezone: &'a str,
    pub date_format: &'a str,
}

/// Inserts the user and, in the same transaction, hands them the share entries declared for
/// their e-mail before they had an account ([`super::shares::claim_pending`]), so no creation path
/// (the users route, seeds, tests) can forget it.
pub async fn insert(db: &AnyPool, u: &NewUser<'_>, now: i64) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "INSERT INTO users (uid, email, password_hash, first_name, last_name, role, status, organization_id, \
         cluster_id, timezone, date_format, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, $8, $9, $10, $11, $11)",
    )
    .bind(u.uid)
    .bind(u.email.trim().to_lowercase())
    .bind(u.password_hash)
    .bind(u.first_name)
    .bind(u.last_name)
    .bind(u.role.as_str())
    .bind(u.organization_id)
    .bind(u.cluster_id)
    .bind(u.timezone)
    .bind(u.date_format)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    super::shares::claim_pending(&mut *tx, u.email, u.uid, u.organization_id).await?;
    tx.commit().await
}

/// Several users by uid (unknown ones are left out), in no particular order.
pub async fn by_uids(db: &AnyPool, uids: &[String]) -> Result<Vec<UserRow>, sqlx::Error> {
    let mut uids: Vec<&str> = uids.iter().map(String::as_str).collect();
    uids.sort_unstable();
    uids.dedup();
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {COLUMNS} FROM users u WHERE u.uid IN ({})",
        super::placeholders(1, uids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
    for uid in uids {
        q = q.bind(uid);
    }
    q.fetch_all(db).await?.iter().map(UserRow::from_row).collect()
}

/// Every user of an organization, by first and last name (at most `limit`).
pub async fn of_organization(
    db: &AnyPool,
    organization_id: &str,
    limit: i64,
) -> Result<Vec<UserRow>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS} FROM users u WHERE u.organization_id = $1 \
         ORDER BY LOWER(u.first_name), LOWER(u.last_name), u.email LIMIT $2"
    );
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(organization_id)
        .bind(limit)
        .fetch_all(db)
        .await?
        .iter()
        .map(UserRow::from_row)
        .collect()
}

/// Active users of an organization (the seats in use).
pub async fn count_active(db: &AnyPool, organization_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE organization_id = $1 AND status = 'active'")
        .bind(organization_id)
        .fetch_one(db)
        .await
}

/// The e-mail addresses of an organization's active users, lower-case and sorted.
pub async fn active_emails(db: &AnyPool, organization_id: &str) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT LOWER(email) FROM users WHERE organization_id = $1 AND status = 'active' ORDER BY LOWER(email)",
    )
    .bind(organization_id)
    .fetch_all(db)
    .await
}

pub async fn count_in_org(db: &AnyPool, organization_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE organization_id = $1")
        .bind(organization_id)
        .fetch_one(db)
        .await
}

/// One page of users, newest first, optionally of one organization and matching a search term
/// (first name, last name or e-mail).
pub async fn list(
    db: &AnyPool,
    organization_id: Option<&str>,
    search: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<UserRow>, i64), sqlx::Error> {
    let mut filter = String::from(" WHERE 1 = 1");
    let mut n = 0;
    if organization_id.is_some() {
        n += 1;
        filter.push_str(&format!(" AND u.organization_id = ${n}"));
    }
    if search.is_some() {
        n += 1;
        filter.push_str(&format!(
            " AND (LOWER(u.first_name) LIKE ${n} ESCAPE '\\' OR LOWER(u.last_name) LIKE ${n} ESCAPE '\\' \
             OR LOWER(u.email) LIKE ${n} ESCAPE '\\' OR LOWER(u.first_name || ' ' || u.last_name) LIKE ${n} ESCAPE '\\')"
        ));
    }
    let pattern = search.map(super::like_pattern);
    let count_sql = format!("SELECT COUNT(*) FROM users u{filter}");
    let mut count = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(count_sql));
    if let Some(o) = organization_id {
        count = count.bind(o.to_owned());
    }
    if let Some(p) = &pattern {
        count = count.bind(p.clone());
    }
    let total = count.fetch_one(db).await?;
    let list_sql = format!(
        "SELECT {COLUMNS} FROM users u{filter} ORDER BY u.created_at DESC, u.uid LIMIT ${} OFFSET ${}",
        n + 1,
        n + 2
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(list_sql));
    if let Some(o) = organization_id {
        q = q.bind(o.to_owned());
    }
    if let Some(p) = pattern {
        q = q.bind(p);
    }
    let rows = q.bind(limit).bind(offset).fetch_all(db).await?;
    let users = rows.iter().map(UserRow::from_row).collect::<Result<_, _>>()?;
    Ok((users, total))
}

pub async fn delete(db: &AnyPool, uid: &str) -> Result<bool, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM users WHERE uid = $1")
        .bind(uid)
        .execute(db)
        .await?
        .rows_affected()
        == 1)
}

/// Records the step of an accepted TOTP code; false when that step (or a later one) was already
/// used, so a code is accepted once even under concurrent requests.
pub async fn spend_totp_step(db: &AnyPool, uid: &str, step: i64) -> Result<bool, sqlx::Error> {
    Ok(
        sqlx::query("UPDATE users SET last_totp_step = $1 WHERE uid = $2 AND last_totp_step < $1")
            .bind(step)
            .bind(uid)
            .execute(db)
            .await?
            .rows_affected()
            == 1,
    )
}

/// Forgets a user's API key (it stops working at once).
pub async fn clear_api_key<'e, E>(exec: E, uid: &str, now: i64) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query("UPDATE users SET api_key_enc = NULL, api_key_hash = NULL, updated_at = $1 WHERE uid = $2")
        .bind(now)
        .bind(uid)
        .execute(exec)
        .await?;
    Ok(())
}

/// Every encrypted value's key id (for the start-up check that every key is configured).
pub async fn encrypted_key_ids(db: &AnyPool) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<(Option<String>, Option<String>, Option<String>)> =
        sqlx::query_as("SELECT git_token_enc, secret_2fa_enc, api_key_enc FROM users")
            .fetch_all(db)
            .await?;
    let mut ids: Vec<String> = rows
        .into_iter()
        .flat_map(|(a, b, c)| [a, b, c])
        .flatten()
        .filter_map(|v| crate::crypto::Keyring::key_id(&v).map(str::to_owned))
        .collect();
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// A user with their organization's 2FA requirement (what an extractor needs to let them in).
pub struct Caller {
    pub user: UserRow,
    pub org_requires_2fa: bool,
}

/// The session a token names, as the database has it.
pub struct SessionState {
    /// Whether the session (refresh-token family) exists and is the user's.
    pub exists: bool,
    pub revoked: bool,
    /// Unix seconds; 0 when the session does not exist.
    pub expires_at: i64,
}

/// User `uid` with their organization's 2FA requirement and the state of their session `sid`, in
/// one query.
pub async fn with_session(
    db: &AnyPool,
    uid: &str,
    sid: &str,
) -> Result<Option<(Caller, SessionState)>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, o.is_2fa_required AS org_2fa, f.id AS family_id, f.revoked_at AS family_revoked, \
         COALESCE(f.expires_at, 0) AS family_expires \
         FROM users u JOIN organizations o ON o.id = u.organization_id \
         LEFT JOIN token_families f ON f.id = $2 AND f.user_uid = u.uid WHERE u.uid = $1"
    );
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(uid)
        .bind(sid)
        .fetch_optional(db)
        .await?
    else {
        return Ok(None);
    };
    let caller = Caller {
        user: UserRow::from_row(&row)?,
        org_requires_2fa: row.try_get::<i64, _>("org_2fa")? != 0,
    };
    let session = SessionState {
        exists: row.try_get::<Option<String>, _>("family_id")?.is_some(),
        revoked: row.try_get::<Option<i64>, _>("family_revoked")?.is_some(),
        expires_at: row.try_get("family_expires")?,
    };
    Ok(Some((caller, session)))
}

/// The user an API key (its SHA-256) belongs to, with their organization's 2FA requirement.
pub async fn by_api_key_hash(db: &AnyPool, hash: &str) -> Result<Option<Caller>, sqlx::Error> {
    let sql = format!(
        "SELECT {COLUMNS}, o.is_2fa_required AS org_2fa FROM users u \
         JOIN organizations o ON o.id = u.organization_id WHERE u.api_key_hash = $1"
    );
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(hash)
        .fetch_optional(db)
        .await?
    else {
        return Ok(None);
    };
    Ok(Some(Caller {
        user: UserRow::from_row(&row)?,
        org_requires_2fa: row.try_get::<i64, _>("org_2fa")? != 0,
    }))
}

/// How many users have `role`.
pub async fn count_with_role(db: &AnyPool, role: Role) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE role = $1")
        .bind(role.as_str())
        .fetch_one(db)
        .await
}

/// What an update of a user's profile writes (every column; unchanged ones as they were).
pub struct Profile<'a> {
    pub first_name: String,
    pub last_name: String,
    pub timezone: String,
    pub date_format: String,
    pub photo_path: Option<String>,
    pub git_username: Option<String>,
    pub git_token_enc: Option<String>,
    pub email: String,
    pub role: &'a str,
    pub status: &'a str,
    pub organization_id: String,
    pub cluster_id: Option<String>,
    pub password_hash: String,
}

/// Writes a user's profile (the unique e-mail index may refuse it).
pub async fn update_profile(db: &AnyPool, uid: &str, p: Profile<'_>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users SET first_name = $1, last_name = $2, timezone = $3, date_format = $4, photo_path = $5, \
         git_username = $6, git_token_enc = $7, email = $8, role = $9, status = $10, organization_id = $11, \
         cluster_id = $12, password_hash = $13, updated_at = $14 WHERE uid = $15",
    )
    .bind(p.first_name)
    .bind(p.last_name)
    .bind(p.timezone)
    .bind(p.date_format)
    .bind(p.photo_path)
    .bind(p.git_username)
    .bind(p.git_token_enc)
    .bind(p.email)
    .bind(p.role)
    .bind(p.status)
    .bind(p.organization_id)
    .bind(p.cluster_id)
    .bind(p.password_hash)
    .bind(now)
    .bind(uid)
    .execute(db)
    .await?;
    Ok(())
}

pub async fn set_password_hash(db: &AnyPool, uid: &str, hash: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE uid = $3")
        .bind(hash)
        .bind(now)
        .bind(uid)
        .execute(db)
        .await?;
    Ok(())
}

/// Sets (or, with `None`s, clears) a user's source-control user name and encrypted token.
pub async fn set_git(
    db: &AnyPool,
    uid: &str,
    username: Option<String>,
    token_enc: Option<String>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET git_username = $1, git_token_enc = $2, updated_at = $3 WHERE uid = $4")
        .bind(username)
        .bind(token_enc)
        .bind(now)
        .bind(uid)
        .execute(db)
        .await?;
    Ok(())
}

/// Replaces a user's API key: encrypted (to show it again) and its SHA-256 (to find its user).
pub async fn set_api_key(
    db: &AnyPool,
    uid: &str,
    key_enc: &str,
    key_hash: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET api_key_enc = $1, api_key_hash = $2, updated_at = $3 WHERE uid = $4")
        .bind(key_enc)
        .bind(key_hash)
        .bind(now)
        .bind(uid)
        .execute(db)
        .await?;
    Ok(())
}

/// Starts 2FA enrolment with a new (encrypted) secret: enabled, not yet confirmed by a code.
pub async fn begin_2fa(db: &AnyPool, uid: &str, secret_enc: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users SET enabled_2fa = 1, confirmed_2fa = 0, secret_2fa_enc = $1, last_totp_step = 0, \
         updated_at = $2 WHERE uid = $3",
    )
    .bind(secret_enc)
    .bind(now)
    .bind(uid)
    .execute(db)
    .await?;
    Ok(())
}

/// Confirms 2FA enrolment (a first code was right).
pub async fn confirm_2fa(db: &AnyPool, uid: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET confirmed_2fa = 1, updated_at = $1 WHERE uid = $2")
        .bind(now)
        .bind(uid)
        .execute(db)
        .await?;
    Ok(())
}

/// Turns 2FA off and forgets the secret.
pub async fn disable_2fa(db: &AnyPool, uid: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE users SET enabled_2fa = 0, confirmed_2fa = 0, secret_2fa_enc = NULL, updated_at = $1 WHERE uid = $2",
    )
    .bind(now)
    .bind(uid)
    .execute(db)
    .await?;
    Ok(())
}
