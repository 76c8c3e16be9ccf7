//! The 15 default insight images (seeds/images), for the image selector.

use axum::{Json, http::header, response::IntoResponse};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    error::{ApiError, AppPath, ErrorBody, Result},
    seeds::DEFAULT_IMAGES,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_default_images))
        .routes(routes!(get_default_image))
}

#[derive(Serialize, ToSchema)]
pub struct DefaultImage {
    pub name: String,
    /// Use as an insight's `img_path`.
    pub url: String,
}

#[derive(Serialize, ToSchema)]
pub struct DefaultImages {
    pub success: bool,
    pub images: Vec<DefaultImage>,
}

/// The default insight images.
#[utoipa::path(get, path = "/v1/images/defaults", tag = "flighting", responses((status = 200, body = DefaultImages)))]
async fn list_default_images() -> Json<DefaultImages> {
    Json(DefaultImages {
        success: true,
        images: DEFAULT_IMAGES
            .iter()
            .map(|(name, _)| DefaultImage {
                name: (*name).to_owned(),
                url: format!("/v1/images/defaults/{name}"),
            })
            .collect(),
    })
}

/// One default image (SVG, cacheable for a day).
#[utoipa::path(get, path = "/v1/images/defaults/{name}", tag = "flighting", params(("name" = String, Path)),
    responses((status = 200, content_type = "image/svg+xml"), (status = 404, description = "Image not found", body = ErrorBody)))]
async fn get_default_image(AppPath(name): AppPath<String>) -> Result<impl IntoResponse> {
    let (_, svg) = DEFAULT_IMAGES
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| ApiError::not_found("image_not_found", "Image not found"))?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        *svg,
    ))
}
