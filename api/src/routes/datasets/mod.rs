//! Datasets (spec 000 §7, spec 001 §2/§5/§6/§7, issue 6): the list (all, created by me, shared
//! with me, samples), create, update, details, delete; the files of a dataset — a folder's page
//! with continuation, new folders, deleting files and whole folders, presigned upload and download
//! addresses bound to one key and one method, previews of the first rows, the temporary (7 days)
//! and permanent (API key) access URLs; sharing (view or edit, never execute) and the client
//! configuration.
//!
//! Files never pass through the API: the browser sends them straight to object storage with a
//! presigned address. Every path a client names is normalised by [`ludis_storage::keys`] and may
//! not leave the dataset's prefix; the prefix itself (`datasets/<namespace>/<id>/`) never leaves the server.
//! Every call goes through the asset layer ([`assets::load`]): no access is 404, view access trying to write is
//! 403 'You need edit access'.

use std::collections::HashMap;

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
};
use base64::Engine as _;
use ludis_storage::{keys, objects, presign, preview};
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
        assets::{AssetRow, Filter, ListQuery, SortBy},
        datasets::{self, Dataset, DatasetRow},
        details,
        users::{self, UserRow},
    },
    domain::{AccessLevel, ActivityAction, AssetKind, DatasetStatus, DeletionPolicy, EntityType},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    routes::{
        insights::{optional_text, required_text},
        shares::{self, photo},
    },
    state::AppState,
    views::Done,
};

mod config;
mod files;
mod lifecycle;
mod links;
mod list;
mod previews;
mod sharing;
mod transfers;
mod view;

use config::*;
use files::*;
use lifecycle::*;
use links::*;
use list::*;
use previews::*;
use sharing::*;
use transfers::*;
use view::*;
pub(crate) use view::{DatasetOwner, PhotoPath, ShareIcon};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_datasets))
        .routes(routes!(create_dataset))
        .routes(routes!(update_dataset))
        .routes(routes!(dataset_details))
        .routes(routes!(delete_dataset))
        .routes(routes!(list_files))
        .routes(routes!(create_directory))
        .routes(routes!(delete_objects))
        .routes(routes!(presigned_url))
        .routes(routes!(file_preview))
        .routes(routes!(access_url))
        .routes(routes!(download))
        .routes(routes!(open_link))
        .routes(routes!(list_links))
        .routes(routes!(revoke_link))
        .routes(routes!(share_dataset))
        .routes(routes!(share_list))
        .routes(routes!(get_datasets_config))
}

const NAME_MAX: usize = 128;
const DESCRIPTION_MAX: usize = 2000;
/// A folder page holds at most this many entries (files and folders).
pub const LIST_LIMIT_MAX: i32 = 1000;
pub const LIST_LIMIT_DEFAULT: i32 = 100;
/// How long a spreadsheet preview may take (in its child process).
const PREVIEW_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);
/// Paths one delete call may name.
const DELETE_PATHS_MAX: usize = 1000;
/// People shown on a listed dataset's row.
const SHARE_ICONS: usize = 5;
/// The extensions the console uploads (spec 001 §2).
pub const ACCEPTED_EXTENSIONS: [&str; 6] = [".csv", ".json", ".xml", ".txt", ".xlsx", ".xls"];

pub const EMPTY_NAME: &str = "Empty name not allowed";
pub const EMPTY_DESCRIPTION: &str = "Empty description not allowed";
pub const EMPTY_FOLDER: &str = "Empty folder name not allowed";
pub const NO_STORAGE: &str = "Object storage is not configured";
pub const MANAGED: &str =
    "This dataset is managed by its resource (kubectl or GitOps); change or delete it there";
pub const NOTHING_TO_DELETE: &str = "Choose a file or folder to delete";
pub const FILE_NOT_FOUND: &str = "File not found";

// ---------------------------------------------------------------------------------------------
// Shared pieces

fn bad(code: &'static str, message: impl Into<std::borrow::Cow<'static, str>>) -> ApiError {
    ApiError::bad_request(code, message)
}

pub(crate) fn path_error(e: keys::KeyError) -> ApiError {
    ApiError::bad_request("invalid_path", e.to_string())
}

pub(crate) fn storage_error(e: ludis_storage::StorageError) -> ApiError {
    tracing::warn!(error = %e, "object storage failed");
    ApiError::new(
        StatusCode::BAD_GATEWAY,
        "storage_error",
        "Object storage did not answer as expected; try again",
    )
}

pub(crate) fn s3(state: &AppState) -> Result<(&aws_sdk_s3::Client, &presign::Presigner)> {
    match (&state.s3, &state.presigner) {
        (Some(s3), Some(p)) => Ok((s3, p)),
        _ => Err(ApiError::unavailable("storage_not_configured", NO_STORAGE)),
    }
}

/// Loads a dataset the caller has at least `need` on (404 without access; 'You need edit access'
/// for a viewer who writes).
async fn load(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(Dataset, AccessLevel)> {
    assets::load::<DatasetRow>(state, &caller.user, id.trim(), need).await
}

fn deletion_policy(value: Option<&str>) -> Result<DeletionPolicy> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(DeletionPolicy::Retain),
        Some(v) => DeletionPolicy::parse_any_case(v).ok_or_else(|| {
            ApiError::bad_request(
                "invalid_deletion_policy",
                format!("Unknown deletion policy: {v} (Retain or Delete)"),
            )
        }),
    }
}

/// Measures a dataset's objects and stores the numbers, in the background (after the API wrote
/// or deleted objects; the operator refreshes them too when it runs).
fn refresh_usage(state: &AppState, d: &Dataset) {
    let Some(s3) = state.s3.clone() else { return };
    let (db, id, bucket, prefix) = (
        state.db.clone(),
        d.asset.id.clone(),
        d.details.bucket.clone(),
        d.details.prefix.clone(),
    );
    tokio::spawn(async move {
        match ludis_storage::usage(&s3, &bucket, &prefix).await {
            Ok((count, bytes)) => {
                if let Err(e) = datasets::set_usage(&db, &id, count, bytes, db::now()).await {
                    tracing::warn!(dataset = %id, error = %e, "failed to store a dataset's usage");
                }
            }
            Err(e) => tracing::warn!(dataset = %id, error = %e, "failed to measure a dataset"),
        }
    });
}

/// Whether a dataset was not measured by the API in the last 10 seconds (and records now).
fn due_for_measure(id: &str) -> bool {
    use std::{
        sync::{LazyLock, Mutex},
        time::{Duration, Instant},
    };
    const EVERY: Duration = Duration::from_secs(10);
    static LAST: LazyLock<Mutex<HashMap<String, Instant>>> = LazyLock::new(Mutex::default);
    let Ok(mut last) = LAST.lock() else {
        return false;
    };
    let now = Instant::now();
    if last.get(id).is_some_and(|at| now.duration_since(*at) < EVERY) {
        return false;
    }
    if last.len() > 10_000 {
        last.retain(|_, at| now.duration_since(*at) < EVERY);
    }
    last.insert(id.to_owned(), now);
    true
}

// ---------------------------------------------------------------------------------------------
// Views

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_parse_and_unknown_ones_are_refused() {
        assert_eq!(parse_filter(None).unwrap(), (Filter::All, false));
        assert_eq!(
            parse_filter(Some("Created by me")).unwrap(),
            (Filter::Owned, false)
        );
        assert_eq!(parse_filter(Some("shared")).unwrap(), (Filter::Shared, false));
        assert_eq!(parse_filter(Some("sample")).unwrap(), (Filter::All, true));
        assert!(parse_filter(Some("starred")).is_err());
    }

    #[test]
    fn deletion_policies_parse() {
        assert_eq!(deletion_policy(None).unwrap(), DeletionPolicy::Retain);
        assert_eq!(deletion_policy(Some("delete")).unwrap(), DeletionPolicy::Delete);
        assert!(deletion_policy(Some("keep")).is_err());
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(query_encode("a b/ü&c.csv"), "a%20b%2F%C3%BC%26c.csv");
    }

    #[test]
    fn file_names_are_the_last_segment() {
        assert_eq!(file_name("a/b/c.csv"), "c.csv");
        assert_eq!(file_name("c.csv"), "c.csv");
    }
}
