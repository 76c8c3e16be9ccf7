//! Pieces of pod specs shared by every workload the operator builds. Only allow-listed fields
//! reach a pod: images come from the administrator's list, nothing privileged, no host paths, no
//! service-account choice, and every pod passes Pod Security "restricted".
//!
//! Commands go in `args`, never `command`, so the image's entrypoint stays: Ludis images start
//! every process under tini (`tini --`), which passes signals on, so a pod stops at once instead
//! of waiting out its grace period (a process that is PID 1 ignores SIGTERM unless it handles it).
//! An image without an entrypoint runs the arguments as they are.

use std::collections::BTreeMap;

use k8s_openapi::{
    api::core::v1::{
        Capabilities, EmptyDirVolumeSource, EnvVar, PersistentVolumeClaimVolumeSource, PodSecurityContext,
        PodSpec, ProjectedVolumeSource, SeccompProfile, SecurityContext, ServiceAccountTokenProjection,
        Toleration, Volume, VolumeMount, VolumeProjection,
    },
    apimachinery::pkg::api::resource::Quantity,
};

/// The user id every Ludis workload runs as.
pub const RUN_AS_USER: i64 = 1000;

/// Pod-level security context: non-root, RuntimeDefault seccomp.
pub fn pod_security_context() -> PodSecurityContext {
    PodSecurityContext {
        run_as_non_root: Some(true),
        run_as_user: Some(RUN_AS_USER),
        run_as_group: Some(RUN_AS_USER),
        fs_group: Some(RUN_AS_USER),
        seccomp_profile: Some(SeccompProfile {
            type_: "RuntimeDefault".into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Container-level security context: no privilege escalation, every capability dropped.
pub fn container_security_context() -> SecurityContext {
    SecurityContext {
        allow_privilege_escalation: Some(false),
        privileged: Some(false),
        run_as_non_root: Some(true),
        capabilities: Some(Capabilities {
            drop: Some(vec!["ALL".into()]),
            add: None,
        }),
        seccomp_profile: Some(SeccompProfile {
            type_: "RuntimeDefault".into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The taint of nodes set aside for Ludis workloads (the local platform's real node carries it);
/// the default of `--workload-tolerations`.
pub const WORKLOAD_TAINT: &str = "ludis.dev/workloads";

/// Tolerations of the `NoSchedule` taints with these keys, whatever their value.
pub fn tolerations(keys: &[String]) -> Vec<Toleration> {
    keys.iter()
        .map(|key| Toleration {
            key: Some(key.clone()),
            operator: Some("Exists".into()),
            effect: Some("NoSchedule".into()),
            ..Default::default()
        })
        .collect()
}

/// The fields every Ludis pod spec shares: no service-account token, no service links in the
/// environment, the restricted security context, and the tolerations of the nodes set aside for
/// workloads (`config.workload_tolerations`). Use as `PodSpec { containers, ..restricted(config) }`.
pub fn restricted(config: &crate::context::Config) -> PodSpec {
    PodSpec {
        automount_service_account_token: Some(false),
        enable_service_links: Some(false),
        security_context: Some(pod_security_context()),
        tolerations: (!config.workload_tolerations.is_empty())
            .then(|| tolerations(&config.workload_tolerations)),
        ..Default::default()
    }
}

/// A volume of the PersistentVolumeClaim `claim`.
pub fn pvc_volume(name: &str, claim: String, read_only: bool) -> Volume {
    Volume {
        name: name.to_owned(),
        persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
            claim_name: claim,
            read_only: read_only.then_some(true),
        }),
        ..Default::default()
    }
}

/// How much a workload's scratch space (its checkout and what it writes beside it) may hold
/// before the kubelet evicts the pod: a workload's disk is bounded as its memory is.
pub const SCRATCH_LIMIT: &str = "4Gi";
/// How much a report's rendered output may hold.
pub const OUTPUT_LIMIT: &str = "2Gi";

/// Scratch space of a pod (an emptyDir) named `name`, of at most `limit`.
pub fn scratch_volume(name: &str, limit: &str) -> Volume {
    Volume {
        name: name.to_owned(),
        empty_dir: Some(EmptyDirVolumeSource {
            size_limit: Some(Quantity(limit.to_owned())),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The size limit of an emptyDir volume (`None` for another volume or an unbounded one).
pub fn scratch_limit(volume: &Volume) -> Option<&str> {
    Some(volume.empty_dir.as_ref()?.size_limit.as_ref()?.0.as_str())
}

/// The command that runs a script file of the given language.
pub fn run_command(language: ludis_crds::common::Language, file: &str) -> Vec<String> {
    use ludis_crds::common::Language;
    let lower = file.to_ascii_lowercase();
    if lower.ends_with(".rmd") {
        return vec![
            "Rscript".into(),
            "-e".into(),
            // Rendered output goes to $LUDIS_OUTPUT_DIR when set (report jobs), else beside it;
            // knitr's intermediate files go to a temporary folder (the source may be read-only).
            format!(
                "rmarkdown::render({}, output_dir = Sys.getenv(\"LUDIS_OUTPUT_DIR\", \".\"), intermediates_dir = tempdir())",
                r_string(file)
            ),
        ];
    }
    match language {
        Language::Python if !lower.ends_with(".r") => vec!["python".into(), file.into()],
        _ => vec!["Rscript".into(), file.into()],
    }
}

/// An R string literal.
fn r_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A variable with a plain value.
pub fn env_var(name: &str, value: &str) -> EnvVar {
    EnvVar {
        name: name.into(),
        value: Some(value.into()),
        ..Default::default()
    }
}

/// A projected volume `name` holding the pod's service-account token for `audience` as the file
/// `token` (renewed by the kubelet before it expires after `seconds`), and the files of `more`;
/// readable by the workload's group only. The pods mount no other token
/// (`automountServiceAccountToken: false`).
pub fn token_volume(name: &str, audience: &str, seconds: i64, more: Vec<VolumeProjection>) -> Volume {
    let token = VolumeProjection {
        service_account_token: Some(ServiceAccountTokenProjection {
            audience: Some(audience.into()),
            expiration_seconds: Some(seconds),
            path: "token".into(),
        }),
        ..Default::default()
    };
    Volume {
        name: name.into(),
        projected: Some(ProjectedVolumeSource {
            sources: Some(std::iter::once(token).chain(more).collect()),
            default_mode: Some(0o440),
        }),
        ..Default::default()
    }
}

/// A read-only mount of the volume `name` at `path`.
pub fn read_only_mount(name: &str, path: &str) -> VolumeMount {
    VolumeMount {
        name: name.into(),
        mount_path: path.into(),
        read_only: Some(true),
        ..Default::default()
    }
}

/// The variable naming a dataset's location: `LUDIS_DATASET_` + the name in upper case with
/// every other character than A–Z and 0–9 as `_` (`sales-2024` → `LUDIS_DATASET_SALES_2024`).
pub fn dataset_env_name(dataset: &str) -> String {
    let name: String = dataset
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("LUDIS_DATASET_{name}")
}

/// One variable per dataset with its location (`s3://<bucket>/<prefix>`).
pub fn dataset_env(locations: &BTreeMap<String, String>) -> Vec<EnvVar> {
    locations
        .iter()
        .map(|(name, url)| env_var(&dataset_env_name(name), url))
        .collect()
}

/// A short, stable hash of anything serializable, for names that change when a spec changes.
pub fn spec_hash(value: &impl serde::Serialize) -> String {
    format!("{:08x}", crate::k8s::apply::content_hash(value) as u32)
}

#[cfg(test)]
mod tests {
    use ludis_crds::common::Language;

    use super::*;

    #[test]
    fn scripts_run_with_their_interpreter() {
        assert_eq!(
            run_command(Language::Python, "etl/run.py"),
            ["python", "etl/run.py"]
        );
        assert_eq!(run_command(Language::R, "model.R"), ["Rscript", "model.R"]);
        assert_eq!(run_command(Language::Python, "model.r"), ["Rscript", "model.r"]);
        assert_eq!(
            run_command(Language::R, "report.Rmd"),
            [
                "Rscript",
                "-e",
                "rmarkdown::render(\"report.Rmd\", output_dir = Sys.getenv(\"LUDIS_OUTPUT_DIR\", \".\"), intermediates_dir = tempdir())"
            ]
        );
        assert!(run_command(Language::R, "a\"b.rmd")[2].starts_with("rmarkdown::render(\"a\\\"b.rmd\", "));
    }

    #[test]
    fn security_contexts_meet_pod_security_restricted() {
        let pod = pod_security_context();
        assert_eq!(pod.run_as_non_root, Some(true));
        let c = container_security_context();
        assert_eq!(c.allow_privilege_escalation, Some(false));
        assert_eq!(c.capabilities.unwrap().drop.unwrap(), ["ALL"]);
        assert_eq!(c.seccomp_profile.unwrap().type_, "RuntimeDefault");
    }

    #[test]
    fn workloads_tolerate_the_configured_taints() {
        let config = crate::context::Config::for_tests("ludis-system");
        assert_eq!(config.workload_tolerations, [WORKLOAD_TAINT]);
        let spec = restricted(&config);
        let t = &spec.tolerations.unwrap()[0];
        assert_eq!(
            (t.key.as_deref(), t.operator.as_deref(), t.effect.as_deref()),
            (Some(WORKLOAD_TAINT), Some("Exists"), Some("NoSchedule"))
        );
        let none = crate::context::Config {
            workload_tolerations: vec![],
            ..config
        };
        assert_eq!(restricted(&none).tolerations, None);
    }

    #[test]
    fn dataset_variables_are_valid_names() {
        assert_eq!(dataset_env_name("sales-2024.v2"), "LUDIS_DATASET_SALES_2024_V2");
        let env = dataset_env(&BTreeMap::from([("a".into(), "s3://b/datasets/1/".into())]));
        assert_eq!(env[0].name, "LUDIS_DATASET_A");
        assert_eq!(env[0].value.as_deref(), Some("s3://b/datasets/1/"));
    }

    #[test]
    fn spec_hash_changes_with_the_spec() {
        assert_eq!(spec_hash(&("a", 1)), spec_hash(&("a", 1)));
        assert_ne!(spec_hash(&("a", 1)), spec_hash(&("a", 2)));
    }
}
