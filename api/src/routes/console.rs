//! The built console, served at `/` with a single-page-app fallback to `index.html`.

use std::{convert::Infallible, path::Path};

use axum::{
    body::Body,
    http::{Request, StatusCode},
    response::{IntoResponse, Response},
};
use tower::{ServiceExt, service_fn, util::BoxCloneSyncService};
use tower_http::services::{ServeDir, ServeFile};

pub type ConsoleService = BoxCloneSyncService<Request<Body>, Response, Infallible>;

/// Static files from `dir`; unknown paths get `index.html` so client-side routes load.
/// When the console has not been built, every such request explains how to build it.
pub fn service(dir: &Path) -> ConsoleService {
    let index = dir.join("index.html");
    if !index.is_file() {
        let message = format!(
            "The Ludis console is not built ({} is missing). Run `npm ci && npm run build` in console/.",
            index.display()
        );
        return BoxCloneSyncService::new(service_fn(move |_req: Request<Body>| {
            let message = message.clone();
            async move { Ok::<_, Infallible>((StatusCode::SERVICE_UNAVAILABLE, message).into_response()) }
        }));
    }
    let serve = ServeDir::new(dir).fallback(ServeFile::new(index));
    BoxCloneSyncService::new(ServiceExt::<Request<Body>>::map_response(
        serve,
        IntoResponse::into_response,
    ))
}
