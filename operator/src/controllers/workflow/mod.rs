//! Workflow → a CronJob carrying the schedule (suspended while paused or unscheduled). Every Job
//! of that CronJob — a tick of the schedule, or a manual run made from its template, as
//! `kubectl create job --from=cronjob/<name>` does — becomes a WorkflowRun.

pub mod dag;
pub mod run;

use std::{collections::BTreeMap, sync::Arc};

use futures::Stream;
use k8s_openapi::api::{
    batch::v1::{CronJob, CronJobSpec, Job, JobSpec, JobTemplateSpec},
    core::v1::{Container, PodSpec, PodTemplateSpec},
};
use kube::{
    Api, Resource as _, ResourceExt as _,
    api::{ListParams, ObjectMeta, PostParams},
    core::DeserializeGuard,
    runtime::{Controller, controller::Action, reflector::ObjectRef, watcher},
};
use ludis_crds::{
    Project, Workflow, WorkflowRun, WorkflowStatus,
    workflow::{RunPhase, Trigger, WorkflowState},
};

use super::{RESYNC, Verdict, pods};
use crate::{
    context::{Config, Context, ImageCatalog},
    error::{self, Error, Result},
    k8s::{
        apply::{apply, owner_ref, patch_status},
        labels::child_labels,
    },
};

const CONTROLLER: &str = "workflow";
/// Label of the Jobs (ticks and manual runs) of a workflow's CronJob.
pub const WORKFLOW_LABEL: &str = "ludis.dev/workflow";
/// A schedule that never fires (30 February), for unscheduled workflows' CronJobs.
const NEVER: &str = "0 0 30 2 *";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let managed = watcher::Config::default().labels("app.kubernetes.io/managed-by=ludis-operator");
    super::drive(
        Controller::new(
            Api::<DeserializeGuard<Workflow>>::all(client.clone()),
            watcher::Config::default().any_semantic(),
        )
        .owns(Api::<CronJob>::all(client.clone()), managed)
        .owns(
            Api::<WorkflowRun>::all(client.clone()),
            watcher::Config::default(),
        )
        // Jobs are owned by the CronJob, not the workflow: map them back by label.
        .watches(
            Api::<Job>::all(client.clone()),
            watcher::Config::default().labels(WORKFLOW_LABEL),
            |job| {
                let name = job.labels().get(WORKFLOW_LABEL)?.clone();
                Some(ObjectRef::<DeserializeGuard<Workflow>>::new(&name).within(&job.namespace()?))
            },
        )
        // A workflow broken by an image outside the list is looked at again when the list changes.
        .reconcile_all_on(ctx.image_watch.changes()),
        CONTROLLER,
        reconcile,
        ctx,
        shutdown,
    )
}

/// Pure: why a workflow cannot run, if it cannot.
pub fn validate(
    wf: &Workflow,
    project_exists: bool,
    images: &ImageCatalog,
) -> std::result::Result<dag::Dag, String> {
    if !project_exists {
        return Err(format!("the project {:?} does not exist", wf.spec.project));
    }
    for t in &wf.spec.tasks {
        if let Some(s) = &t.script
            && images.resolve(&s.image).is_none()
        {
            return Err(format!(
                "task {:?}: image {:?} is not in the administrator's image list",
                t.name, s.image
            ));
        }
    }
    dag::Dag::new(&wf.spec.tasks, &wf.spec.edges)
}

/// Pure: the CronJob of a workflow. Its Jobs only mark a tick; the tasks run as the WorkflowRun's
/// pods.
pub fn build_cronjob(wf: &Workflow, config: &Config) -> CronJob {
    let name = wf.name_any();
    let mut labels = child_labels("workflow", &name, "schedule");
    labels.insert(WORKFLOW_LABEL.to_owned(), name.clone());
    let tick = PodSpec {
        containers: vec![Container {
            name: "tick".into(),
            image: Some(config.tick_image.clone()),
            args: Some(vec!["true".into()]),
            security_context: Some(pods::container_security_context()),
            ..Default::default()
        }],
        restart_policy: Some("Never".into()),
        ..pods::restricted(config)
    };
    CronJob {
        metadata: ObjectMeta {
            name: Some(name.clone()),
            namespace: wf.namespace(),
            labels: Some(labels.clone()),
            owner_references: Some(vec![owner_ref(wf)]),
            ..Default::default()
        },
        spec: Some(CronJobSpec {
            schedule: wf.spec.schedule.clone().unwrap_or_else(|| NEVER.into()),
            time_zone: Some("Etc/UTC".into()),
            suspend: Some(wf.spec.paused || wf.spec.schedule.is_none()),
            concurrency_policy: Some("Allow".into()),
            successful_jobs_history_limit: Some(3),
            failed_jobs_history_limit: Some(3),
            job_template: JobTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(labels.clone()),
                    ..Default::default()
                }),
                spec: Some(JobSpec {
                    backoff_limit: Some(0),
                    ttl_seconds_after_finished: Some(3600),
                    template: PodTemplateSpec {
                        metadata: Some(ObjectMeta {
                            labels: Some(labels),
                            ..Default::default()
                        }),
                        spec: Some(tick),
                    },
                    ..Default::default()
                }),
            },
            ..Default::default()
        }),
        status: None,
    }
}

/// Pure: the trigger of a tick Job (a manual run carries kubectl's instantiate annotation).
pub fn trigger_of(job: &Job) -> Trigger {
    match job
        .annotations()
        .get("cronjob.kubernetes.io/instantiate")
        .map(String::as_str)
    {
        Some("manual") => Trigger::Manual,
        _ => Trigger::Schedule,
    }
}

async fn reconcile(wf: Arc<Workflow>, ctx: Arc<Context>) -> Result<Action> {
    let ns = wf.namespace().unwrap_or_default();
    let name = wf.name_any();
    let project_exists = Api::<Project>::namespaced(ctx.client.clone(), &ns)
        .get_metadata_opt(&wf.spec.project)
        .await
        .map_err(error::observe("project"))?
        .is_some();
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let runs_api: Api<WorkflowRun> = Api::namespaced(ctx.client.clone(), &ns);

    let (state, import_error, verdict, cron_job) = match validate(&wf, project_exists, &images) {
        Err(why) => (
            WorkflowState::Broken,
            Some(why.clone()),
            Verdict::degraded("WorkflowBroken", why),
            None,
        ),
        Ok(_) => {
            let cj = build_cronjob(&wf, &ctx.config);
            apply(&ctx.client, &ns, &cj)
                .await
                .map_err(error::apply("cronjob", &name))?;
            // Every Job of the CronJob becomes a WorkflowRun of the same name (once).
            let jobs = Api::<Job>::namespaced(ctx.client.clone(), &ns)
                .list(&ListParams::default().labels(&format!("{WORKFLOW_LABEL}={name}")))
                .await
                .map_err(error::observe("tick jobs"))?;
            for job in jobs
                .items
                .iter()
                .filter(|j| j.metadata.deletion_timestamp.is_none())
            {
                let run_name = job.name_any();
                if runs_api
                    .get_metadata_opt(&run_name)
                    .await
                    .map_err(error::observe("workflow run"))?
                    .is_some()
                {
                    continue;
                }
                let run = new_run(&wf, &run_name, trigger_of(job), Some(run_name.clone()));
                match runs_api.create(&PostParams::default(), &run).await {
                    Ok(_) => {}
                    Err(kube::Error::Api(e)) if e.code == 409 => {}
                    Err(source) => {
                        return Err(Error::Create {
                            what: "workflow run",
                            source,
                        });
                    }
                }
            }
            let verdict = if wf.spec.paused {
                Verdict::ready("Paused", "scheduled runs are paused; manual runs work")
            } else {
                Verdict::ready(
                    "Scheduled",
                    format!("schedule {}", wf.spec.schedule.as_deref().unwrap_or("None")),
                )
            };
            (WorkflowState::Ready, None, verdict, Some(name.clone()))
        }
    };

    // The latest run, for the list view.
    let runs = runs_api
        .list(&ListParams::default().labels(&format!("{WORKFLOW_LABEL}={name}")))
        .await
        .map_err(error::observe("workflow runs"))?;
    let last = runs
        .items
        .iter()
        .max_by_key(|r| r.metadata.creation_timestamp.clone().map(|t| t.0));
    let last_run_duration = last.and_then(|r| {
        let s = r.status.as_ref()?;
        matches!(s.phase, Some(RunPhase::Succeeded | RunPhase::Failed)).then_some(())?;
        let secs = s.completion_time.as_ref()?.0.as_second() - s.start_time.as_ref()?.0.as_second();
        Some(secs as f64)
    });
    let status = WorkflowStatus {
        observed_generation: wf.metadata.generation,
        state: Some(state),
        import_error,
        cron_job,
        last_run: last.map(|r| r.name_any()),
        last_run_time: last.and_then(|r| r.status.as_ref()?.start_time.clone()),
        last_run_duration,
        conditions: verdict.conditions(
            &wf.status
                .as_ref()
                .map(|s| s.conditions.clone())
                .unwrap_or_default(),
            wf.metadata.generation,
        ),
    };
    if wf.status.as_ref() != Some(&status) {
        patch_status(&ctx.client, wf.as_ref(), &status)
            .await
            .map_err(Error::PatchStatus)?;
    }
    Ok(if verdict.degraded {
        Action::await_change()
    } else {
        Action::requeue(RESYNC)
    })
}

/// A WorkflowRun of `wf`, owned by it.
pub fn new_run(wf: &Workflow, name: &str, trigger: Trigger, job: Option<String>) -> WorkflowRun {
    let mut run = WorkflowRun::new(
        name,
        ludis_crds::WorkflowRunSpec {
            workflow: wf.name_any(),
            trigger,
            job,
            requests: vec![],
        },
    );
    run.metadata.namespace = wf.namespace();
    run.metadata.labels = Some(BTreeMap::from([(WORKFLOW_LABEL.to_owned(), wf.name_any())]));
    run.metadata.owner_references = Some(vec![wf.controller_owner_ref(&()).expect("a stored workflow")]);
    run
}

#[cfg(test)]
mod tests {
    use ludis_crds::WorkflowSpec;
    use serde_json::json;

    use super::*;

    fn wf(extra: serde_json::Value) -> Workflow {
        let mut spec = json!({"displayName": "N", "project": "demo",
            "tasks": [{"name": "a", "script": {"file": "a.py", "image": "py"}}]});
        spec.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let mut w = Workflow::new("nightly", serde_json::from_value::<WorkflowSpec>(spec).unwrap());
        w.metadata.namespace = Some("ludis-acme".into());
        w.metadata.uid = Some("u".into());
        w
    }

    #[test]
    fn the_cronjob_carries_the_schedule_in_utc_and_pauses() {
        let config = Config::for_tests("ludis-system");
        let cj = build_cronjob(&wf(json!({"schedule": "0 3 * * *"})), &config)
            .spec
            .unwrap();
        assert_eq!((cj.schedule.as_str(), cj.suspend), ("0 3 * * *", Some(false)));
        assert_eq!(cj.time_zone.as_deref(), Some("Etc/UTC"));
        let labels = cj.job_template.metadata.unwrap().labels.unwrap();
        assert_eq!(labels[WORKFLOW_LABEL], "nightly");
        let paused = build_cronjob(&wf(json!({"schedule": "0 3 * * *", "paused": true})), &config)
            .spec
            .unwrap();
        assert_eq!(paused.suspend, Some(true));
        let unscheduled = build_cronjob(&wf(json!({})), &config).spec.unwrap();
        assert_eq!(
            (unscheduled.schedule.as_str(), unscheduled.suspend),
            (NEVER, Some(true))
        );
    }

    #[test]
    fn broken_workflows_say_why() {
        let images = ImageCatalog(BTreeMap::from([("py".into(), "python:3".into())]));
        assert!(validate(&wf(json!({})), true, &images).is_ok());
        assert!(
            validate(&wf(json!({})), false, &images)
                .unwrap_err()
                .contains("project \"demo\" does not exist")
        );
        let bad_image = wf(json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "zz"}}]}));
        assert!(
            validate(&bad_image, true, &images)
                .unwrap_err()
                .contains("image \"zz\"")
        );
        let cycle = wf(
            json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "py"}},
            {"name": "b", "script": {"file": "b.py", "image": "py"}}],
            "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]}),
        );
        assert_eq!(
            validate(&cycle, true, &images).unwrap_err(),
            "the tasks form a cycle through a, b"
        );
    }

    #[test]
    fn manual_jobs_are_manual_runs() {
        let manual: Job = serde_json::from_value(json!({"metadata": {"annotations":
            {"cronjob.kubernetes.io/instantiate": "manual"}}}))
        .unwrap();
        assert_eq!(trigger_of(&manual), Trigger::Manual);
        assert_eq!(trigger_of(&Job::default()), Trigger::Schedule);
    }
}
