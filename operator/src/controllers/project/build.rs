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
    LABEL_PROJECT, PREVIEW_SHELL_CONTAINER, Project,
    launch::{self, Purpose, Supervision},
    project::ProjectFlavour,
};

use super::validate::Validated;
use crate::{
    context::Config,
    controllers::{
        checkout::{self, WORKSPACE},
        pods,
        storage_identity::StorageIdentity,
    },
    k8s::{
        apply::owner_ref,
        labels::{child_labels, pod_selector},
    },
    sizes::{self, Helper},
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
    let env_from = project.spec.env_secret.as_ref().map(|s| {
        vec![EnvFromSource {
            secret_ref: Some(SecretEnvSource {
                name: s.name.clone(),
                optional: Some(false),
            }),
            ..Default::default()
        }]
    });
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
    let mut main = Container {
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
        resources: Some(sizes::requirements(&valid.size, &project.spec.resources)),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![workspace_mount.clone()]),
        ..Default::default()
    };
    // The datasets are reached with the pod's identity, by the main container only.
    let identity = StorageIdentity::for_datasets(config, valid.datasets.keys());
    if let Some(identity) = &identity {
        identity.give(&mut main);
    }
    let shell = shell_container(&valid.image, &workspace_mount);
    let checkout = project
        .spec
        .git
        .as_ref()
        .map(|git| checkout::git_checkout(git, None, config, workspace_mount));
    let mut volumes = vec![pods::pvc_volume("workspace", pvc_name, false)];
    let mut annotations = BTreeMap::new();
    if let Some(c) = &checkout {
        volumes = c.volumes(volumes);
        annotations.extend(c.annotations().unwrap_or_default());
    }
    if let Some(identity) = &identity {
        volumes = identity.volumes(volumes);
        identity.annotate(&mut annotations);
    }
    let pod_spec = PodSpec {
        init_containers: checkout.as_ref().map(|c| vec![c.container.clone()]),
        containers: vec![main, shell],
        restart_policy: Some("Always".into()),
        volumes: Some(volumes),
        ..pods::restricted(config)
    };
    // A pod's spec cannot change in place: a changed spec is a new pod (the old one is an orphan).
    let pod_name = format!("{name}-preview-{}", pods::spec_hash(&pod_spec));
    let pod = Pod {
        metadata: ObjectMeta {
            annotations: (!annotations.is_empty()).then_some(annotations),
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

/// The container terminals of people below edit open in ([`PREVIEW_SHELL_CONTAINER`]): the
/// preview's image and working folder, the workspace read-only, and nothing else — not the
/// project's variables, not its storage identity. It idles until a terminal execs into it.
fn shell_container(image: &str, workspace: &VolumeMount) -> Container {
    Container {
        name: PREVIEW_SHELL_CONTAINER.into(),
        image: Some(image.to_owned()),
        args: Some(vec![
            "sh".into(),
            "-c".into(),
            "trap 'exit 0' TERM; while :; do sleep 3600 & wait $!; done".into(),
        ]),
        working_dir: Some(WORKSPACE.into()),
        resources: Some(Helper::Shell.requirements()),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![VolumeMount {
            read_only: Some(true),
            ..workspace.clone()
        }]),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::{super::fixtures::project, *};

    /// The seeded size of projects.
    fn medium() -> ludis_crds::sizes::Size {
        ludis_crds::sizes::SizeList::seeded()
            .get("medium")
            .unwrap()
            .clone()
    }

    /// A project validated with the image python:3.12 and no datasets.
    fn python() -> Validated {
        Validated {
            image: "python:3.12".into(),
            size: medium(),
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
    fn the_preview_takes_its_size_and_every_container_is_bounded() {
        let p = project(
            json!({"displayName": "D", "image": "py", "preview": {"running": true},
            "git": {"url": "http://10.0.0.1:8080/git/ludis-acme/p.git"}}),
        );
        let large = ludis_crds::sizes::SizeList::seeded()
            .get("large")
            .unwrap()
            .clone();
        let valid = Validated {
            size: large,
            ..python()
        };
        let spec = build(&p, &valid, &Config::for_tests("ludis-system"))
            .pod
            .unwrap()
            .spec
            .unwrap();
        let r = spec.containers[0].resources.as_ref().unwrap();
        let requests = r.requests.as_ref().unwrap();
        assert_eq!(
            (requests["cpu"].0.as_str(), requests["memory"].0.as_str()),
            ("1500m", "4Gi")
        );
        assert_eq!(r.limits.as_ref().unwrap()["ephemeral-storage"].0, "8Gi");
        crate::sizes::assert_bounded(&spec);
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
    fn referenced_datasets_reach_the_preview_with_the_pod_s_identity_and_no_key() {
        let p = project(
            json!({"displayName": "D", "image": "py", "envSecret": {"name": "env"},
            "git": {"url": "http://10.0.0.1:8080/git/ludis-acme/p.git"},
            "datasets": [{"name": "sales"}, {"name": "a-logs"}], "preview": {"running": true}}),
        );
        let v = Validated {
            image: "python:3.12".into(),
            size: medium(),
            datasets: BTreeMap::from([
                ("sales".into(), "s3://acme/datasets/42/".into()),
                ("a-logs".into(), "s3://acme/datasets/43/".into()),
            ]),
            entry: None,
        };
        let config = Config {
            git_url: Some("http://10.0.0.1:8080/git".into()),
            storage_url: Some("http://10.146.0.1:8082".into()),
            ..Config::for_tests("ludis-system")
        };
        let pod = build(&p, &v, &config).pod.unwrap();
        let annotations = pod.metadata.annotations.unwrap();
        assert_eq!(annotations[ludis_crds::ANNOTATION_DATASETS], "a-logs,sales");
        assert_eq!(annotations[ludis_crds::ANNOTATION_CHECKOUT], "ludis-acme/p.git");
        let spec = pod.spec.unwrap();
        let main = &spec.containers[0];
        let env = main.env.as_ref().unwrap();
        let value = |name: &str| env.iter().find(|e| e.name == name).and_then(|e| e.value.clone());
        assert_eq!(
            value("LUDIS_DATASET_SALES").as_deref(),
            Some("s3://acme/datasets/42/")
        );
        assert_eq!(
            value("AWS_ENDPOINT_URL").as_deref(),
            Some("http://10.146.0.1:8082")
        );
        assert_eq!(
            value("AWS_WEB_IDENTITY_TOKEN_FILE").as_deref(),
            Some("/var/run/secrets/ludis.dev/storage/token")
        );
        // The project's own variables are the only Secret the container reads.
        let from: Vec<_> = main
            .env_from
            .as_ref()
            .unwrap()
            .iter()
            .map(|f| f.secret_ref.as_ref().unwrap().name.as_str())
            .collect();
        assert_eq!(from, ["env"]);
        assert!(
            env.iter()
                .all(|e| e.value_from.as_ref().is_none_or(|v| v.secret_key_ref.is_none()))
        );
        let identity = StorageIdentity::for_datasets(&config, v.datasets.keys()).unwrap();
        assert!(main.volume_mounts.as_ref().unwrap().contains(&identity.mount()));
        let volumes = spec.volumes.unwrap();
        let token = volumes.iter().find(|v| v.name == "storage-identity").unwrap();
        assert_eq!(
            token.projected.as_ref().unwrap().sources.as_ref().unwrap()[0]
                .service_account_token
                .as_ref()
                .unwrap()
                .audience
                .as_deref(),
            Some(ludis_crds::STORAGE_AUDIENCE)
        );
        assert!(volumes.iter().all(|v| v.secret.is_none()));
        // The checkout never holds the storage token.
        let init = &spec.init_containers.unwrap()[0];
        assert!(
            init.volume_mounts
                .iter()
                .flatten()
                .all(|m| m.name != "storage-identity")
        );
        assert!(init.env.iter().flatten().all(|e| !e.name.starts_with("AWS_")));
        // Collaborators' terminals open beside it: no variables, no storage, the workspace
        // read-only.
        let shell = &spec.containers[1];
        assert_eq!(shell.name, ludis_crds::PREVIEW_SHELL_CONTAINER);
        assert_eq!(shell.image.as_deref(), Some("python:3.12"));
        assert!(shell.env.is_none() && shell.env_from.is_none());
        assert_eq!(
            shell.volume_mounts.as_deref(),
            Some(
                &[VolumeMount {
                    name: "workspace".into(),
                    mount_path: WORKSPACE.into(),
                    read_only: Some(true),
                    ..Default::default()
                }][..]
            )
        );
        assert_eq!(spec.containers.len(), 2);

        // Without a gateway: the locations, and nothing to reach them with.
        let pod = build(&p, &v, &Config::for_tests("ludis-system")).pod.unwrap();
        assert!(pod.metadata.annotations.is_none());
        let spec = pod.spec.unwrap();
        let env = spec.containers[0].env.as_ref().unwrap();
        assert!(env.iter().any(|e| e.name == "LUDIS_DATASET_A_LOGS"));
        assert!(env.iter().all(|e| !e.name.starts_with("AWS_")));
        assert!(spec.volumes.unwrap().iter().all(|v| v.name != "storage-identity"));
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
