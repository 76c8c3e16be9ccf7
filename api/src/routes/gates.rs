//! The layers in front of the routes: the apps-host gate (an apps origin serves only the app
//! proxy) and the flighting gate (a feature switched off for the caller's role is 403 on every
//! route of its area).

use axum::{
    extract::{FromRequestParts as _, Request, State},
    middleware::Next,
    response::{IntoResponse as _, Response},
};

use super::apps::Destination;
use crate::{
    auth::{AuthUser, MaybeAuthUser},
    db,
    domain::Feature,
    error::ApiError,
    policy,
    state::AppState,
};

pub async fn not_found() -> ApiError {
    ApiError::not_found("route_not_found", "Not found")
}

/// With an apps origin (`LUDIS_APPS_ORIGIN`), its host serves only the app proxy: a per-app origin
/// (`<id>.apps.…`) its own app at its root, whatever the path; a shared apps origin `/apps/…`.
/// No other host serves the app proxy, so an app's scripts never share an origin with the console
/// or `/v1`. Anything misrouted answers 404.
pub async fn apps_host_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    match super::apps::destination(&state, req.headers(), req.uri()) {
        Destination::Routes => next.run(req).await,
        Destination::AppAtRoot(app_id) => super::apps::serve_at_root(state, app_id, req).await,
        Destination::Misrouted => not_found().await.into_response(),
    }
}

/// Flighting, enforced for every route of a feature area (`policy::flags::feature_for_path`):
/// a signed-in caller whose role the feature excludes gets 403. The caller is authenticated by
/// the same extractor as every route ([`MaybeAuthUser`]), which keeps it in the request for the
/// route's own extractor (one lookup per request). A request without a valid credential passes on
/// to the route, which answers 401 (or 403) itself.
pub async fn feature_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let Some(key) = policy::flags::feature_for_path(req.uri().path()) else {
        return next.run(req).await;
    };
    let (mut parts, body) = req.into_parts();
    let caller = MaybeAuthUser::from_request_parts(&mut parts, &state).await;
    let req = Request::from_parts(parts, body);
    let Ok(MaybeAuthUser(Some(caller))) = caller else {
        return next.run(req).await;
    };
    match allowed(&state, &caller, key).await {
        Ok(true) => next.run(req).await,
        Ok(false) => {
            tracing::info!(user = %caller.user.uid, feature = %key, "rejected: feature off for this role");
            ApiError::forbidden(
                "feature_disabled",
                format!("The {} feature is not enabled for your role", key.name()),
            )
            .into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// Whether feature `key` is on for the caller's role in their organization.
async fn allowed(state: &AppState, caller: &AuthUser, key: Feature) -> Result<bool, ApiError> {
    let user = &caller.user;
    let flag = db::flighting::one(&state.db, &user.organization_id, key).await?;
    Ok(policy::flags::allowed(user.role, flag.as_ref()))
}
