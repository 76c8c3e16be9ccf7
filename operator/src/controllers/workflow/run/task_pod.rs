//! The pod of one try of a task (pure), and what became of it.

use k8s_openapi::api::core::v1::{Container, EnvVar, Pod, PodSpec};
use kube::{ResourceExt as _, api::ObjectMeta};
use ludis_crds::{
    LABEL_TASK, LABEL_TRY, LABEL_WORKFLOW, LABEL_WORKFLOW_RUN, Workflow, WorkflowRun,
    common::Language,
    sizes::WorkloadKind,
    workflow::{WorkflowTask, task_label},
};

use super::{
    super::{
        dag::{PodOutcome, pod_name},
        dag_file::package,
    },
    observe::Destinations,
    validate::Validated,
};
use crate::{
    context::Config,
    controllers::{checkout, pods, storage_identity::StorageIdentity},
    images::ImageCatalog,
    k8s::{apply::owner_ref, labels::child_labels},
    sizes::{self, SizeCatalog},
};

/// What a task does.
#[derive(Clone, Copy, Debug)]
pub enum TaskWork<'a> {
    /// A task drawn in the designer: a script or an upload.
    Designed(&'a WorkflowTask),
    /// A task of a DAG file (by its id): `python -m ludis.run <dagFile> <taskId>`.
    Coded(&'a str),
}

impl TaskWork<'_> {
    pub fn name(&self) -> &str {
        match self {
            TaskWork::Designed(t) => &t.name,
            TaskWork::Coded(name) => name,
        }
    }
}

/// A pod's outcome and how long it ran, in seconds.
pub fn outcome(pod: &Pod) -> Option<(PodOutcome, Option<f64>)> {
    let status = pod.status.as_ref()?;
    let terminated = status
        .container_statuses
        .iter()
        .flatten()
        .filter_map(|c| c.state.as_ref()?.terminated.as_ref())
        .next();
    let duration = terminated.and_then(|t| {
        let (s, f) = (t.started_at.as_ref()?, t.finished_at.as_ref()?);
        Some((f.0.as_millisecond() - s.0.as_millisecond()) as f64 / 1000.0)
    });
    match status.phase.as_deref()? {
        "Succeeded" => Some((PodOutcome::Succeeded, duration)),
        "Failed" => Some((PodOutcome::Failed, duration)),
        _ => Some((PodOutcome::Running, None)),
    }
}

/// What a task's pod is built from beside the task: the administrator's lists and where the
/// datasets are.
#[derive(Clone, Copy)]
pub struct Resolvers<'a> {
    pub images: &'a ImageCatalog,
    pub sizes: &'a SizeCatalog,
    pub destinations: &'a Destinations,
}

/// The pod of one try of a task (Err: why the task cannot run). It checks out the project's
/// repository at the run's revision into a workspace of its own.
pub fn build_pod(
    run: &WorkflowRun,
    valid: &Validated<'_>,
    work: TaskWork<'_>,
    try_number: i32,
    from: Resolvers<'_>,
    config: &Config,
) -> Result<Pod, String> {
    let wf = valid.workflow;
    let size = from
        .sizes
        .resolve(task_size(wf, work), WorkloadKind::Task)
        .map_err(|e| format!("task {:?}: {e}", work.name()))?;
    let run_name = run.name_any();
    let task_name = work.name();
    let mut labels = child_labels(LABEL_WORKFLOW_RUN, &run_name, "task");
    labels.insert(LABEL_TASK.to_owned(), task_label(task_name));
    labels.insert(LABEL_TRY.to_owned(), try_number.to_string());
    labels.insert(LABEL_WORKFLOW.to_owned(), wf.name_any());
    let mut volumes = vec![checkout::scratch_workspace()];
    let mut mounts = vec![checkout::workspace_mount()];
    let mut env = vec![
        EnvVar {
            name: "LUDIS_RUN".into(),
            value: Some(run_name.clone()),
            ..Default::default()
        },
        EnvVar {
            name: "LUDIS_TASK".into(),
            value: Some(task_name.to_owned()),
            ..Default::default()
        },
        EnvVar {
            name: "LUDIS_TRY".into(),
            value: Some(try_number.to_string()),
            ..Default::default()
        },
    ];
    let work_container = match work {
        TaskWork::Coded(id) => {
            let dag_file = wf.spec.dag_file.clone().unwrap_or_default();
            let image = valid
                .dag_file_image
                .clone()
                .ok_or_else(|| format!("task {id:?}: the workflow has no DAG file image"))?;
            env.extend(package::env());
            volumes.push(package::volume(&wf.name_any()));
            mounts.push(package::mount());
            let command = vec![
                "python".into(),
                "-m".into(),
                "ludis.run".into(),
                dag_file,
                id.to_owned(),
            ];
            Container {
                image: Some(image),
                args: Some(command),
                ..Default::default()
            }
        }
        TaskWork::Designed(task) => designed(task, &mut env, from.images, from.destinations, config)?,
    };
    let checkout = checkout::git_checkout(
        valid.git,
        valid.revision.as_deref(),
        config,
        checkout::workspace_mount(),
    );
    let mut task = Container {
        name: "task".into(),
        working_dir: Some(checkout::WORKSPACE.into()),
        env: Some(env),
        resources: Some(sizes::requirements(&size, &Default::default())),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(mounts),
        ..work_container
    };
    let mut volumes = checkout.volumes(volumes);
    let mut annotations = checkout.annotations().unwrap_or_default();
    // An upload writes into its dataset with the pod's identity (the task container only).
    let upload = match work {
        TaskWork::Designed(t) => t.upload.as_ref().map(|u| &u.dataset),
        TaskWork::Coded(_) => None,
    };
    if let Some(identity) = upload.and_then(|dataset| StorageIdentity::for_datasets(config, [dataset])) {
        identity.give(&mut task);
        volumes = identity.volumes(volumes);
        identity.annotate(&mut annotations);
    }
    Ok(Pod {
        metadata: ObjectMeta {
            name: Some(pod_name(&run_name, task_name, try_number)),
            namespace: run.namespace(),
            labels: Some(labels),
            annotations: (!annotations.is_empty()).then_some(annotations),
            owner_references: Some(vec![owner_ref(run)]),
            ..Default::default()
        },
        spec: Some(PodSpec {
            init_containers: Some(vec![checkout.container.clone()]),
            containers: vec![task],
            restart_policy: Some("Never".into()),
            volumes: Some(volumes),
            ..pods::restricted(config)
        }),
        status: None,
    })
}

/// The size a task names: its own (a designed script's), else its workflow's.
pub fn task_size<'a>(wf: &'a Workflow, work: TaskWork<'a>) -> Option<&'a str> {
    let own = match work {
        TaskWork::Designed(task) => task.script.as_ref().and_then(|s| s.size.as_deref()),
        TaskWork::Coded(_) => None,
    };
    own.or(wf.spec.size.as_deref())
}

/// The image and command of a designer's task (the rest of the container is common).
fn designed(
    task: &WorkflowTask,
    env: &mut Vec<EnvVar>,
    images: &ImageCatalog,
    destinations: &Destinations,
    config: &Config,
) -> Result<Container, String> {
    let result = if let Some(script) = &task.script {
        let image = images.resolve(&script.image).ok_or_else(|| {
            format!(
                "task {:?}: image {:?} is not in the administrator's image list",
                task.name, script.image
            )
        })?;
        env.push(EnvVar {
            name: "LUDIS_TASK_FILE".into(),
            value: Some(script.file.clone()),
            ..Default::default()
        });
        let language = if script.file.to_ascii_lowercase().ends_with(".py") {
            Language::Python
        } else {
            Language::R
        };
        let mut command = pods::run_command(language, &script.file);
        if let Some(install) = &script.install_script {
            env.push(EnvVar {
                name: "LUDIS_INSTALL_SCRIPT".into(),
                value: Some(install.clone()),
                ..Default::default()
            });
            let mut wrapped = vec![
                "sh".into(),
                "-c".into(),
                "sh \"$LUDIS_INSTALL_SCRIPT\" && exec \"$@\"".into(),
                "--".into(),
            ];
            wrapped.append(&mut command);
            command = wrapped;
        }
        Container {
            image: Some(image.to_owned()),
            args: Some(command),
            ..Default::default()
        }
    } else if let Some(upload) = &task.upload {
        // As the API and the CRD's rules: a resource applied around them is checked again here.
        if !stays_inside(&upload.file) || !stays_inside(&upload.destination_path) {
            return Err(format!(
                "task {:?}: an upload's file and destination folder must stay inside the project and the dataset",
                task.name
            ));
        }
        let dest = destinations.get(&upload.dataset).ok_or_else(|| {
            format!(
                "task {:?}: the dataset {:?} does not exist or is not ready",
                task.name, upload.dataset
            )
        })?;
        let folder = upload.destination_path.trim_matches('/');
        let dest = if folder.is_empty() {
            dest.clone()
        } else {
            format!("{dest}{folder}/")
        };
        env.push(EnvVar {
            name: "LUDIS_TASK_FILE".into(),
            value: Some(upload.file.clone()),
            ..Default::default()
        });
        env.push(EnvVar {
            name: "LUDIS_DESTINATION".into(),
            value: Some(dest),
            ..Default::default()
        });
        let command = vec![
            "sh".into(),
            "-c".into(),
            "aws s3 cp \"/workspace/$LUDIS_TASK_FILE\" \"$LUDIS_DESTINATION\" ${AWS_ENDPOINT_URL:+--endpoint-url \"$AWS_ENDPOINT_URL\"}".into(),
        ];
        Container {
            image: Some(config.upload_image.clone()),
            args: Some(command),
            ..Default::default()
        }
    } else {
        return Err(format!("task {:?} is neither a script nor an upload", task.name));
    };
    Ok(result)
}

/// Pure: whether a relative path stays below where it starts: not absolute, no `..` segment, no
/// control character.
fn stays_inside(path: &str) -> bool {
    !path.starts_with('/') && !path.split('/').any(|s| s == "..") && !path.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{super::fixtures::*, *};

    /// The pod of the try `try_number` of the diamond's task `name` in the run `r1`, with the
    /// fixture's images and these upload destinations (None: the fixture's).
    fn pod_of(name: &str, try_number: i32, destinations: Option<&Destinations>) -> Result<Pod, String> {
        let wf = diamond();
        let o = observed(Some(wf.clone()));
        let valid = super::super::validate::validate(&run(&[]), &o).unwrap();
        let task = wf.spec.tasks.iter().find(|t| t.name == name).unwrap();
        let destinations = destinations.unwrap_or(&o.destinations);
        build_pod(
            &run(&[]),
            &valid,
            TaskWork::Designed(task),
            try_number,
            Resolvers {
                images: &o.images,
                sizes: &o.sizes,
                destinations,
            },
            &config(),
        )
    }

    fn config() -> Config {
        Config {
            storage_url: Some("http://10.146.0.1:8082".into()),
            ..Config::for_tests("ludis-system")
        }
    }

    fn env(pod: &Pod, name: &str) -> Option<String> {
        pod.spec.as_ref().unwrap().containers[0]
            .env
            .as_ref()
            .unwrap()
            .iter()
            .find(|e| e.name == name)
            .and_then(|e| e.value.clone())
    }

    #[test]
    fn a_task_takes_its_own_size_else_its_workflows() {
        let cpu = |pod: Pod| {
            let spec = pod.spec.unwrap();
            crate::sizes::assert_bounded(&spec);
            spec.containers[0].resources.clone().unwrap().requests.unwrap()["cpu"]
                .0
                .clone()
        };
        assert_eq!(cpu(pod_of("check", 1, None).unwrap()), "1500m");
        assert_eq!(cpu(pod_of("extract", 1, None).unwrap()), "500m");
        assert_eq!(cpu(pod_of("load", 1, None).unwrap()), "500m");
    }

    #[test]
    fn a_script_task_runs_its_file_with_an_allowed_image_in_a_restricted_pod() {
        let pod = pod_of("clean", 2, None).unwrap();
        assert_eq!(pod.metadata.name.as_deref(), Some("r1-clean-2"));
        let labels = pod.metadata.labels.as_ref().unwrap();
        assert_eq!(labels["ludis.dev/task"], "clean");
        assert_eq!(labels["ludis.dev/try"], "2");
        assert_eq!(labels["ludis.dev/workflow"], "nightly");
        assert_eq!(labels["ludis.dev/workflowrun"], "r1");
        assert_eq!(pod.metadata.owner_references.as_ref().unwrap()[0].uid, "run-uid");
        let spec = pod.spec.as_ref().unwrap();
        assert_eq!(spec.restart_policy.as_deref(), Some("Never"));
        assert_eq!(spec.automount_service_account_token, Some(false));
        let main = &spec.containers[0];
        assert_eq!(main.image.as_deref(), Some("python:3.12-slim"));
        // The install script runs first, then the file.
        let command = main.args.as_ref().unwrap();
        assert_eq!(
            command[..4],
            ["sh", "-c", "sh \"$LUDIS_INSTALL_SCRIPT\" && exec \"$@\"", "--"]
        );
        assert_eq!(command[4], "python");
        assert_eq!(env(&pod, "LUDIS_INSTALL_SCRIPT").as_deref(), Some("setup.sh"));
        assert_eq!(env(&pod, "LUDIS_TRY").as_deref(), Some("2"));
        // The project's repository is checked out into a workspace of the pod's own.
        assert_eq!(
            crate::controllers::pods::scratch_limit(&spec.volumes.as_ref().unwrap()[0]),
            Some(crate::controllers::pods::SCRATCH_LIMIT),
            "a bounded workspace"
        );
        let checkout = &spec.init_containers.as_ref().unwrap()[0];
        assert_eq!(checkout.name, "git-checkout");
        assert_eq!(main.working_dir.as_deref(), Some("/workspace"));
        // An R file runs with Rscript.
        let r = pod_of("check", 1, None).unwrap();
        assert_eq!(
            r.spec.unwrap().containers[0].image.as_deref(),
            Some("rocker/r-ver:4.4")
        );
    }

    #[test]
    fn an_upload_never_leaves_the_workspace_or_the_dataset() {
        for (file, folder) in [
            ("../secrets.csv", "daily"),
            ("/var/run/secrets/token.txt", ""),
            ("out/../../x.csv", ""),
            ("out/sales.csv", "../other-dataset"),
            ("out/sales.csv", "daily/../../x"),
            ("out/sales.csv", "/elsewhere"),
            ("out/sales.csv", "daily\n"),
        ] {
            let mut wf = diamond();
            let upload = wf
                .spec
                .tasks
                .iter_mut()
                .find(|t| t.name == "load")
                .and_then(|t| t.upload.as_mut())
                .unwrap();
            upload.file = file.into();
            upload.destination_path = folder.replace("\\n", "\n");
            let o = observed(Some(wf.clone()));
            let valid = super::super::validate::validate(&run(&[]), &o).unwrap();
            let task = wf.spec.tasks.iter().find(|t| t.name == "load").unwrap();
            let why = build_pod(
                &run(&[]),
                &valid,
                TaskWork::Designed(task),
                1,
                o.resolvers(),
                &config(),
            )
            .unwrap_err();
            assert_eq!(
                why,
                "task \"load\": an upload's file and destination folder must stay inside the project and the dataset",
                "{file} -> {folder}"
            );
        }
        // The control: names with dots are fine.
        assert!(stays_inside("out/sales..v2.csv") && stays_inside("daily/2026.11") && stays_inside(""));
    }

    #[test]
    fn an_upload_task_copies_its_file_into_the_dataset_folder() {
        let pod = pod_of("load", 1, None).unwrap();
        assert_eq!(
            env(&pod, "LUDIS_DESTINATION").as_deref(),
            Some("s3://acme/datasets/ludis-acme/42/daily/")
        );
        assert_eq!(env(&pod, "LUDIS_TASK_FILE").as_deref(), Some("out/sales.csv"));
        let spec = pod.spec.as_ref().unwrap();
        let main = &spec.containers[0];
        assert_eq!(main.image.as_deref(), Some(config().upload_image.as_str()));
        // It writes with the pod's identity, for its dataset only; no key, no Secret.
        assert_eq!(
            pod.metadata.annotations.as_ref().unwrap()[ludis_crds::ANNOTATION_DATASETS],
            "sales"
        );
        assert!(main.env_from.is_none());
        assert_eq!(
            env(&pod, "AWS_WEB_IDENTITY_TOKEN_FILE").as_deref(),
            Some("/var/run/secrets/ludis.dev/storage/token")
        );
        assert_eq!(
            env(&pod, "AWS_ENDPOINT_URL_STS").as_deref(),
            Some("http://10.146.0.1:8082")
        );
        let has_token = |c: &Container| {
            c.volume_mounts
                .iter()
                .flatten()
                .any(|m| m.name == "storage-identity")
        };
        assert!(has_token(main));
        assert!(!has_token(&spec.init_containers.as_ref().unwrap()[0]));
        let volumes = spec.volumes.as_ref().unwrap();
        assert!(volumes.iter().any(|v| v.name == "storage-identity"));
        assert!(volumes.iter().all(|v| v.secret.is_none()));
        // A script task references no dataset: no identity.
        let script = pod_of("extract", 1, None).unwrap();
        assert!(script.metadata.annotations.is_none());
        assert_eq!(env(&script, "AWS_WEB_IDENTITY_TOKEN_FILE"), None);
        assert!(
            script
                .spec
                .unwrap()
                .volumes
                .unwrap()
                .iter()
                .all(|v| v.name != "storage-identity")
        );
        // A dataset that is not ready: the task cannot run.
        let why = pod_of("load", 1, Some(&Destinations::new())).unwrap_err();
        assert_eq!(
            why,
            "task \"load\": the dataset \"sales\" does not exist or is not ready"
        );
    }

    #[test]
    fn a_dag_file_task_runs_ludis_run_at_the_revision_read_with_a_valid_label() {
        let mut wf = workflow(json!({"tasks": [], "dagFile": "flows/wf_dag.py"}));
        wf.status = Some(
            serde_json::from_value(json!({"dag": {
            "revision": "0123456789abcdef0123456789abcdef01234567", "dagId": "d",
            "tasks": [{"name": "Extract.EU_data", "operator": "BashOperator"}], "edges": []}}))
            .unwrap(),
        );
        let o = observed(Some(wf));
        let valid = super::super::validate::validate(&run(&[]), &o).unwrap();
        let pod = build_pod(
            &run(&[]),
            &valid,
            TaskWork::Coded("Extract.EU_data"),
            1,
            Resolvers {
                images: &o.images,
                sizes: &o.sizes,
                destinations: &o.destinations,
            },
            &config(),
        )
        .unwrap();
        let label = &pod.metadata.labels.as_ref().unwrap()["ludis.dev/task"];
        assert_eq!(label, &task_label("Extract.EU_data"));
        assert_eq!(pod.metadata.name, Some(format!("r1-{label}-1")));
        assert_eq!(env(&pod, "LUDIS_TASK").as_deref(), Some("Extract.EU_data"));
        assert_eq!(env(&pod, "PYTHONPATH").as_deref(), Some("/opt/ludis-python"));
        let spec = pod.spec.unwrap();
        let main = &spec.containers[0];
        // The project's image (the workflow names none).
        assert_eq!(main.image.as_deref(), Some("python:3.12-slim"));
        assert_eq!(
            main.args.as_ref().unwrap(),
            &["python", "-m", "ludis.run", "flows/wf_dag.py", "Extract.EU_data"]
        );
        let checkout = &spec.init_containers.unwrap()[0];
        let revision = checkout
            .env
            .as_ref()
            .unwrap()
            .iter()
            .find(|e| e.name == "REVISION");
        assert_eq!(
            revision.and_then(|e| e.value.as_deref()),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert_eq!(
            spec.volumes.unwrap()[1].config_map.as_ref().unwrap().name,
            "nightly-ludis-python"
        );
    }

    #[test]
    fn a_finished_pod_tells_its_outcome_and_how_long_it_ran() {
        let done: Pod = serde_json::from_value(json!({"status": {"phase": "Succeeded",
            "containerStatuses": [{"name": "task", "image": "x", "imageID": "", "ready": false,
                "restartCount": 0, "state": {"terminated": {"exitCode": 0,
                "startedAt": "2026-01-01T00:00:00Z", "finishedAt": "2026-01-01T00:00:02Z"}}}]}}))
        .unwrap();
        assert_eq!(outcome(&done), Some((PodOutcome::Succeeded, Some(2.0))));
        assert_eq!(outcome(&pod("x", "Failed")), Some((PodOutcome::Failed, None)));
        assert_eq!(outcome(&pod("x", "Pending")), Some((PodOutcome::Running, None)));
        assert_eq!(outcome(&Pod::default()), None);
    }
}
