//! The pod that reads a workflow's DAG file (pure): the project's repository checked out at the
//! workflow's revision into an emptyDir, then `python -m ludis.parse <dagFile>` in the workflow's
//! image with the `ludis` package mounted. Its name carries the hash of what it reads
//! ([`source`]), so a new revision, file or image is a new pod.

use k8s_openapi::api::core::v1::{Container, Pod, PodSpec};
use kube::{ResourceExt as _, api::ObjectMeta};
use ludis_crds::{LABEL_WORKFLOW, Workflow, project::GitSource};

use super::package;
use crate::{
    context::Config,
    controllers::{checkout, pods},
    k8s::{
        apply::{content_hash, owner_ref},
        labels::child_labels,
    },
    sizes::Helper,
};

/// The `app.kubernetes.io/component` of parse pods.
pub const COMPONENT: &str = "parse";
/// The container that runs the parser (its log holds the result).
pub const CONTAINER: &str = "parse";

/// What a parse reads, as a hash: the DAG file's path, the revision, the image reference and the
/// `ludis` package (an operator with another package reads every file again, and applies its
/// package's ConfigMap for the tasks).
pub fn source(dag_file: &str, revision: Option<&str>, image: &str) -> String {
    format!(
        "{:016x}",
        content_hash(&(dag_file, revision, image, package::FILES))
    )
}

/// The parse pod's name for `source`.
pub fn name(wf: &Workflow, source: &str) -> String {
    format!("{}-parse-{}", super::short(&wf.name_any(), 200), &source[..10])
}

/// The pod reading `dag_file` of `wf` (checked out from `git`) in `image`.
pub fn build(
    wf: &Workflow,
    dag_file: &str,
    git: &GitSource,
    image: &str,
    source: &str,
    config: &Config,
) -> Pod {
    let mut env = package::env();
    env.push(k8s_openapi::api::core::v1::EnvVar {
        name: "LUDIS_WORKFLOW".into(),
        value: Some(wf.name_any()),
        ..Default::default()
    });
    let parse = Container {
        name: CONTAINER.into(),
        image: Some(image.to_owned()),
        args: Some(vec![
            "python".into(),
            "-m".into(),
            "ludis.parse".into(),
            dag_file.to_owned(),
        ]),
        working_dir: Some(checkout::WORKSPACE.into()),
        env: Some(env),
        resources: Some(Helper::Parse.requirements()),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![checkout::workspace_mount(), package::mount()]),
        ..Default::default()
    };
    let checkout = checkout::git_checkout(
        git,
        wf.spec.revision.as_deref(),
        config,
        checkout::workspace_mount(),
    );
    Pod {
        metadata: ObjectMeta {
            name: Some(name(wf, source)),
            namespace: wf.namespace(),
            labels: Some(child_labels(LABEL_WORKFLOW, &wf.name_any(), COMPONENT)),
            annotations: checkout.annotations(),
            owner_references: Some(vec![owner_ref(wf)]),
            ..Default::default()
        },
        spec: Some(PodSpec {
            init_containers: Some(vec![checkout.container.clone()]),
            containers: vec![parse],
            restart_policy: Some("Never".into()),
            volumes: Some(checkout.volumes(vec![
                checkout::scratch_workspace(),
                package::volume(&wf.name_any()),
            ])),
            ..pods::restricted(config)
        }),
        status: None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{super::super::fixtures::workflow, *};

    #[test]
    fn the_parse_pod_checks_out_the_revision_and_runs_the_parser_on_the_file() {
        let wf = workflow(json!({"tasks": [], "dagFile": "wf_dag.py",
            "revision": "0123456789abcdef0123456789abcdef01234567"}));
        let git: GitSource = serde_json::from_value(json!({"url": "https://git.example/a.git"})).unwrap();
        let src = source("wf_dag.py", wf.spec.revision.as_deref(), "python:3.12");
        let pod = build(
            &wf,
            "wf_dag.py",
            &git,
            "python:3.12",
            &src,
            &Config::for_tests("ludis-system"),
        );
        assert_eq!(
            pod.metadata.name.as_deref(),
            Some(format!("nightly-parse-{}", &src[..10]).as_str())
        );
        let spec = pod.spec.unwrap();
        assert_eq!(spec.automount_service_account_token, Some(false));
        let init = &spec.init_containers.as_ref().unwrap()[0];
        let revision = init.env.as_ref().unwrap().iter().find(|e| e.name == "REVISION");
        assert_eq!(
            revision.and_then(|e| e.value.as_deref()),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        let main = &spec.containers[0];
        assert_eq!(
            main.args.as_ref().unwrap(),
            &["python", "-m", "ludis.parse", "wf_dag.py"]
        );
        assert_eq!(main.image.as_deref(), Some("python:3.12"));
        let volumes = spec.volumes.unwrap();
        assert_eq!(
            crate::controllers::pods::scratch_limit(&volumes[0]),
            Some(crate::controllers::pods::SCRATCH_LIMIT)
        );
        assert_eq!(
            volumes[1].config_map.as_ref().unwrap().name,
            "nightly-ludis-python"
        );
        // Another revision, file or image is another pod.
        assert_ne!(src, source("wf_dag.py", None, "python:3.12"));
        assert_ne!(
            src,
            source("other.py", wf.spec.revision.as_deref(), "python:3.12")
        );
    }
}
