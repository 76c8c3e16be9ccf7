//! The numbers behind a template's chart: k-means clusters (the cluster template) and series of a
//! column by another (the summary template).

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CLUSTERS_DEFAULT, NO_AGGREGATION, Refusal, bad, refused, source::Source, spaced, spacing};
use crate::{
    auth::AuthUser,
    error::{AppJson, AppPath, ErrorBody},
    state::AppState,
    templates::{
        aggregate::{self, Aggregation},
        kmeans, table,
    },
};

#[derive(Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GraphRequest {
    /// K-means over two or three numeric columns (kmeans2d, kmeans3d).
    Kmeans {
        columns: Vec<String>,
        /// 1 to 9 (4 by default).
        #[serde(default)]
        clusters: Option<usize>,
        #[serde(default)]
        file: Option<String>,
    },
    /// `y` by `x`: one value a distinct `x` with an aggregation (sum, mean, median, variance,
    /// count), or the rows' own pairs with none ('No aggregation').
    Series {
        x: String,
        y: String,
        #[serde(default)]
        aggregation: Option<String>,
        #[serde(default)]
        file: Option<String>,
    },
}

#[derive(Serialize, ToSchema)]
pub struct ClusterView {
    pub centroid: Vec<f64>,
    pub size: usize,
}

#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum GraphResponse {
    Kmeans {
        success: bool,
        file: String,
        columns: Vec<String>,
        clusters: Vec<ClusterView>,
        inertia: f64,
        /// Evenly spaced points (at most 5,000): the columns' values, then the cluster.
        points: Vec<Vec<f64>>,
        /// Rows clustered, and rows left out for a cell that is not a number.
        total: usize,
        skipped: usize,
    },
    Series {
        success: bool,
        file: String,
        labels: Vec<String>,
        /// Null where a group has no value (the variance of one value).
        values: Vec<Option<f64>>,
        /// Without aggregation: the rows in the file, of which `labels` are evenly spaced.
        total: usize,
    },
}

/// The numbers behind a template's chart: k-means clusters, or a series (view on the app and its
/// dataset).
#[utoipa::path(post, path = "/v1/templates/graph.data/{id}", tag = "templates", request_body = GraphRequest,
    params(("id" = String, Path, description = "Template app id")),
    responses(
        (status = 200, body = GraphResponse),
        (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 422, description = "The file has more rows than template apps read (LUDIS_TEMPLATE_MAX_ROWS)", body = ErrorBody),
        (status = 503, description = "Every template worker stayed busy (Retry-After), or the time bound was passed", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn graph_data(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<GraphRequest>,
) -> Result<Json<GraphResponse>, Refusal> {
    match req {
        GraphRequest::Kmeans {
            columns,
            clusters,
            file,
        } => kmeans_graph(&state, &caller, &id, columns, clusters, file.as_deref()).await,
        GraphRequest::Series {
            x,
            y,
            aggregation,
            file,
        } => {
            series_graph(
                &state,
                &caller,
                &id,
                (x, y),
                aggregation.as_deref(),
                file.as_deref(),
            )
            .await
        }
    }
    .map(Json)
}

async fn kmeans_graph(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    columns: Vec<String>,
    clusters: Option<usize>,
    file: Option<&str>,
) -> Result<GraphResponse, Refusal> {
    if !(2..=3).contains(&columns.len()) {
        return Err(bad("invalid_columns", "K-means takes two or three columns").into());
    }
    let k = clusters.unwrap_or(CLUSTERS_DEFAULT);
    kmeans::check_clusters(k).map_err(refused)?;
    let source = Source::of_app(state, caller, id, file).await?;
    let names = columns.clone();
    let (found, values, skipped) = source
        .read(state, caller, move |r, limits| {
            let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
            let (values, skipped) = table::numbers(r, &wanted, limits)?;
            let found = kmeans::cluster(values.clone(), wanted.len(), k, &limits.cancel)?;
            Ok((found, values, skipped))
        })
        .await?;
    // Only the points sent back are built (each with its cluster).
    let total = found.labels.len();
    let points = values
        .chunks(columns.len())
        .zip(&found.labels)
        .step_by(spacing(total))
        .map(|(p, l)| p.iter().copied().chain([*l as f64]).collect())
        .collect();
    Ok(GraphResponse::Kmeans {
        success: true,
        file: source.key,
        columns,
        clusters: found
            .centroids
            .into_iter()
            .zip(found.sizes)
            .map(|(centroid, size)| ClusterView { centroid, size })
            .collect(),
        inertia: found.inertia,
        points,
        total,
        skipped,
    })
}

async fn series_graph(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    (x, y): (String, String),
    aggregation: Option<&str>,
    file: Option<&str>,
) -> Result<GraphResponse, Refusal> {
    let how = match aggregation.map(str::trim).filter(|a| !a.is_empty()) {
        None => None,
        Some(a) if a.eq_ignore_ascii_case(NO_AGGREGATION) => None,
        Some(a) => Some(a.parse::<Aggregation>().map_err(refused)?),
    };
    let source = Source::of_app(state, caller, id, file).await?;
    let pairs = source
        .read(state, caller, move |r, limits| table::keyed(r, &x, &y, limits))
        .await?;
    let total = pairs.len();
    let (labels, values) = match how {
        Some(how) => aggregate::by_group(pairs, how).into_iter().unzip(),
        None => spaced(&pairs).into_iter().map(|(k, v)| (k, Some(v))).unzip(),
    };
    Ok(GraphResponse::Series {
        success: true,
        file: source.key,
        labels,
        values,
        total,
    })
}
