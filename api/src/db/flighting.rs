//! The `flightings` table: per organization, per feature key, active + roles (stored as their
//! names, comma separated).

use sqlx::{AnyPool, Row as _, any::AnyRow};

use super::named;
use crate::{
    domain::{Feature, Role},
    policy::flags::Flag,
};

fn flag(r: &AnyRow) -> Result<Flag, sqlx::Error> {
    let roles: String = r.try_get("user_roles")?;
    Ok(Flag {
        key: named(r, "key")?,
        name: r.try_get("name")?,
        active: r.try_get::<i64, _>("active")? != 0,
        user_roles: roles
            .split(',')
            .filter(|r| !r.is_empty())
            .map(|r| {
                r.parse::<Role>().map_err(|e| sqlx::Error::ColumnDecode {
                    index: "user_roles".into(),
                    source: Box::new(e),
                })
            })
            .collect::<Result<_, _>>()?,
    })
}

pub async fn for_org(db: &AnyPool, organization_id: &str) -> Result<Vec<Flag>, sqlx::Error> {
    let mut flags =
        sqlx::query("SELECT key, name, active, user_roles FROM flightings WHERE organization_id = $1")
            .bind(organization_id)
            .fetch_all(db)
            .await?
            .iter()
            .map(flag)
            .collect::<Result<Vec<_>, _>>()?;
    crate::policy::flags::sort(&mut flags);
    Ok(flags)
}

pub async fn one(db: &AnyPool, organization_id: &str, key: Feature) -> Result<Option<Flag>, sqlx::Error> {
    sqlx::query(
        "SELECT key, name, active, user_roles FROM flightings WHERE organization_id = $1 AND key = $2",
    )
    .bind(organization_id)
    .bind(key.as_str())
    .fetch_optional(db)
    .await?
    .map(|r| flag(&r))
    .transpose()
}

pub async fn upsert_all(db: &AnyPool, organization_id: &str, flags: &[Flag]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for f in flags {
        let roles: Vec<&str> = f.user_roles.iter().map(|r| r.as_str()).collect();
        sqlx::query(
            "INSERT INTO flightings (organization_id, key, name, active, user_roles) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (organization_id, key) DO UPDATE SET name = $3, active = $4, user_roles = $5",
        )
        .bind(organization_id)
        .bind(f.key.as_str())
        .bind(&f.name)
        .bind(i64::from(f.active))
        .bind(roles.join(","))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}
