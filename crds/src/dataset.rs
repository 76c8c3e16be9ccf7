//! Dataset: a folder of files in the organization's bucket.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

use crate::common::Sharing;

/// A dataset: a prefix in the organization's bucket. With `deletionPolicy: Delete` its objects
/// are deleted with it (a finalizer); with `Retain` they stay. Namespaced.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[kube(
    group = "ludis.dev",
    version = "v1alpha1",
    kind = "Dataset",
    namespaced,
    status = "DatasetStatus",
    shortname = "ds",
    category = "ludis",
    doc = "A Ludis dataset: a folder of files in the organization's object storage.",
    printcolumn(name = "Display Name", type_ = "string", json_path = ".spec.displayName"),
    printcolumn(name = "Objects", type_ = "integer", json_path = ".status.objectCount"),
    printcolumn(name = "Bytes", type_ = "integer", json_path = ".status.bytes"),
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
pub struct DatasetSpec {
    /// Name shown in the console.
    #[schemars(length(min = 1, max = 128))]
    pub display_name: String,
    /// What the data is.
    #[serde(default)]
    #[schemars(length(max = 2000))]
    pub description: String,
    /// What happens to the objects when the dataset is deleted: Retain (default) or Delete.
    #[serde(default)]
    pub deletion_policy: DeletionPolicy,
    /// Shares declared with the resource (GitOps); merged with shares made in the console.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<Sharing>,
}

/// What happens to a dataset's objects when it is deleted.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default, schemars::JsonSchema)]
pub enum DeletionPolicy {
    /// Keep the objects.
    #[default]
    Retain,
    /// Delete the objects.
    Delete,
}

/// What the operator observed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct DatasetStatus {
    /// The generation of the spec this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// The bucket holding the data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bucket: Option<String>,
    /// The prefix of the data in the bucket (ends with `/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// Number of objects under the prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_count: Option<i64>,
    /// Total size of the objects, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<i64>,
    /// Ready, Reconciling and Stalled (read by kstatus, Flux and Argo CD), each with the
    /// generation it was written for; Progressing and Degraded repeat the last two (deprecated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["type".into()]))]
    pub conditions: Vec<Condition>,
}
