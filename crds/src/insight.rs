//! Insight: a published dashboard, report or web application.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

use crate::common::{Language, LocalRef, Resources, Sharing};

/// A published insight. `application`: a web app (Deployment + Service, scaled to zero while
/// `running` is false), or an external app when `appUrl` is set; `report`: a Job renders the
/// report into object storage; `user_report`: an uploaded file, nothing runs. Namespaced.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[kube(
    group = "ludis.dev",
    version = "v1alpha1",
    kind = "Insight",
    namespaced,
    status = "InsightStatus",
    shortname = "ins",
    category = "ludis",
    doc = "A Ludis insight: a published dashboard, report or web application.",
    printcolumn(name = "Type", type_ = "string", json_path = ".spec.type"),
    printcolumn(name = "Phase", type_ = "string", json_path = ".status.phase"),
    printcolumn(
        name = "Ready",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].status"
    ),
    printcolumn(
        name = "Reason",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].reason"
    ),
    printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp")
)]
#[x_kube(validation = Rule::new("self.type != 'application' || has(self.appUrl) || has(self.source)").message("an application needs a source project, or an appUrl for an external app"))]
#[x_kube(validation = Rule::new("self.type != 'report' || has(self.source)").message("a report needs a source project"))]
#[x_kube(validation = Rule::new("!has(self.appUrl) || self.type == 'application'").message("only an application can have an appUrl"))]
#[x_kube(validation = Rule::new("self.type == oldSelf.type").message("type is immutable"))]
#[serde(rename_all = "camelCase")]
pub struct InsightSpec {
    /// Name shown in the console.
    #[schemars(length(min = 1, max = 128))]
    pub display_name: String,
    /// What the insight shows.
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub description: String,
    /// application, report or user_report. Immutable.
    #[serde(rename = "type")]
    pub type_: InsightType,
    /// The project and files this insight is published from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<InsightSource>,
    /// Programming language of the published code.
    #[serde(default)]
    pub language: Language,
    /// Id of the container image, from the administrator's image list. Unset: the default image
    /// for the language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 128))]
    pub image: Option<String>,
    /// Whether an application runs (false scales it to zero). Ignored for other types.
    #[serde(default = "default_true")]
    pub running: bool,
    /// URL of an external application (nothing runs in the cluster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 2048))]
    #[x_kube(validation = Rule::new("self.startsWith('https://') || self.startsWith('http://')").message("appUrl must be an http(s) URL"))]
    pub app_url: Option<String>,
    /// Port the application serves on.
    #[serde(default = "crate::project::default_port")]
    #[schemars(range(min = 1024, max = 65535))]
    pub port: i32,
    /// Datasets the insight reads (by Dataset name in this namespace).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 50))]
    pub datasets: Vec<LocalRef>,
    /// The template this app was made from, for template apps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<InsightTemplate>,
    /// Object key of the uploaded file of a user_report, in the insight's own report folder:
    /// `reports/<the insight's ludis.dev/id>/<file name>` (the file is presigned for every viewer,
    /// so no other object may be named; a key of another insight's folder is ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1024))]
    #[x_kube(validation = Rule::new(
        "self.matches('^reports/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/[A-Za-z0-9_-][A-Za-z0-9._-]*$')"
    ).message(
        "reportObject must be a file of the insight's own report folder: reports/<its ludis.dev/id>/<file name> \
         (letters, digits, '.', '-' and '_', not starting with '.')"
    ))]
    pub report_object: Option<String>,
    /// Changing this value (e.g. to the current time) redeploys the application.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 64))]
    pub redeploy_token: Option<String>,
    /// Id of the hardware size, from the administrator's size list (CPU, memory and local disk of
    /// the pod). Unset: the list's default for apps and reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        length(min = 1, max = 63),
        regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    )]
    pub size: Option<String>,
    /// CPU and memory of the application or report container.
    #[serde(default)]
    pub resources: Resources,
    /// Shares declared with the resource (GitOps); merged with shares made in the console.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<Sharing>,
}

impl Insight {
    /// An application its owner runs but nobody used for its organization's idle time: scaled
    /// to zero until the next request ([`crate::keys::ANNOTATION_IDLE_SINCE`]).
    pub fn is_idle(&self) -> bool {
        self.spec.type_ == InsightType::Application
            && self.spec.running
            && self.spec.app_url.is_none()
            && self
                .metadata
                .annotations
                .as_ref()
                .is_some_and(|a| a.contains_key(crate::keys::ANNOTATION_IDLE_SINCE))
    }
}

fn default_true() -> bool {
    true
}

/// Kind of insight.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InsightType {
    /// A running web application (or an external one with appUrl).
    Application,
    /// A report rendered by a Job.
    Report,
    /// A report file uploaded by a user.
    UserReport,
}

/// Where an insight's code comes from.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct InsightSource {
    /// Name of the Project in this namespace.
    #[schemars(length(min = 1, max = 253))]
    pub project: String,
    /// Files to publish, relative to the project root; the first is the entry point, run by
    /// the launch rule (`streamlit run app.py`, `python main.py`, …).
    #[schemars(length(min = 1, max = 100))]
    pub files: Vec<String>,
    /// The commit published (40 hex digits): the application or report runs this revision of the
    /// project's repository, checked out into a volume of its own. Unset: the branch's head when
    /// its pod starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[0-9a-f]{40}$"))]
    pub revision: Option<String>,
}

/// Template apps.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum InsightTemplate {
    /// Clustering.
    Cluster,
    /// Slice and dice.
    SliceAndDice,
    /// Campaign.
    Campaign,
}

/// What the operator observed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct InsightStatus {
    /// The generation of the spec this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Running, Stopped, Rendering, Rendered, External, Uploaded or Failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<InsightPhase>,
    /// Where the insight is reached: the in-cluster Service URL, or the external app URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// For a rendered report: the object-storage folder holding its output
    /// (`s3://<bucket>/reports/<insight id>/<render hash>/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Ready, Reconciling and Stalled (read by kstatus, Flux and Argo CD), each with the
    /// generation it was written for; Progressing and Degraded repeat the last two (deprecated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["type".into()]))]
    pub conditions: Vec<Condition>,
}

/// Phase of an insight.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
pub enum InsightPhase {
    /// The application runs.
    Running,
    /// The application is scaled to zero.
    Stopped,
    /// The application is scaled to zero while nobody uses it (`ludis.dev/idle-since`); the
    /// next request through Ludis starts it.
    Idle,
    /// The application is starting or rolling.
    Starting,
    /// The report Job runs.
    Rendering,
    /// The report is rendered.
    Rendered,
    /// An external application: nothing runs here.
    External,
    /// A user report: the uploaded file is the insight.
    Uploaded,
    /// The workload failed.
    Failed,
}
