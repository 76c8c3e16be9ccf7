//! Sharing a dataset and who it is shared with.

use super::*;

/// Share a dataset with people or its organization at view or edit (never execute), or unshare
/// (edit access). The body is `POST /v1/applications/share`'s; the entity type is Dataset.
#[utoipa::path(post, path = "/v1/datasets/share", tag = "datasets", request_body = shares::ShareRequest,
    responses(
        (status = 200, description = "Dataset shared!", body = Done),
        (status = 400, description = "Cannot share to yourself! / Email is invalid! / execute is not offered on datasets / …", body = ErrorBody),
        (status = 403, description = "Only editors can share this item", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn share_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(mut req): AppJson<shares::ShareRequest>,
) -> Result<Json<Done>> {
    req.share.entity_type = EntityType::Dataset.as_str().into();
    shares::share(State(state), caller, AppJson(req)).await
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ShareListQuery {
    /// The dataset's id.
    #[serde(alias = "id", alias = "datasetId", alias = "entity_id")]
    pub dataset_id: String,
}

/// Who has access to a dataset (view access): `GET /v1/shares/sharedwith/{id}` for a dataset.
#[utoipa::path(get, path = "/v1/datasets/share/list", tag = "datasets", params(ShareListQuery),
    responses(
        (status = 200, body = shares::SharedWithResponse),
        (status = 404, description = "Dataset not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn share_list(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<ShareListQuery>,
) -> Result<Json<shares::SharedWithResponse>> {
    shares::shared_with(
        State(state),
        caller,
        AppPath(q.dataset_id),
        AppQuery(shares::SharedWithQuery {
            entity_type: Some(EntityType::Dataset.as_str().into()),
        }),
    )
    .await
}
