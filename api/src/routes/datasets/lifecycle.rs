//! Create, update, details and delete of a dataset.

use super::*;

#[derive(Serialize, ToSchema)]
pub struct DatasetResponse {
    pub success: bool,
    pub dataset: DatasetView,
}

#[derive(Serialize, ToSchema)]
pub struct DatasetMessage {
    pub success: bool,
    pub message: String,
    pub dataset: DatasetView,
}

#[derive(Deserialize, ToSchema)]
pub struct DatasetRequest {
    pub dataset: DatasetFields,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct DatasetFields {
    pub name: String,
    pub description: String,
    /// Retain (default) or Delete: what happens to the files when the dataset is deleted
    /// (create only).
    #[schema(value_type = Option<DeletionPolicy>)]
    pub deletion_policy: Option<String>,
}

/// Create a dataset: its folder in the organization's bucket, its Dataset resource and its rows.
/// The caller owns it. Files are then uploaded with presigned addresses.
#[utoipa::path(post, path = "/v1/datasets/createdataset", tag = "datasets", request_body = DatasetRequest,
    responses(
        (status = 201, description = "Dataset Created Successfully", body = DatasetMessage),
        (status = 400, description = "Empty name not allowed", body = ErrorBody),
        (status = 502, description = "The cluster or object storage refused", body = ErrorBody),
        (status = 503, description = "Object storage is not configured", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<DatasetRequest>,
) -> Result<(StatusCode, Json<DatasetMessage>)> {
    let f = req.dataset;
    let name = required_text(&f.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = optional_text(&f.description, DESCRIPTION_MAX)?;
    let policy = deletion_policy(f.deletion_policy.as_deref())?;
    let (s3, _) = s3(&state)?;
    let org = &caller.user.organization_id;
    let id = db::new_id();
    let (bucket, prefix) = cluster::datasets::location(&state, org, &id)
        .await
        .map_err(|e| ApiError::internal(format!("{e:#}")))?;
    ludis_storage::ensure_bucket(s3, &bucket)
        .await
        .map_err(storage_error)?;
    let placement = cluster::datasets::placement(&state, org, &id, &name)
        .await
        .map_err(ApiError::cluster)?;
    let has_resource = placement.is_some();
    let dataset = Dataset {
        details: DatasetRow {
            deletion_policy: policy,
            ..DatasetRow::new(id.clone(), (bucket, prefix), has_resource)
        },
        asset: AssetRow {
            owner_uid: Some(caller.user.uid.clone()),
            description,
            ..AssetRow::new(AssetKind::Dataset, id, org.clone(), name, db::now())
        }
        .placed(placement),
    };
    assets::create(&state, &dataset, details::insert(&state.db, &dataset)).await?;
    Activity::on_asset(&caller.user, &dataset.asset, ActivityAction::Created)
        .record(&state.db)
        .await;
    let view = one_view(&state, &caller, dataset, AccessLevel::Edit).await?;
    Ok((
        StatusCode::CREATED,
        Json(DatasetMessage {
            success: true,
            message: "Dataset Created Successfully".into(),
            dataset: view,
        }),
    ))
}

/// Rename a dataset or change its description (edit access; both required).
#[utoipa::path(put, path = "/v1/datasets/updatedataset/{id}", tag = "datasets", request_body = DatasetRequest,
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "Dataset Updated Successfully", body = DatasetMessage),
        (status = 400, description = "Empty name not allowed / Empty description not allowed", body = ErrorBody),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource, or another tool owns the field", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<DatasetRequest>,
) -> Result<Json<DatasetMessage>> {
    let (mut dataset, level) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    let name = required_text(&req.dataset.name, EMPTY_NAME, "name_required", NAME_MAX)?;
    let description = required_text(
        &req.dataset.description,
        EMPTY_DESCRIPTION,
        "description_required",
        DESCRIPTION_MAX,
    )?;
    if dataset.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    dataset.asset.name = name;
    dataset.asset.description = description;
    dataset.asset.updated_at = db::now();
    cluster::datasets::apply(&state, &dataset)
        .await
        .map_err(ApiError::cluster)?;
    details::update(&state.db, &dataset).await?;
    Activity::on_asset(&caller.user, &dataset.asset, ActivityAction::Updated)
        .record(&state.db)
        .await;
    Ok(Json(DatasetMessage {
        success: true,
        message: "Dataset Updated Successfully".into(),
        dataset: one_view(&state, &caller, dataset, level).await?,
    }))
}

/// One dataset (view access): owner or share information, size and status.
#[utoipa::path(post, path = "/v1/datasets/getdatasetdetails/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses((status = 200, body = DatasetResponse), (status = 404, description = "Dataset not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn dataset_details(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<DatasetResponse>> {
    let (dataset, level) = load(&state, &caller, &id, AccessLevel::View).await?;
    // Files arrive straight from browsers, so the API does not see them: measure again in the
    // background (at most every 10 s per dataset; the operator also does every minute). The
    // answer carries the last numbers.
    if due_for_measure(&dataset.asset.id) {
        refresh_usage(&state, &dataset);
    }
    Ok(Json(DatasetResponse {
        success: true,
        dataset: one_view(&state, &caller, dataset, level).await?,
    }))
}

/// Delete a dataset (edit access). Its files go with it when its deletion policy is Delete
/// (the operator's finalizer; without a cluster, the API), and stay with Retain.
#[utoipa::path(delete, path = "/v1/datasets/{id}", tag = "datasets",
    params(("id" = String, Path, description = "Dataset id")),
    responses(
        (status = 200, description = "Dataset Deleted!", body = Done),
        (status = 403, description = "You need edit access", body = ErrorBody),
        (status = 404, description = "Dataset not found", body = ErrorBody),
        (status = 409, description = "Managed by its resource", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_dataset(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (dataset, _) = load(&state, &caller, &id, AccessLevel::Edit).await?;
    if dataset.asset.is_managed() {
        return Err(ApiError::conflict("managed_by_resource", MANAGED));
    }
    let in_cluster = state.kube.is_some() && dataset.asset.resource_name.is_some();
    if in_cluster {
        cluster::datasets::delete(&state, &dataset)
            .await
            .map_err(ApiError::cluster)?;
    } else if dataset.details.deletes_data() {
        let (s3, _) = s3(&state)?;
        ludis_storage::delete_prefix(s3, &dataset.details.bucket, &dataset.details.prefix)
            .await
            .map_err(storage_error)?;
    }
    db::assets::delete(&state.db, &dataset.asset.id).await?;
    Activity::on_asset(&caller.user, &dataset.asset, ActivityAction::Deleted)
        .record(&state.db)
        .await;
    Ok(Done::new("Dataset Deleted!"))
}

// ---------------------------------------------------------------------------------------------
// Files
