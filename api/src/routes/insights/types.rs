//! The request and answer types of the insight routes.

use super::*;

#[derive(Serialize, ToSchema)]
pub struct InsightMessage {
    pub success: bool,
    pub message: String,
    pub application: InsightView,
}

#[derive(Deserialize, IntoParams, Default)]
#[serde(rename_all = "camelCase", default)]
#[into_params(parameter_in = Query)]
pub struct InsightsQuery {
    /// 1-based page (default 1).
    pub page: Option<i64>,
    /// Page size (default 12, at most 100).
    pub page_size: Option<i64>,
    /// all (default), starred, owned, shared or template.
    pub filter: Option<String>,
    /// created_at (default), updated_at or name.
    pub sort_by: Option<String>,
    /// DESC (default) or ASC.
    pub sort_operator: Option<String>,
    /// Case-insensitive substring of the name or description.
    pub search: Option<String>,
    /// Dashboard (default: every type), Reports (report and user_report) or Applications.
    pub screen: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct InsightsPage {
    pub success: bool,
    pub applications: Vec<InsightView>,
    /// How many match, over all pages.
    pub total: i64,
    pub page: i64,
    #[serde(rename = "pageSize")]
    pub page_size: i64,
    #[serde(rename = "totalPages")]
    pub total_pages: i64,
}

#[derive(Serialize, ToSchema)]
pub struct InsightResponse {
    pub success: bool,
    pub application: InsightView,
    /// A user report's file: a presigned GET, valid one hour.
    pub report_url: Option<String>,
    /// Where the app opens: an external app's URL (the console opens it itself), or for a
    /// running application the API's reverse proxy on the apps origin with a single-use ticket
    /// bound to this session (`https://<id>.apps.…/apps/{id}/?ticket=…`).
    pub open_url: Option<String>,
    /// Why an application that runs in the cluster cannot be opened here at all (the platform
    /// has no apps origin), for its page; null otherwise.
    pub open_error: Option<String>,
    /// A failed application's last log lines (of the checkout or of its program's last run), for
    /// callers with execute access; null otherwise.
    #[schema(required)]
    pub failure_log: Option<Vec<String>>,
}

#[derive(Deserialize, ToSchema)]
pub struct CreateInsightRequest {
    pub application: NewInsight,
}

/// A new application or report published from a project, or an external application (app_url).
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewInsight {
    pub name: String,
    pub description: String,
    /// application or report (an imported PDF goes to `POST /v1/applications/importreport`).
    #[schema(value_type = AppType)]
    pub app_type: String,
    /// A default image URL or an uploaded image's key.
    pub img_path: Option<String>,
    /// An external application's URL (then nothing runs in the cluster).
    pub app_url: Option<String>,
    /// python (default) or r.
    #[schema(value_type = Option<Language>)]
    pub language: Option<String>,
    /// The project published from (edit access needed); required unless app_url is given.
    pub project_id: Option<String>,
    /// Files published, relative to the project root; the first is the entry point.
    pub publish_filenames: Vec<String>,
    /// Datasets the insight reads (view access needed on each).
    pub dataset_ids: Vec<String>,
    /// An id of `GET /v2/cluster/sizes/list` for its pod; unset or empty: the list's default
    /// for apps and reports.
    pub size_id: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct TemplateAppRequest {
    pub application: NewTemplateApp,
}

/// The template wizard's app.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewTemplateApp {
    pub name: String,
    pub description: String,
    #[schema(value_type = Template)]
    pub template: String,
    pub dataset_ids: Vec<String>,
    pub img_path: Option<String>,
    /// The data file the app reads: a `.csv`, `.xlsx` or `.xls` file of its first dataset
    /// (relative; it must exist). Absent or empty: the dataset's first `.csv` at the top level,
    /// else its first workbook there, found at each call.
    pub file: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct ImportAppRequest {
    pub application: ImportApp,
}

/// An external application by its URL.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct ImportApp {
    pub name: String,
    pub description: String,
    /// application.
    #[schema(value_type = AppType)]
    pub app_type: String,
    pub app_url: String,
    pub img_path: Option<String>,
}

/// The multipart form of a report import.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ImportReportForm {
    pub name: String,
    pub description: String,
    /// The PDF (at most 50 MiB).
    #[schema(value_type = String, format = Binary)]
    pub file: Vec<u8>,
    pub img_path: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateInsightRequest {
    pub entity: InsightChanges,
}

/// Changes to an insight; absent fields stay as they are.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct InsightChanges {
    pub name: Option<String>,
    pub description: Option<String>,
    /// A default image URL or an uploaded image's key; empty removes the image.
    pub img_path: Option<String>,
    /// Only for external applications.
    pub app_url: Option<String>,
    /// An id of `GET /v2/cluster/sizes/list`; empty: the list's default. A running app restarts
    /// with it.
    pub size_id: Option<String>,
    /// Pin an application always on: never scaled to zero when nobody uses it. Only where the
    /// organization allows it.
    pub always_on: Option<bool>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RunRequest {
    pub application_id: String,
    /// With a restart: files of the insight's project to publish into it again (the first is the
    /// entry file; edit access). Empty: start it as it is.
    #[serde(default)]
    pub publish_filenames: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PinList {
    pub success: bool,
    /// Newest pin first; only insights the caller still sees.
    pub applications: Vec<InsightView>,
}

#[derive(Deserialize, ToSchema)]
pub struct PinRequest {
    pub app_pin: PinChange,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct PinChange {
    pub app_id: String,
    /// The caller's uid (or omitted): one pins for oneself only.
    pub user_id: Option<String>,
    pub pinned: bool,
}

#[derive(Serialize, ToSchema)]
pub struct PinInfo {
    pub app_id: String,
    pub user_id: String,
    pub pinned: bool,
}

#[derive(Serialize, ToSchema)]
pub struct PinResponse {
    pub success: bool,
    #[serde(rename = "applicationPinInfo")]
    pub application_pin_info: PinInfo,
}

// ---------------------------------------------------------------------------------------------
// List and get
