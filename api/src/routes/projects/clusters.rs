//! The clusters and images a project can run on (spec 001 §7 `/v2/cluster…`): the administrator's
//! image list ([`crate::projects::images`]), and the one cluster this API runs projects on.

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    auth::AuthUser,
    error::{ApiError, AppPath, AppQuery, ErrorBody, Result},
    projects::{
        images::{self, DockerImage},
        sizes::{self, HardwareSize},
    },
    state::AppState,
};

/// The id of the one cluster (the one the API is configured with).
pub const CLUSTER_ID: &str = "default";

#[derive(Serialize, ToSchema)]
pub struct DockerImagesAnswer {
    pub success: bool,
    #[serde(rename = "dockerImages")]
    pub docker_images: Vec<DockerImage>,
}

/// The images a project may choose (the administrator's list); the choice is saved with
/// `PUT /v2/projects/{id}` `{entity: {image_id}}`.
#[utoipa::path(get, path = "/v2/cluster/dockerimages/list", tag = "projects",
    responses((status = 200, body = DockerImagesAnswer)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn docker_images(
    State(state): State<AppState>,
    _caller: AuthUser,
) -> Json<DockerImagesAnswer> {
    Json(DockerImagesAnswer {
        success: true,
        docker_images: images::available(&state).await,
    })
}

#[derive(Serialize, ToSchema)]
pub struct SizesAnswer {
    pub success: bool,
    pub sizes: Vec<HardwareSize>,
    /// The size of projects, notebooks and workflow tasks that name none.
    pub default: String,
    /// The size of apps and reports that name none.
    pub default_insight: String,
}

/// The hardware sizes a project, notebook, app, report or workflow task may choose (the
/// administrator's list, with its defaults); the choice is saved as `size_id`.
#[utoipa::path(get, path = "/v2/cluster/sizes/list", tag = "projects",
    responses(
        (status = 200, body = SizesAnswer),
        (status = 503, description = "The administrator's size list is not valid", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn sizes(State(state): State<AppState>, _caller: AuthUser) -> Result<Json<SizesAnswer>> {
    let list = sizes::current(&state).await?;
    Ok(Json(SizesAnswer {
        success: true,
        sizes: list.sizes.iter().map(HardwareSize::from).collect(),
        default: list.default,
        default_insight: list.default_insight,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Cluster {
    pub id: String,
    pub name: String,
}

fn the_cluster(state: &AppState) -> Cluster {
    Cluster {
        id: CLUSTER_ID.into(),
        name: if state.kube.is_some() {
            "Ludis cluster"
        } else {
            "Ludis (no cluster configured)"
        }
        .into(),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ClustersQuery {
    /// From 1.
    pub page: Option<i64>,
    pub limit: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct ClustersAnswer {
    pub success: bool,
    pub clusters: Vec<Cluster>,
    pub page: i64,
    pub total: i64,
}

/// The clusters projects run on: the one this API is configured with.
#[utoipa::path(get, path = "/v2/cluster", tag = "projects", params(ClustersQuery),
    responses((status = 200, body = ClustersAnswer)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn clusters(
    State(state): State<AppState>,
    _caller: AuthUser,
    AppQuery(q): AppQuery<ClustersQuery>,
) -> Json<ClustersAnswer> {
    let page = q.page.unwrap_or(1).max(1);
    let clusters = if page == 1 && q.limit.is_none_or(|l| l > 0) {
        vec![the_cluster(&state)]
    } else {
        Vec::new()
    };
    Json(ClustersAnswer {
        success: true,
        clusters,
        page,
        total: 1,
    })
}

#[derive(Serialize, ToSchema)]
pub struct ClusterAnswer {
    pub success: bool,
    pub cluster: Cluster,
}

/// One cluster.
#[utoipa::path(get, path = "/v2/cluster/{id}", tag = "projects",
    params(("id" = String, Path, description = "Cluster id")),
    responses((status = 200, body = ClusterAnswer), (status = 404, description = "Cluster not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn cluster(
    State(state): State<AppState>,
    _caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<ClusterAnswer>> {
    if id != CLUSTER_ID {
        return Err(ApiError::not_found("cluster_not_found", "Cluster not found"));
    }
    Ok(Json(ClusterAnswer {
        success: true,
        cluster: the_cluster(&state),
    }))
}
