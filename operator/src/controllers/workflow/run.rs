//! WorkflowRun → one Pod per task in DAG order (independent tasks in parallel); pod outcomes,
//! mark and clear requests drive the task states (see `dag::step`); when the run ends, an e-mail
//! goes to the workflow's notification list.

use std::{collections::BTreeMap, sync::Arc};

use futures::Stream;
use k8s_openapi::{
    api::core::v1::{Container, EnvFromSource, EnvVar, Pod, PodSpec, SecretEnvSource, VolumeMount},
    apimachinery::pkg::apis::meta::v1::Time,
    jiff::Timestamp,
};
use kube::{
    Api, ResourceExt as _,
    api::{DeleteParams, ListParams, ObjectMeta, PostParams},
    core::DeserializeGuard,
    runtime::{Controller, controller::Action, events::EventType, watcher},
};
use ludis_crds::{
    Dataset, Workflow, WorkflowRun, WorkflowRunStatus,
    common::Language,
    workflow::{NotifyOn, RunPhase, TaskState, WorkflowTask},
};

use super::dag::{self, Dag, PodOutcome};
use crate::{
    context::{Config, Context, ImageCatalog},
    controllers::{RESYNC, Verdict, pods},
    error::{self, Error, Result},
    k8s::{
        apply::{owner_ref, patch_status},
        labels::{child_labels, children_selector},
    },
    notify,
};

const CONTROLLER: &str = "workflowrun";
/// Label of a task pod naming its task.
pub const TASK_LABEL: &str = "ludis.dev/task";
pub use super::super::pods::STORAGE_SECRET;

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    crate::controllers::drive(
        Controller::new(
            Api::<DeserializeGuard<WorkflowRun>>::all(client.clone()),
            watcher::Config::default().any_semantic(),
        )
        .owns(
            Api::<Pod>::all(client.clone()),
            watcher::Config::default().labels(TASK_LABEL),
        ),
        CONTROLLER,
        reconcile,
        ctx,
        shutdown,
    )
}

/// Where upload tasks put their files: dataset name → `s3://bucket/prefix`.
type Destinations = BTreeMap<String, String>;

async fn reconcile(run: Arc<WorkflowRun>, ctx: Arc<Context>) -> Result<Action> {
    let ns = run.namespace().unwrap_or_default();
    let name = run.name_any();
    let wf = Api::<Workflow>::namespaced(ctx.client.clone(), &ns)
        .get_opt(&run.spec.workflow)
        .await
        .map_err(error::observe("workflow"))?;
    let Some(wf) = wf else {
        let why = format!("the workflow {:?} does not exist", run.spec.workflow);
        return degrade(&ctx, &run, "WorkflowNotFound", why).await;
    };
    let dag = match Dag::new(&wf.spec.tasks, &wf.spec.edges) {
        Ok(dag) => dag,
        Err(why) => return degrade(&ctx, &run, "WorkflowBroken", why).await,
    };
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let destinations = observe_destinations(&ctx, &ns, &wf).await?;
    let pods_api: Api<Pod> = Api::namespaced(ctx.client.clone(), &ns);
    let pods = pods_api
        .list(&ListParams::default().labels(&children_selector("workflowrun", &name)))
        .await
        .map_err(error::observe("task pods"))?
        .items;
    let outcomes: BTreeMap<String, (PodOutcome, Option<f64>)> = pods
        .iter()
        .filter_map(|p| Some((p.name_any(), outcome(p)?)))
        .collect();

    let old = run.status.clone().unwrap_or_default();
    let mut tasks = old.tasks.clone();
    let (step, phase) = dag::step(
        &name,
        &dag,
        &mut tasks,
        &run.spec.requests,
        &old.applied_requests,
        &outcomes,
    );

    // Start the tasks the step released.
    let now = Time(Timestamp::now());
    for (task_name, try_number) in &step.start {
        let task = wf
            .spec
            .tasks
            .iter()
            .find(|t| &t.name == task_name)
            .expect("a task of the DAG");
        let pod = match build_pod(&run, &wf, task, *try_number, &images, &destinations, &ctx.config) {
            Ok(pod) => pod,
            Err(why) => return degrade(&ctx, &run, "TaskInvalid", why).await,
        };
        match pods_api.create(&PostParams::default(), &pod).await {
            Ok(_) => {}
            Err(kube::Error::Api(e)) if e.code == 409 => {}
            Err(source) => {
                return Err(Error::Create {
                    what: "task pod",
                    source,
                });
            }
        }
        if let Some(t) = tasks.iter_mut().find(|t| &t.name == task_name) {
            t.start_time = Some(now.clone());
        }
    }
    // Pods of tasks that no longer run (marked success or failed) are stopped.
    for p in &pods {
        let current = tasks
            .iter()
            .any(|t| t.state == TaskState::Running && t.pod.as_deref() == Some(&p.name_any()));
        if !current
            && outcome(p).map(|o| o.0) == Some(PodOutcome::Running)
            && p.metadata.deletion_timestamp.is_none()
        {
            let _ = pods_api.delete(&p.name_any(), &DeleteParams::background()).await;
        }
    }

    let mut applied = old.applied_requests.clone();
    applied.extend(step.applied);
    let done = matches!(phase, RunPhase::Succeeded | RunPhase::Failed);
    let start_time = old.start_time.clone().or_else(|| {
        tasks
            .iter()
            .filter_map(|t| t.start_time.clone())
            .min_by_key(|t| t.0)
    });
    let completion_time = if done {
        old.completion_time
            .clone()
            .filter(|_| old.phase == Some(phase))
            .or(Some(now))
    } else {
        None
    };
    let notified = if done { old.notified } else { None };
    let verdict = match phase {
        RunPhase::Succeeded => Verdict::ready("Succeeded", "every task succeeded"),
        RunPhase::Failed => {
            let failed: Vec<_> = tasks
                .iter()
                .filter(|t| t.state == TaskState::Failed)
                .map(|t| t.name.as_str())
                .collect();
            Verdict::ready("Failed", format!("failed tasks: {}", failed.join(", ")))
        }
        _ => Verdict::progressing("Running", "tasks are running"),
    };
    let status = WorkflowRunStatus {
        observed_generation: run.metadata.generation,
        phase: Some(phase),
        start_time,
        completion_time,
        tasks,
        applied_requests: applied,
        notified,
        conditions: verdict.conditions(&old.conditions, run.metadata.generation),
    };
    if run.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, run.as_ref(), &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    // The status is written first, so a failing mail server delays only the e-mail (retried
    // with backoff), never the run's state.
    if done && notified != Some(true) && send_notification(&ctx, &run, &wf, phase, &status.tasks).await? {
        let status = WorkflowRunStatus {
            notified: Some(true),
            ..status
        };
        patch_status(&ctx.client, run.as_ref(), &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(Action::requeue(if done {
        RESYNC
    } else {
        std::time::Duration::from_secs(30)
    }))
}

async fn degrade(ctx: &Context, run: &WorkflowRun, reason: &str, why: String) -> Result<Action> {
    let old = run.status.clone().unwrap_or_default();
    let status = WorkflowRunStatus {
        observed_generation: run.metadata.generation,
        phase: Some(RunPhase::Failed),
        conditions: Verdict::degraded(reason, why).conditions(&old.conditions, run.metadata.generation),
        ..old
    };
    if run.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, run, &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(Action::await_change())
}

async fn observe_destinations(ctx: &Context, ns: &str, wf: &Workflow) -> Result<Destinations> {
    let api: Api<Dataset> = Api::namespaced(ctx.client.clone(), ns);
    let mut out = Destinations::new();
    for t in &wf.spec.tasks {
        if let Some(u) = &t.upload
            && !out.contains_key(&u.dataset)
            && let Some(ds) = api.get_opt(&u.dataset).await.map_err(error::observe("dataset"))?
            && let Some(s) = ds.status
            && let (Some(bucket), Some(prefix)) = (s.bucket, s.prefix)
        {
            out.insert(u.dataset.clone(), format!("s3://{bucket}/{prefix}"));
        }
    }
    Ok(out)
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

/// Pure: the pod of one try of a task.
pub fn build_pod(
    run: &WorkflowRun,
    wf: &Workflow,
    task: &WorkflowTask,
    try_number: i32,
    images: &ImageCatalog,
    destinations: &Destinations,
    config: &Config,
) -> std::result::Result<Pod, String> {
    let run_name = run.name_any();
    let mut labels = child_labels("workflowrun", &run_name, "task");
    labels.insert(TASK_LABEL.to_owned(), task.name.clone());
    labels.insert("ludis.dev/try".to_owned(), try_number.to_string());
    labels.insert(super::WORKFLOW_LABEL.to_owned(), wf.name_any());
    let mut env = vec![
        EnvVar {
            name: "LUDIS_RUN".into(),
            value: Some(run_name.clone()),
            ..Default::default()
        },
        EnvVar {
            name: "LUDIS_TASK".into(),
            value: Some(task.name.clone()),
            ..Default::default()
        },
        EnvVar {
            name: "LUDIS_TRY".into(),
            value: Some(try_number.to_string()),
            ..Default::default()
        },
    ];
    let (image, command, env_from) = if let Some(script) = &task.script {
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
        (image.to_owned(), command, None)
    } else if let Some(upload) = &task.upload {
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
        let from = vec![EnvFromSource {
            secret_ref: Some(SecretEnvSource {
                name: STORAGE_SECRET.into(),
                optional: Some(true),
            }),
            ..Default::default()
        }];
        (config.upload_image.clone(), command, Some(from))
    } else {
        return Err(format!("task {:?} is neither a script nor an upload", task.name));
    };
    Ok(Pod {
        metadata: ObjectMeta {
            name: Some(dag::pod_name(&run_name, &task.name, try_number)),
            namespace: run.namespace(),
            labels: Some(labels),
            owner_references: Some(vec![owner_ref(run)]),
            ..Default::default()
        },
        spec: Some(PodSpec {
            containers: vec![Container {
                name: "task".into(),
                image: Some(image),
                args: Some(command),
                working_dir: Some("/workspace".into()),
                env: Some(env),
                env_from,
                resources: Some(pods::resources(&Default::default(), "500m", "1Gi")),
                security_context: Some(pods::container_security_context()),
                volume_mounts: Some(vec![VolumeMount {
                    name: "workspace".into(),
                    mount_path: "/workspace".into(),
                    ..Default::default()
                }]),
                ..Default::default()
            }],
            restart_policy: Some("Never".into()),
            volumes: Some(vec![pods::pvc_volume(
                "workspace",
                format!("{}-workspace", wf.spec.project),
                false,
            )]),
            ..pods::restricted(config)
        }),
        status: None,
    })
}

/// Sends the end-of-run e-mail when the workflow asks for one; returns whether the run counts as
/// notified (true also when no e-mail was due).
async fn send_notification(
    ctx: &Context,
    run: &WorkflowRun,
    wf: &Workflow,
    phase: RunPhase,
    tasks: &[ludis_crds::workflow::TaskStatus],
) -> Result<bool> {
    let Some(n) = wf.spec.notification.as_ref().filter(|n| n.enabled) else {
        return Ok(true);
    };
    let due = match n.on {
        NotifyOn::Both => true,
        NotifyOn::Success => phase == RunPhase::Succeeded,
        NotifyOn::Failure => phase == RunPhase::Failed,
    };
    if !due {
        return Ok(true);
    }
    let Some(smtp) = ctx.config.smtp.as_ref() else {
        ctx.event(
            &kube::Resource::object_ref(run, &()),
            EventType::Warning,
            "NotificationNotSent",
            "Notify",
            "no SMTP server is configured".into(),
        )
        .await;
        return Ok(true);
    };
    let outcome = if phase == RunPhase::Succeeded {
        "succeeded"
    } else {
        "failed"
    };
    let subject = format!(
        "Workflow {} {outcome} (run {})",
        wf.spec.display_name,
        run.name_any()
    );
    let mut body = format!(
        "The run {} of the workflow {} {outcome}.\n\nTasks:\n",
        run.name_any(),
        wf.spec.display_name
    );
    for t in tasks {
        body.push_str(&format!(
            "  {:<24} {:?} (try {})\n",
            t.name, t.state, t.try_number
        ));
    }
    notify::send(smtp, &n.emails, &subject, &body)
        .await
        .map_err(Error::Notify)?;
    ctx.event(
        &kube::Resource::object_ref(run, &()),
        EventType::Normal,
        "NotificationSent",
        "Notify",
        format!("e-mailed {}", n.emails.join(", ")),
    )
    .await;
    Ok(true)
}
