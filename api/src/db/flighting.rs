//! The `flightings` table: per organization, per feature key, active + roles.

use sqlx::AnyPool;

use crate::policy::flags::Flag;

pub async fn for_org(db: &AnyPool, organization_id: &str) -> Result<Vec<Flag>, sqlx::Error> {
    let rows: Vec<(String, String, i64, String)> =
        sqlx::query_as("SELECT key, name, active, user_roles FROM flightings WHERE organization_id = $1")
            .bind(organization_id)
            .fetch_all(db)
            .await?;
    let mut flags: Vec<Flag> = rows
        .into_iter()
        .map(|(key, name, active, roles)| Flag {
            key,
            name,
            active: active != 0,
            user_roles: roles
                .split(',')
                .filter(|r| !r.is_empty())
                .map(str::to_owned)
                .collect(),
        })
        .collect();
    crate::policy::flags::sort(&mut flags);
    Ok(flags)
}

pub async fn one(db: &AnyPool, organization_id: &str, key: &str) -> Result<Option<Flag>, sqlx::Error> {
    let row: Option<(String, String, i64, String)> = sqlx::query_as(
        "SELECT key, name, active, user_roles FROM flightings WHERE organization_id = $1 AND key = $2",
    )
    .bind(organization_id)
    .bind(key)
    .fetch_optional(db)
    .await?;
    Ok(row.map(|(key, name, active, roles)| Flag {
        key,
        name,
        active: active != 0,
        user_roles: roles
            .split(',')
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect(),
    }))
}

pub async fn upsert_all(db: &AnyPool, organization_id: &str, flags: &[Flag]) -> Result<(), sqlx::Error> {
    let mut tx = db.begin().await?;
    for f in flags {
        sqlx::query(
            "INSERT INTO flightings (organization_id, key, name, active, user_roles) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (organization_id, key) DO UPDATE SET name = $3, active = $4, user_roles = $5",
        )
        .bind(organization_id)
        .bind(&f.key)
        .bind(&f.name)
        .bind(i64::from(f.active))
        .bind(f.user_roles.join(","))
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}
