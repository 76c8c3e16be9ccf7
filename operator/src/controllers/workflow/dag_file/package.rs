//! The `ludis` Python package (operator/python/ludis), built into the operator and handed to the
//! pods of workflows written as code as a ConfigMap mounted read-only on `PYTHONPATH`: any image
//! with Python 3.10+ reads and runs DAG files, without rebuilding images, on any cluster, and the
//! package always matches the operator that reads its output.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{ConfigMap, ConfigMapVolumeSource, EnvVar, KeyToPath, Volume, VolumeMount};
use kube::{ResourceExt as _, api::ObjectMeta};
use ludis_crds::{LABEL_WORKFLOW, Workflow};

use crate::k8s::{apply::owner_ref, labels::child_labels};

/// Where the package's folder is mounted (the `ludis` package is in it).
pub const MOUNT: &str = "/opt/ludis-python";
const VOLUME: &str = "ludis-python";

macro_rules! package_files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/python/ludis/", $path)))),*]
    };
}

/// Every file of the package: (path inside `ludis/`, content).
pub const FILES: &[(&str, &str)] = package_files![
    "__init__.py",
    "compat.py",
    "errors.py",
    "loader.py",
    "model.py",
    "operators.py",
    "parse.py",
    "run.py",
    "templates.py",
    "shims/airflow/__init__.py",
    "shims/airflow/decorators.py",
    "shims/airflow/models/__init__.py",
    "shims/airflow/models/baseoperator.py",
    "shims/airflow/models/dag.py",
    "shims/airflow/models/xcom_arg.py",
    "shims/airflow/operators/__init__.py",
    "shims/airflow/operators/bash.py",
    "shims/airflow/operators/bash_operator.py",
    "shims/airflow/operators/dummy.py",
    "shims/airflow/operators/dummy_operator.py",
    "shims/airflow/operators/empty.py",
    "shims/airflow/operators/python.py",
    "shims/airflow/operators/python_operator.py",
    "shims/airflow/providers/__init__.py",
    "shims/airflow/providers/standard/__init__.py",
    "shims/airflow/providers/standard/operators/__init__.py",
    "shims/airflow/providers/standard/operators/bash.py",
    "shims/airflow/providers/standard/operators/empty.py",
    "shims/airflow/providers/standard/operators/python.py",
    "shims/airflow/sdk.py",
    "shims/airflow/utils/__init__.py",
    "shims/airflow/utils/dates.py",
    "shims/airflow/utils/helpers.py",
    "shims/airflow/utils/trigger_rule.py",
];

/// A ConfigMap key for a path (keys cannot hold `/`).
fn key(path: &str) -> String {
    path.replace('/', "__")
}

/// The `app.kubernetes.io/component` of the package's ConfigMap.
pub const COMPONENT: &str = "python";

/// The name of a workflow's ConfigMap of the package.
pub fn config_map_name(wf: &Workflow) -> String {
    format!("{}-ludis-python", super::short(&wf.name_any(), 200))
}

/// The package as a ConfigMap, a child of the workflow.
pub fn config_map(wf: &Workflow) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(config_map_name(wf)),
            namespace: wf.namespace(),
            labels: Some(child_labels(LABEL_WORKFLOW, &wf.name_any(), COMPONENT)),
            owner_references: Some(vec![owner_ref(wf)]),
            ..Default::default()
        },
        data: Some(
            FILES
                .iter()
                .map(|(path, text)| (key(path), (*text).to_owned()))
                .collect::<BTreeMap<_, _>>(),
        ),
        immutable: None,
        ..Default::default()
    }
}

/// The volume of the package (each file at `ludis/<path>`).
pub fn volume(wf_name: &str) -> Volume {
    Volume {
        name: VOLUME.into(),
        config_map: Some(ConfigMapVolumeSource {
            name: format!("{}-ludis-python", super::short(wf_name, 200)),
            items: Some(
                FILES
                    .iter()
                    .map(|(path, _)| KeyToPath {
                        key: key(path),
                        path: format!("ludis/{path}"),
                        mode: None,
                    })
                    .collect(),
            ),
            optional: Some(false),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub fn mount() -> VolumeMount {
    VolumeMount {
        name: VOLUME.into(),
        mount_path: MOUNT.into(),
        read_only: Some(true),
        ..Default::default()
    }
}

/// `PYTHONPATH` to the package; no bytecode written beside it (the mount is read-only).
pub fn env() -> Vec<EnvVar> {
    vec![
        EnvVar {
            name: "PYTHONPATH".into(),
            value: Some(MOUNT.into()),
            ..Default::default()
        },
        EnvVar {
            name: "PYTHONDONTWRITEBYTECODE".into(),
            value: Some("1".into()),
            ..Default::default()
        },
    ]
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// Every .py file under `dir`, relative to `root`.
    fn python_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                python_files(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "py") {
                out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }

    #[test]
    fn every_file_of_the_package_is_built_in_under_a_key_of_its_own() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/ludis");
        let mut on_disk = Vec::new();
        python_files(&root, &root, &mut on_disk);
        on_disk.sort();
        let mut built_in: Vec<String> = FILES.iter().map(|(p, _)| (*p).to_owned()).collect();
        built_in.sort();
        assert_eq!(
            built_in, on_disk,
            "add new files of operator/python/ludis to FILES"
        );
        let keys: std::collections::BTreeSet<_> = FILES.iter().map(|(p, _)| key(p)).collect();
        assert_eq!(keys.len(), FILES.len());
        assert!(keys.iter().all(|k| {
            k.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._".contains(&b))
        }));
        // A ConfigMap holds at most 1 MiB.
        let size: usize = FILES.iter().map(|(_, t)| t.len()).sum();
        assert!(size < 256 * 1024, "{size} bytes");
    }
}
