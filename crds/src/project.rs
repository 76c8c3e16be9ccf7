//! Project: a git-backed code workspace with an optional running preview.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

use crate::common::{Language, LocalRef, Resources, SecretRef, Sharing};

/// A code workspace: a git checkout on a volume, and while `preview.running` is true a preview
/// container (the project's image) with a Service for its web port. Namespaced: one namespace per
/// organization.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[kube(
    group = "ludis.dev",
    version = "v1alpha1",
    kind = "Project",
    namespaced,
    status = "ProjectStatus",
    shortname = "proj",
    category = "ludis",
    doc = "A Ludis project: a git-backed code workspace with an optional preview container.",
    printcolumn(name = "Display Name", type_ = "string", json_path = ".spec.displayName"),
    printcolumn(name = "Flavour", type_ = "string", json_path = ".spec.flavour"),
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
#[serde(rename_all = "camelCase")]
pub struct ProjectSpec {
    /// Name shown in the console: letters, numbers, underscores, hyphens, periods and spaces
    /// (and slashes, which a legacy notebook-style project's name may have).
    #[schemars(length(min = 1, max = 128), regex(pattern = r"^[A-Za-z0-9_./\- ]+$"))]
    pub display_name: String,
    /// What the project is for.
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub description: String,
    /// Programming language of the project.
    #[serde(default)]
    pub language: Language,
    /// `code` (the default): the preview runs the project's entry file. `notebook` (the legacy
    /// notebook-style project): the preview runs JupyterLab on the workspace, whose notebooks are
    /// the repository's `.ipynb` files.
    #[serde(default)]
    pub flavour: ProjectFlavour,
    /// Where the source lives. Unset: a repository hosted by Ludis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git: Option<GitSource>,
    /// Id of the container image, from the administrator's image list.
    #[schemars(length(min = 1, max = 128))]
    pub image: String,
    /// Secret whose keys become environment variables of the preview container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env_secret: Option<SecretRef>,
    /// Datasets the project reads (by Dataset name in this namespace).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 50))]
    pub datasets: Vec<LocalRef>,
    /// The preview container.
    #[serde(default)]
    pub preview: Preview,
    /// Id of the hardware size, from the administrator's size list (CPU, memory and local disk of
    /// the pod). Unset: the list's default for projects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        length(min = 1, max = 63),
        regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    )]
    pub size: Option<String>,
    /// CPU and memory of the preview container, within the administrator's limits.
    #[serde(default)]
    pub resources: Resources,
    /// Size of the workspace volume, as a Kubernetes quantity. Can grow, never shrink.
    #[serde(default = "default_workspace_size")]
    #[schemars(regex(pattern = r"^[0-9]+(Mi|Gi|Ti)$"))]
    pub workspace_size: String,
    /// Shares declared with the resource (GitOps); merged with shares made in the console.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<Sharing>,
}

fn default_workspace_size() -> String {
    "1Gi".into()
}

/// A git repository.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct GitSource {
    /// Clone URL (https).
    #[schemars(length(min = 1, max = 2048))]
    #[x_kube(validation = Rule::new("self.startsWith('https://') || self.startsWith('http://')").message("git url must be an http(s) URL"))]
    pub url: String,
    /// Branch to check out.
    #[serde(default = "default_branch")]
    #[schemars(length(min = 1, max = 255))]
    pub branch: String,
    /// Secret with `username` and `token` keys for private repositories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials_secret: Option<SecretRef>,
}

fn default_branch() -> String {
    "main".into()
}

/// The preview container of a project.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    /// Whether the preview container runs.
    #[serde(default)]
    pub running: bool,
    /// Command the preview runs (argv). Unset: the image's default command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 64))]
    pub command: Vec<String>,
    /// The entry file the preview runs, relative to the project's root (how it runs follows the
    /// launch rule: `streamlit run app.py`, `python main.py`, …). Unset: the first of `app.py`,
    /// `main.py`, `streamlit_app.py`, `app.R`, `main.R` that exists. Ignored with `command`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 255))]
    pub file: Option<String>,
    /// Port the preview serves its web view on.
    #[serde(default = "default_port")]
    #[schemars(range(min = 1024, max = 65535))]
    pub port: i32,
    /// The path the preview's web server serves under (JupyterLab's base URL), e.g.
    /// `/apps/<project id>/`; the web view's URL carries it, so a proxy forwards whole paths.
    /// Unset: `/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 256), regex(pattern = r"^(/[A-Za-z0-9._~-]+)*/$"))]
    pub base_path: Option<String>,
}

impl Default for Preview {
    fn default() -> Self {
        Self {
            running: false,
            command: Vec::new(),
            file: None,
            port: default_port(),
            base_path: None,
        }
    }
}

/// What a project's preview runs.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ProjectFlavour {
    /// The project's entry file (`app.py`, `main.py`, `app.R`, …).
    #[default]
    Code,
    /// JupyterLab on the workspace (the legacy notebook-style project).
    Notebook,
}

pub(crate) fn default_port() -> i32 {
    8080
}

/// What the operator observed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectStatus {
    /// The generation of the spec this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Stopped, Starting, Running or Failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<ProjectPhase>,
    /// Name of the preview pod, while there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview_pod: Option<String>,
    /// In-cluster URL of the preview's web view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Port of the preview's web view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
    /// Ready, Reconciling and Stalled (read by kstatus, Flux and Argo CD), each with the
    /// generation it was written for; Progressing and Degraded repeat the last two (deprecated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["type".into()]))]
    pub conditions: Vec<Condition>,
}

/// Phase of a project's preview.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
pub enum ProjectPhase {
    /// No preview runs.
    Stopped,
    /// The preview pod is being started.
    Starting,
    /// The preview pod runs.
    Running,
    /// The preview pod failed.
    Failed,
}
