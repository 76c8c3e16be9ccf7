//! Pins: the caller's pinned insights, listed in one query, and pinning.

use super::*;

/// The caller's pinned insights, newest pin first (only ones they still see).
#[utoipa::path(get, path = "/v1/applications/pin/list", tag = "insights",
    responses((status = 200, body = PinList)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_pins(State(state): State<AppState>, caller: AuthUser) -> Result<Json<PinList>> {
    let pinned = pins::pinned(&state.db, assets::viewer(&caller.user), AssetKind::Insight).await?;
    Ok(Json(PinList {
        success: true,
        applications: listed_views(&state, &caller, pinned).await?,
    }))
}

/// Pin or unpin an insight for oneself (view access).
#[utoipa::path(post, path = "/v1/applications/pin", tag = "insights", request_body = PinRequest,
    responses(
        (status = 200, body = PinResponse),
        (status = 400, description = "app_id is required", body = ErrorBody),
        (status = 403, description = "Pins are personal: user_id must be the caller", body = ErrorBody),
        (status = 404, description = "Application not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn pin_insight(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<PinRequest>,
) -> Result<Json<PinResponse>> {
    let p = req.app_pin;
    let app_id = p.app_id.trim();
    if app_id.is_empty() {
        return Err(bad("app_id_required", "app_id is required"));
    }
    if p.user_id
        .as_deref()
        .map(str::trim)
        .is_some_and(|u| !u.is_empty() && u != caller.user.uid)
    {
        return Err(ApiError::forbidden(
            "pin_self_only",
            "Pins are personal: you can only pin for yourself",
        ));
    }
    assets::require(
        &state,
        &caller.user,
        AssetKind::Insight,
        app_id,
        AccessLevel::View,
    )
    .await?;
    pins::set(&state.db, &caller.user.uid, app_id, p.pinned, db::now()).await?;
    Ok(Json(PinResponse {
        success: true,
        application_pin_info: PinInfo {
            app_id: app_id.to_owned(),
            user_id: caller.user.uid.clone(),
            pinned: p.pinned,
        },
    }))
}
