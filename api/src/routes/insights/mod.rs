//! Insights (applications, reports, imported reports): the list with its filters, screens, sort,
//! search and pages; one insight with its view count and addresses; create (from a project, from
//! a template, by URL, by PDF upload), update, delete, stop/restart/redeploy; pins.
//!
//! Every call that names an insight goes through the asset layer ([`assets`]: 404 without access, 403
//! with too little). Cluster writes ([`cluster::insights`]) come first: a create applies the
//! custom resource before its row is inserted, so a refused resource leaves nothing behind; a
//! cluster error answers 502 and leaves the database as it was.

use std::collections::HashMap;

use axum::{
    Json,
    extract::{DefaultBodyLimit, Multipart, State, multipart::MultipartRejection},
    http::StatusCode,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets,
    auth::AuthUser,
    cluster,
    db::{
        self,
        activity::Activity,
        assets::{AssetRow, Filter, ListQuery, Listed, SortBy},
        details,
        insights::{self, Insight, InsightRow},
        organizations, pins,
        users::{self, UserRow},
    },
    domain::{AccessLevel, ActivityAction, AppType, AssetKind, InsightStatus, Language, Template},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    routes::apps,
    seeds::DEFAULT_IMAGES,
    state::AppState,
    views::{Done, InsightView, presign_get},
};

mod create;
mod import;
mod lifecycle;
mod list;
mod pinning;
mod publish;
mod types;
mod validate;

use create::*;
use import::*;
use lifecycle::*;
use list::*;
use pinning::*;
use publish::*;
pub use types::*;
pub(crate) use validate::image_path;
use validate::*;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_insights))
        .routes(routes!(create_insight))
        .routes(routes!(create_from_template))
        .routes(routes!(import_app))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(import_report))
                .layer(DefaultBodyLimit::max(REPORT_BODY_LIMIT)),
        )
        .routes(routes!(get_insight, update_insight, delete_insight))
        .routes(routes!(stop_insight))
        .routes(routes!(restart_insight))
        .routes(routes!(redeploy_insight))
        .routes(routes!(list_pins))
        .routes(routes!(pin_insight))
}

/// An imported report may be up to 50 MiB (the multipart body a little more).
pub const REPORT_MAX_BYTES: usize = 50 * 1024 * 1024;
const REPORT_BODY_LIMIT: usize = REPORT_MAX_BYTES + 64 * 1024;
/// A view counts at most once per user per 10 minutes.
pub const VIEW_WINDOW_SECS: i64 = 600;
/// Folder of uploaded insight images (the profile-photo upload address is reused).
const IMAGE_PREFIX: &str = crate::routes::users::PHOTO_PREFIX;

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
const URL_MAX: usize = 2048;

pub const EMPTY_NAME: &str = "Empty name not allowed";
pub const EMPTY_DESCRIPTION: &str = "Empty description not allowed";
pub const EMPTY_TYPE: &str = "Empty form type not allowed";
pub const EMPTY_URL: &str = "Empty URL not allowed";
pub const INVALID_URL: &str = "Enter a valid URL (http:// or https://)";
pub const EXTERNAL_NO_RUN: &str = "An external application cannot be stopped or restarted";
pub const ONLY_APPLICATIONS_RUN: &str = "Only applications can be stopped or restarted";
pub const NOTHING_TO_REDEPLOY: &str =
    "Only applications and reports that run in the cluster can be redeployed";
pub const MANAGED: &str =
    "This application is managed by its resource (kubectl or GitOps); change or delete it there";

// ---------------------------------------------------------------------------------------------
// Shared pieces

fn bad(code: &'static str, message: &'static str) -> ApiError {
    ApiError::bad_request(code, message)
}

/// Loads an insight the caller has at least `need` on.
async fn load(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(Insight, AccessLevel)> {
    assets::load::<InsightRow>(state, &caller.user, id, need).await
}

/// A listed page of insights as the caller sees them (details and owners read together).
pub(crate) async fn listed_views(
    state: &AppState,
    caller: &AuthUser,
    listed: Vec<Listed>,
) -> Result<Vec<InsightView>> {
    let page = details::of_listed::<InsightRow>(&state.db, listed).await?;
    let uids: Vec<String> = page
        .iter()
        .filter_map(|(i, ..)| i.asset.owner_uid.clone())
        .collect();
    let owners: HashMap<String, UserRow> = users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid.clone(), u))
        .collect();
    let org_ids: Vec<&str> = page
        .iter()
        .map(|(i, ..)| i.asset.organization_id.as_str())
        .collect();
    let org_names = organizations::names(&state.db, &org_ids).await?;
    let mut views = Vec::with_capacity(page.len());
    for (insight, level, pinned) in &page {
        let owner = insight.asset.owner_uid.as_ref().and_then(|u| owners.get(u));
        let org_name = org_names
            .get(&insight.asset.organization_id)
            .map_or("", String::as_str);
        views.push(
            InsightView::new(insight, *level, *pinned, &caller.user.uid, owner, org_name)
                .with_img_url(state)
                .await,
        );
    }
    Ok(views)
}

/// One insight as the caller sees it.
pub async fn view(
    state: &AppState,
    caller: &AuthUser,
    i: &Insight,
    level: AccessLevel,
) -> Result<InsightView> {
    let pinned = pins::is_pinned(&state.db, &caller.user.uid, &i.asset.id).await?;
    let owner = match i.asset.owner_uid.as_deref() {
        Some(uid) if uid == caller.user.uid => Some(caller.user.clone()),
        Some(uid) => users::by_uid(&state.db, uid).await?,
        None => None,
    };
    let org_name = organizations::names(&state.db, &[i.asset.organization_id.as_str()])
        .await?
        .remove(&i.asset.organization_id)
        .unwrap_or_default();
    let mut view = InsightView::new(i, level, pinned, &caller.user.uid, owner.as_ref(), &org_name)
        .with_img_url(state)
        .await;
    if i.details.runs_in_cluster() && i.details.status == InsightStatus::Running {
        view.idle = crate::idle::shutdown_of(state, &i.asset, i.details.always_on)
            .await
            .map_err(ApiError::internal)?;
    }
    Ok(view)
}

/// Reloads an insight after a change and answers it with a message.
async fn answer(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    level: AccessLevel,
    message: &str,
) -> Result<Json<InsightMessage>> {
    let insight = details::by_id::<InsightRow>(&state.db, id)
        .await?
        .ok_or_else(|| assets::not_found(Some(AssetKind::Insight)))?;
    Ok(Json(InsightMessage {
        success: true,
        message: message.to_owned(),
        application: view(state, caller, &insight, level).await?,
    }))
}

/// A required text field: trimmed, not empty, at most `max` characters.
pub(crate) fn required_text(
    value: &str,
    empty: &'static str,
    code: &'static str,
    max: usize,
) -> Result<String> {
    let v = value.trim();
    if v.is_empty() {
        return Err(bad(code, empty));
    }
    if v.chars().count() > max {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {max} characters are allowed"),
        ));
    }
    Ok(v.to_owned())
}

pub(crate) fn optional_text(value: &str, max: usize) -> Result<String> {
    let v = value.trim();
    if v.chars().count() > max {
        return Err(ApiError::bad_request(
            "too_long",
            format!("At most {max} characters are allowed"),
        ));
    }
    Ok(v.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_http_with_a_host() {
        for (url, ok) in [
            ("https://example.com", true),
            ("http://example.com:8080/x?y=1", true),
            ("ftp://example.com", false),
            ("https://", false),
            ("https:// example.com", false),
            ("example.com", false),
            ("javascript:alert(1)", false),
        ] {
            assert_eq!(valid_url(url), ok, "{url}");
        }
    }

    #[test]
    fn images_are_default_ones_or_the_callers_uploads() {
        assert!(
            image_path("/v1/images/defaults/insight-01.svg", "u1")
                .unwrap()
                .is_some()
        );
        assert!(image_path("/v1/images/defaults/nope.svg", "u1").is_err());
        assert!(image_path("user asset images/u1/x.png", "u1").is_ok());
        assert!(image_path("user asset images/u2/x.png", "u1").is_err());
        assert!(image_path("user asset images/u1/../u2/x.png", "u1").is_err());
        assert!(image_path("reports/abc/secret.pdf", "u1").is_err());
        assert_eq!(image_path("  ", "u1").unwrap(), None);
    }

    #[test]
    fn report_file_names_are_safe() {
        assert_eq!(report_file_name(Some("Q3 report.pdf")), "Q3_report.pdf");
        assert_eq!(report_file_name(Some("../../etc/passwd")), "passwd.pdf");
        assert_eq!(report_file_name(Some("C:\\x\\a.PDF")), "a.PDF");
        assert_eq!(report_file_name(None), "report.pdf");
        assert_eq!(report_file_name(Some("...")), "report.pdf");
    }
}
