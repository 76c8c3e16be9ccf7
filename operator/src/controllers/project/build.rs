//! Build (pure): the children a valid project should have — its workspace volume and, while the
//! preview runs, the preview pod (named by the hash of its spec) and its Service.

use std::collections::BTreeMap;

use k8s_openapi::{
    api::core::v1::{
        Container, ContainerPort, EnvFromSource, EnvVar, HTTPGetAction, PersistentVolumeClaim,
        PersistentVolumeClaimSpec, Pod, PodSpec, Probe, SecretEnvSource, Service, ServicePort, ServiceSpec,
        VolumeMount, VolumeResourceRequirements,
    },
    apimachinery::pkg::{api::resource::Quantity, util::intstr::IntOrString},
};
use kube::{ResourceExt as _, api::ObjectMeta};
use ludis_crds::{
    LABEL_PROJECT, Project,
    launch::{self, Purpose, Supervision},
    project::ProjectFlavour,
};

use super::validate::Validated;
use crate::{
    context::Config,
    controllers::{
        checkout::{self, WORKSPACE},
        pods,
    },
    k8s::{
        apply::owner_ref,
        labels::{child_labels, pod_selector},
    },
};

/// Desired children.
#[derive(Debug)]
pub struct Desired {
    pub pvc: PersistentVolumeClaim,
    pub pod: Option<Pod>,
    pub service: Option<Service>,
}

/// The children this project should have.
pub fn build(project: &Project, valid: &Validated, config: &Config) -> Desired {
    let name = project.name_any();
    let ns = project.namespace();
    let owner = owner_ref(project);
    let meta = |child: String, component: &str| ObjectMeta {
        name: Some(child),
        namespace: ns.clone(),
        labels: Some(child_labels(LABEL_PROJECT, &name, component)),
        owner_references: Some(vec![owner.clone()]),
        ..Default::default()
    };
    let pvc_name = format!("{name}-workspace");
    let pvc = PersistentVolumeClaim {
        metadata: meta(pvc_name.clone(), "workspace"),
        spec: Some(PersistentVolumeClaimSpec {
            access_modes: Some(vec!["ReadWriteOnce".into()]),
            storage_class_name: config.storage_class.clone(),
            resources: Some(VolumeResourceRequirements {
                requests: Some(BTreeMap::from([(
                    "storage".into(),
                    Quantity(project.spec.workspace_size.clone()),
                )])),
                ..Default::default()
            }),
            ..Default::default()
        }),
        status: None,
    };
    if !project.spec.preview.running {
        return Desired {
            pvc,
            pod: None,
            service: None,
        };
    }

    let port = project.spec.preview.port;
    let notebook = project.spec.flavour == ProjectFlavour::Notebook;
    let base_path = project.spec.preview.base_path.as_deref().unwrap_or("/");
    let mut containers_env = Vec::new();
    let mut env_from = Vec::new();
    if !valid.datasets.is_empty() {
        env_from.push(pods::storage_env_from());
    }
    // The project's own variables come last, so they win over the storage defaults.
    env_from.extend(project.spec.env_secret.as_ref().map(|s| EnvFromSource {
        secret_ref: Some(SecretEnvSource {
            name: s.name.clone(),
            optional: Some(false),
        }),
        ..Default::default()
    }));
    let env_from = (!env_from.is_empty()).then_some(env_from);
    containers_env.push(EnvVar {
        name: "LUDIS_PROJECT".into(),
        value: Some(name.clone()),
        ..Default::default()
    });
    containers_env.push(EnvVar {
        name: "PORT".into(),
        value: Some(port.to_string()),
        ..Default::default()
    });
    // The entry file the user chose (validated); else the launch rule's first candidate.
    if let Some(file) = &valid.entry {
        containers_env.push(EnvVar {
            name: launch::ENTRY_VARIABLE.into(),
            value: Some(file.clone()),
            ..Default::default()
        });
    }
    containers_env.extend(pods::dataset_env(&valid.datasets));
    let workspace_mount = VolumeMount {
        name: "workspace".into(),
        mount_path: WORKSPACE.into(),
        ..Default::default()
    };
    let main = Container {
        name: "preview".into(),
        image: Some(valid.image.clone()),
        args: Some(if !project.spec.preview.command.is_empty() {
            project.spec.preview.command.clone()
        } else if notebook {
            launch::jupyterlab_args(base_path)
        } else {
            launch::script(Purpose::Serve, Supervision::StayUp)
        }),
        // JupyterLab is ready when its API answers (without a token, `{base}api` says its version);
        // an entry file may serve nothing, so code previews have no probe.
        readiness_probe: notebook.then(|| Probe {
            http_get: Some(HTTPGetAction {
                path: Some(format!("{base_path}api")),
                port: IntOrString::String("web".into()),
                ..Default::default()
            }),
            period_seconds: Some(2),
            failure_threshold: Some(3),
            ..Default::default()
        }),
        working_dir: Some(WORKSPACE.into()),
        env: Some(containers_env),
        env_from,
        ports: Some(vec![ContainerPort {
            name: Some("web".into()),
            container_port: port,
            ..Default::default()
        }]),
        resources: Some(pods::resources(&project.spec.resources, "500m", "1Gi")),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![workspace_mount.clone()]),
        ..Default::default()
    };
    let checkout = project
        .spec
        .git
        .as_ref()
        .map(|git| checkout::git_checkout(git, None, config, workspace_mount));
    let workspace = vec![pods::pvc_volume("workspace", pvc_name, false)];
    let pod_spec = PodSpec {
        init_containers: checkout.as_ref().map(|c| vec![c.container.clone()]),
        containers: vec![main],
        restart_policy: Some("Always".into()),
        volumes: Some(match &checkout {
            Some(c) => c.volumes(workspace),
            None => workspace,
        }),
        ..pods::restricted(config)
    };
    // A pod's spec cannot change in place: a changed spec is a new pod (the old one is an orphan).
    let pod_name = format!("{name}-preview-{}", pods::spec_hash(&pod_spec));
    let pod = Pod {
        metadata: ObjectMeta {
            annotations: checkout.as_ref().and_then(checkout::Checkout::annotations),
            ..meta(pod_name, "preview")
        },
        spec: Some(pod_spec),
        status: None,
    };
    let service = Service {
        metadata: meta(format!("{name}-preview"), "preview"),
        spec: Some(ServiceSpec {
            selector: Some(pod_selector(LABEL_PROJECT, &name, "preview")),
            ports: Some(vec![ServicePort {
                name: Some("web".into()),
                port,
                target_port: Some(IntOrString::String("web".into())),
                ..Default::default()
            }]),
            ..Default::default()
        }),
        status: None,
    };
    Desired {
        pvc,
        pod: Some(pod),
        service: Some(service),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::{super::fixtures::project, *};

    /// A project validated with the image python:3.12 and no datasets.
    fn python() -> Validated {
        Validated {
            image: "python:3.12".into(),
            datasets: BTreeMap::new(),
            entry: None,
        }
    }

    #[test]
    fn a_notebook_project_runs_jupyterlab_ready_when_its_api_answers() {
        let p = project(
            json!({"displayName": "Notes", "image": "py", "flavour": "notebook",
            "preview": {"running": true, "basePath": "/apps/p1/"}}),
        );
        let d = build(&p, &python(), &Config::for_tests("ludis-system"));
        let pod = d.pod.unwrap();
        let main = &pod.spec.as_ref().unwrap().containers[0];
        let args = main.args.as_ref().unwrap();
        assert_eq!(args[..2], ["sh", "-c"]);
        assert_eq!(args[4..6], ["jupyter", "lab"]);
        assert!(args[2].contains("--LabApp.templates_dir="));
        assert!(args.contains(&"--ServerApp.base_url=/apps/p1/".to_owned()));
        let probe = main.readiness_probe.as_ref().unwrap().http_get.as_ref().unwrap();
        assert_eq!(probe.path.as_deref(), Some("/apps/p1/api"));
        // A code project has no probe.
        let code = project(json!({"displayName": "D", "image": "py", "preview": {"running": true}}));
        let d = build(&code, &python(), &Config::for_tests("ludis-system"));
        assert!(
            d.pod.unwrap().spec.unwrap().containers[0]
                .readiness_probe
                .is_none()
        );
    }

    #[test]
    fn a_stopped_project_has_only_its_workspace() {
        let p = project(json!({"displayName": "Demo", "image": "py", "workspaceSize": "5Gi"}));
        let d = build(&p, &python(), &Config::for_tests("ludis-system"));
        assert!(d.pod.is_none() && d.service.is_none());
        let pvc = d.pvc;
        assert_eq!(pvc.metadata.name.as_deref(), Some("demo-workspace"));
        assert_eq!(
            pvc.spec.unwrap().resources.unwrap().requests.unwrap()["storage"].0,
            "5Gi"
        );
        assert_eq!(pvc.metadata.owner_references.unwrap()[0].controller, Some(true));
    }

    #[test]
    fn a_running_preview_is_a_restricted_pod_with_a_service() {
        let p = project(json!({
            "displayName": "Demo", "image": "py",
            "git": {"url": "https://git.example/acme/demo.git", "credentialsSecret": {"name": "git"}},
            "envSecret": {"name": "env"},
            "preview": {"running": true, "command": ["python", "app.py"], "port": 8501}
        }));
        let d = build(&p, &python(), &Config::for_tests("ludis-system"));
        let pod = d.pod.unwrap();
        let spec = pod.spec.unwrap();
        assert_eq!(spec.automount_service_account_token, Some(false));
        assert!(spec.service_account_name.is_none() && spec.host_network.is_none());
        assert_eq!(spec.security_context.unwrap().run_as_non_root, Some(true));
        let main = &spec.containers[0];
        assert_eq!(main.image.as_deref(), Some("python:3.12"));
        assert_eq!(main.args.as_ref().unwrap(), &["python", "app.py"]);
        assert_eq!(main.ports.as_ref().unwrap()[0].container_port, 8501);
        assert_eq!(
            main.env_from.as_ref().unwrap()[0]
                .secret_ref
                .as_ref()
                .unwrap()
                .name,
            "env"
        );
        let init = &spec.init_containers.unwrap()[0];
        assert_eq!(init.name, "git-checkout");
        let env: Vec<_> = init
            .env
            .as_ref()
            .unwrap()
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert!(env.contains(&"GIT_TOKEN") && env.contains(&"REPO_URL"));
        let svc = d.service.unwrap();
        assert_eq!(svc.spec.unwrap().ports.unwrap()[0].port, 8501);
    }

    #[test]
    fn referenced_datasets_reach_the_preview_with_the_storage_credentials() {
        let p = project(
            json!({"displayName": "D", "image": "py", "envSecret": {"name": "env"},
            "datasets": [{"name": "sales"}], "preview": {"running": true}}),
        );
        let v = Validated {
            image: "python:3.12".into(),
            datasets: BTreeMap::from([("sales".into(), "s3://acme/datasets/42/".into())]),
            entry: None,
        };
        let pod = build(&p, &v, &Config::for_tests("ludis-system")).pod.unwrap();
        let main = &pod.spec.unwrap().containers[0];
        let env = main.env.as_ref().unwrap();
        let sales = env.iter().find(|e| e.name == "LUDIS_DATASET_SALES").unwrap();
        assert_eq!(sales.value.as_deref(), Some("s3://acme/datasets/42/"));
        let from: Vec<_> = main
            .env_from
            .as_ref()
            .unwrap()
            .iter()
            .map(|f| f.secret_ref.as_ref().unwrap().name.as_str())
            .collect();
        assert_eq!(from, ["ludis-storage", "env"]);
    }

    #[test]
    fn a_changed_preview_gets_a_new_pod_name() {
        let config = Config::for_tests("ludis-system");
        let v = python();
        let a = build(
            &project(json!({"displayName": "D", "image": "py", "preview": {"running": true}})),
            &v,
            &config,
        );
        let b = build(
            &project(
                json!({"displayName": "D", "image": "py", "preview": {"running": true, "command": ["x"]}}),
            ),
            &v,
            &config,
        );
        assert_ne!(a.pod.unwrap().metadata.name, b.pod.unwrap().metadata.name);
    }
}
