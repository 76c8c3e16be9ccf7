//! The `comments` table: a conversation on any asset.

use sqlx::{AnyPool, Row as _};

#[derive(Debug, Clone)]
pub struct CommentRow {
    pub id: String,
    pub asset_id: String,
    pub author_uid: Option<String>,
    pub author_display_name: String,
    pub content: String,
    pub created_at: i64,
}

pub async fn insert(db: &AnyPool, c: &CommentRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO comments (id, asset_id, author_uid, author_display_name, content, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&c.id)
    .bind(&c.asset_id)
    .bind(&c.author_uid)
    .bind(&c.author_display_name)
    .bind(&c.content)
    .bind(c.created_at)
    .execute(db)
    .await?;
    Ok(())
}

/// The newest `limit` comments of an asset, oldest first.
pub async fn for_asset(db: &AnyPool, asset_id: &str, limit: i64) -> Result<Vec<CommentRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, asset_id, author_uid, author_display_name, content, created_at FROM comments \
         WHERE asset_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(asset_id)
    .bind(limit)
    .fetch_all(db)
    .await?;
    let mut out = rows
        .iter()
        .map(|r| {
            Ok(CommentRow {
                id: r.try_get("id")?,
                asset_id: r.try_get("asset_id")?,
                author_uid: r.try_get("author_uid")?,
                author_display_name: r.try_get("author_display_name")?,
                content: r.try_get("content")?,
                created_at: r.try_get("created_at")?,
            })
        })
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
    out.reverse();
    Ok(out)
}
