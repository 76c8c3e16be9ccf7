//! A file's temporary link (7 days, no key): a Ludis address carrying a random token, not an
//! object store's presigned URL (which nobody could take back). Every use checks that the link is
//! unexpired and not revoked, that the dataset is there, and that whoever made the link still has
//! view access to it (an active user); then it redirects to a presigned download valid
//! [`LINK_REDIRECT_EXPIRES`]. The dataset's editors list and revoke its links; deleting the
//! dataset or its creator's account deletes them.

use super::*;
use crate::{
    crypto,
    db::dataset_links::{self, LinkRow},
    domain::UserStatus,
};

/// How long the presigned download a link redirects to is valid: the client follows at once.
pub const LINK_REDIRECT_EXPIRES: std::time::Duration = std::time::Duration::from_secs(60);
/// What a link that cannot be used answers (whatever the reason: nothing is told to a stranger).
pub const LINK_GONE: &str = "This link has expired or was revoked";

/// Makes a temporary link to `key` of `dataset` for `caller`: its address under `base`, and when
/// it expires (Unix seconds).
pub(super) async fn create(
    state: &AppState,
    caller: &AuthUser,
    dataset: &Dataset,
    key: &str,
    base: &str,
) -> Result<(String, i64)> {
    let token = crypto::random_token(32);
    let now = db::now();
    let link = LinkRow {
        id: db::new_id(),
        dataset_id: dataset.asset.id.clone(),
        object_key: key.to_owned(),
        created_by: caller.user.uid.clone(),
        created_at: now,
        expires_at: now + presign::ACCESS_URL_EXPIRES.as_secs() as i64,
    };
    dataset_links::insert(&state.db, &link, &crypto::sha256_hex(&token)).await?;
    Ok((format!("{base}/v1/datasets/link/{token}"), link.expires_at))
}

/// A temporary link (no key): a redirect to a one-minute presigned download of its file, while
/// the link is unexpired and unrevoked and its creator may still view the dataset; else 404.
#[utoipa::path(get, path = "/v1/datasets/link/{token}", tag = "datasets",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 302, description = "To a presigned download"),
        (status = 404, description = "This link has expired or was revoked / File not found", body = ErrorBody),
    ),
    security(()))]
pub(super) async fn open_link(
    State(state): State<AppState>,
    AppPath(token): AppPath<String>,
) -> Result<Response> {
    let gone = || ApiError::not_found("link_gone", LINK_GONE);
    if token.len() > 128 {
        return Err(gone());
    }
    let Some(link) = dataset_links::by_token_hash(&state.db, &crypto::sha256_hex(&token), db::now()).await?
    else {
        return Err(gone());
    };
    let creator = users::by_uid(&state.db, &link.created_by)
        .await?
        .filter(|u| u.status == UserStatus::Active)
        .ok_or_else(gone)?;
    let dataset =
        match assets::load::<DatasetRow>(&state, &creator, &link.dataset_id, AccessLevel::View).await {
            Ok((dataset, _)) => dataset,
            Err(_) => return Err(gone()),
        };
    let key = keys::file(&link.object_key).map_err(|_| gone())?;
    redirect_to_file(&state, &dataset, &key, LINK_REDIRECT_EXPIRES).await
}

/// A temporary link as its dataset's editors see it.
#[derive(Serialize, ToSchema)]
pub struct DatasetLink {
    pub id: String,
    /// The file, relative to the dataset.
    pub path: String,
    /// Who made it (their e-mail; null when the account is gone).
    #[schema(required)]
    pub created_by: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct DatasetLinks {
    pub success: bool,
    /// The unexpired links, newest first.
    pub links: Vec<DatasetLink>,
}

/// The dataset's unexpired temporary links (edit access): who made them, for which file, until
/// when. (The addresses themselves are not kept: only their makers had them.)
#[utoipa::path(get, path = "/v1/datasets/links/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, body = DatasetLinks),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_links(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<DatasetLinks>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    let rows = dataset_links::of_dataset(&state.db, &dataset.asset.id, db::now()).await?;
    let uids: Vec<String> = rows.iter().map(|l| l.created_by.clone()).collect();
    let makers: HashMap<String, String> = users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid, u.email))
        .collect();
    let links = rows
        .into_iter()
        .map(|l| DatasetLink {
            created_by: makers.get(&l.created_by).cloned(),
            id: l.id,
            path: l.object_key,
            created_at: l.created_at,
            expires_at: l.expires_at,
        })
        .collect();
    Ok(Json(DatasetLinks { success: true, links }))
}

/// Revokes one of the dataset's temporary links (edit access): it stops working at once. A link
/// already gone is revoked too.
#[utoipa::path(delete, path = "/v1/datasets/links/{id}/{linkId}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id"), ("linkId" = String, Path, description = "Link id")),
    responses(
        (status = 200, description = "Link revoked", body = Done),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn revoke_link(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath((id, link_id)): AppPath<(String, String)>,
) -> Result<Json<Done>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    // Idempotent: a link already revoked (or expired and gone) is revoked.
    dataset_links::delete(&state.db, &dataset.asset.id, link_id.trim()).await?;
    Ok(Done::new("Link revoked"))
}
