//! The list of datasets (filters, search, pages).

use super::*;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DatasetsQuery {
    /// all (default), owned ('Created by me'), shared ('Shared with me') or sample.
    pub filter: Option<String>,
    /// From 1.
    pub page: Option<i64>,
    /// 1 to 100 (default 10).
    #[serde(alias = "page_size", alias = "limit")]
    pub page_size: Option<i64>,
    /// Part of the name or description.
    pub search: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DatasetsPage {
    pub success: bool,
    pub datasets: Vec<DatasetView>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
    pub total_pages: i64,
}

pub(super) fn parse_filter(v: Option<&str>) -> Result<(Filter, bool)> {
    let v = v.map(|s| s.trim().to_lowercase()).unwrap_or_default();
    match v.as_str() {
        "" | "all" => Ok((Filter::All, false)),
        "owned" | "mine" | "created by me" | "created_by_me" => Ok((Filter::Owned, false)),
        "shared" | "shared with me" | "shared_with_me" => Ok((Filter::Shared, false)),
        "sample" | "samples" => Ok((Filter::All, true)),
        other => Err(ApiError::bad_request(
            "invalid_filter",
            format!("Unknown filter: {other} (all, owned, shared or sample)"),
        )),
    }
}

/// The datasets the caller may see, newest change first: all, created by them, shared with them
/// (by a share to them or to their organization; the samples are listed apart) or the samples;
/// with search and pages.
#[utoipa::path(get, path = "/v1/datasets/listdatasets", tag = "datasets", params(DatasetsQuery),
    responses((status = 200, body = DatasetsPage), (status = 400, description = "Unknown filter", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_datasets(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<DatasetsQuery>,
) -> Result<Json<DatasetsPage>> {
    let page = q.page.unwrap_or(1).max(1);
    let page_size = q.page_size.unwrap_or(10).clamp(1, 100);
    let (filter, samples) = parse_filter(q.filter.as_deref())?;
    // Samples have their own list; 'Shared with me' is what colleagues shared.
    let details = if samples {
        Some(("d.sample IS NOT NULL".to_owned(), Vec::new()))
    } else if filter == Filter::Shared {
        Some(("d.sample IS NULL".to_owned(), Vec::new()))
    } else {
        None
    };
    let query = ListQuery {
        kind: AssetKind::Dataset,
        filter,
        sort_by: SortBy::UpdatedAt,
        descending: true,
        search: q.search.unwrap_or_default(),
        limit: page_size,
        offset: (page - 1).saturating_mul(page_size),
        details,
    };
    let (listed, total) = db::assets::list(&state.db, assets::viewer(&caller.user), &query).await?;
    let items: Vec<(Dataset, AccessLevel)> = details::of_listed::<DatasetRow>(&state.db, listed)
        .await?
        .into_iter()
        .map(|(d, level, _)| (d, level))
        .collect();
    Ok(Json(DatasetsPage {
        success: true,
        datasets: views(&state, &caller, &items).await?,
        total,
        page,
        page_size,
        total_pages: (total + page_size - 1) / page_size,
    }))
}
