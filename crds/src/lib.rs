//! The custom resources of Ludis, shared by the operator and the API.
//!
//! API group `ludis.dev`, version `v1alpha1`. The resource types themselves (Project, Insight,
//! Workflow, WorkflowRun, Dataset) are added by the operator work; this crate already owns the
//! names every component must agree on.

/// The API group of every Ludis custom resource.
pub const GROUP: &str = "ludis.dev";
/// The served and stored version of every Ludis custom resource.
pub const VERSION: &str = "v1alpha1";
/// `kubectl get ludis` lists every kind in this category.
pub const CATEGORY: &str = "ludis";

/// Label carrying an asset's stable id (a UUID) on its custom resource and every child.
pub const LABEL_ID: &str = "ludis.dev/id";
/// Annotation carrying the uid of an asset's owner.
pub const ANNOTATION_OWNER: &str = "ludis.dev/owner";

/// Field manager of the operator's server-side applies.
pub const FIELD_MANAGER_OPERATOR: &str = "ludis-operator";
/// Field manager of the API's server-side applies.
pub const FIELD_MANAGER_API: &str = "ludis-api";

/// Prefix of an organization's namespace: `ludis-<org-slug>`.
pub const NAMESPACE_PREFIX: &str = "ludis-";

/// The namespace of an organization, from its slug.
pub fn organization_namespace(slug: &str) -> String {
    format!("{NAMESPACE_PREFIX}{slug}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn organization_namespace_prefixes_the_slug() {
        assert_eq!(organization_namespace("demo"), "ludis-demo");
    }
}
