//! Labels on every child, so children are found again by label, never from memory: the
//! `app.kubernetes.io` set, plus the owner's `ludis.dev/<kind>` label (see [`ludis_crds::keys`]).

use std::collections::BTreeMap;

/// `app.kubernetes.io/managed-by` value of every child the operator creates.
pub const MANAGED_BY: &str = "ludis-operator";

pub const APP_NAME: &str = "app.kubernetes.io/name";
pub const APP_INSTANCE: &str = "app.kubernetes.io/instance";
pub const APP_COMPONENT: &str = "app.kubernetes.io/component";
pub const APP_PART_OF: &str = "app.kubernetes.io/part-of";
pub const APP_MANAGED_BY: &str = "app.kubernetes.io/managed-by";

/// The labels of a child of the Ludis resource `name`, whose kind's label is `owner_label`
/// (e.g. [`ludis_crds::LABEL_PROJECT`]).
pub fn child_labels(owner_label: &str, name: &str, component: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        (APP_NAME.to_owned(), "ludis".to_owned()),
        (APP_INSTANCE.to_owned(), truncate_label(name)),
        (APP_COMPONENT.to_owned(), component.to_owned()),
        (APP_PART_OF.to_owned(), "ludis".to_owned()),
        (APP_MANAGED_BY.to_owned(), MANAGED_BY.to_owned()),
        (owner_label.to_owned(), truncate_label(name)),
    ])
}

/// The label selector of every child of `name` (a resource whose kind's label is `owner_label`).
pub fn children_selector(owner_label: &str, name: &str) -> String {
    format!(
        "{APP_MANAGED_BY}={MANAGED_BY},{owner_label}={}",
        truncate_label(name)
    )
}

/// The label selector of every child of every resource of a kind (`owner_label`), of one
/// `component` when given: what a controller watches.
pub fn kind_selector(owner_label: &str, component: Option<&str>) -> String {
    let mut selector = format!("{APP_MANAGED_BY}={MANAGED_BY},{owner_label}");
    if let Some(component) = component {
        selector.push_str(&format!(",{APP_COMPONENT}={component}"));
    }
    selector
}

/// The labels a Service or a Deployment selects the pods of `name`'s `component` by.
pub fn pod_selector(owner_label: &str, name: &str, component: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        (owner_label.to_owned(), truncate_label(name)),
        (APP_COMPONENT.to_owned(), component.to_owned()),
    ])
}

/// Label values are at most 63 characters; resource names can be longer.
fn truncate_label(value: &str) -> String {
    value
        .chars()
        .take(63)
        .collect::<String>()
        .trim_end_matches(['-', '.', '_'])
        .to_owned()
}

#[cfg(test)]
mod tests {
    use ludis_crds::LABEL_PROJECT;

    use super::*;

    #[test]
    fn child_labels_name_the_owner_and_the_manager() {
        let labels = child_labels(LABEL_PROJECT, "demo", "preview");
        assert_eq!(labels["ludis.dev/project"], "demo");
        assert_eq!(labels["app.kubernetes.io/managed-by"], "ludis-operator");
        assert_eq!(labels["app.kubernetes.io/component"], "preview");
        assert_eq!(
            children_selector(LABEL_PROJECT, "demo"),
            "app.kubernetes.io/managed-by=ludis-operator,ludis.dev/project=demo"
        );
        assert_eq!(
            kind_selector(LABEL_PROJECT, Some("preview")),
            "app.kubernetes.io/managed-by=ludis-operator,ludis.dev/project,app.kubernetes.io/component=preview"
        );
        let selector = pod_selector(LABEL_PROJECT, "demo", "preview");
        assert!(selector.iter().all(|(k, v)| labels.get(k) == Some(v)));
    }

    #[test]
    fn long_names_make_valid_label_values() {
        let name = format!("{}-x", "a".repeat(62));
        let v = &child_labels(LABEL_PROJECT, &name, "preview")["ludis.dev/project"];
        assert_eq!(v.len(), 62);
        assert!(!v.ends_with('-'));
    }
}
