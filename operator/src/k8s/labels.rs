//! Labels on every child, so children are found again by label, never from memory.

use std::collections::BTreeMap;

/// `app.kubernetes.io/managed-by` value of every child the operator creates.
pub const MANAGED_BY: &str = "ludis-operator";

/// The labels of a child of the Ludis resource `kind`/`name` (kind lowercase, e.g. `project`).
pub fn child_labels(kind: &str, name: &str, component: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("app.kubernetes.io/name".to_owned(), "ludis".to_owned()),
        ("app.kubernetes.io/instance".to_owned(), truncate_label(name)),
        ("app.kubernetes.io/component".to_owned(), component.to_owned()),
        ("app.kubernetes.io/part-of".to_owned(), "ludis".to_owned()),
        ("app.kubernetes.io/managed-by".to_owned(), MANAGED_BY.to_owned()),
        (format!("ludis.dev/{kind}"), truncate_label(name)),
    ])
}

/// The label selector of every child of `kind`/`name`.
pub fn children_selector(kind: &str, name: &str) -> String {
    format!(
        "app.kubernetes.io/managed-by={MANAGED_BY},ludis.dev/{kind}={}",
        truncate_label(name)
    )
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
    use super::*;

    #[test]
    fn child_labels_name_the_owner_and_the_manager() {
        let labels = child_labels("project", "demo", "preview");
        assert_eq!(labels["ludis.dev/project"], "demo");
        assert_eq!(labels["app.kubernetes.io/managed-by"], "ludis-operator");
        assert_eq!(labels["app.kubernetes.io/component"], "preview");
        assert_eq!(
            children_selector("project", "demo"),
            "app.kubernetes.io/managed-by=ludis-operator,ludis.dev/project=demo"
        );
    }

    #[test]
    fn long_names_make_valid_label_values() {
        let name = format!("{}-x", "a".repeat(62));
        let v = &child_labels("project", &name, "preview")["ludis.dev/project"];
        assert_eq!(v.len(), 62);
        assert!(!v.ends_with('-'));
    }
}
