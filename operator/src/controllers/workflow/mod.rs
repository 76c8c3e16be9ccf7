//! Workflow → a CronJob carrying the schedule (suspended while paused or unscheduled). Every Job
//! of that CronJob — a tick of the schedule, or a manual run made from its template, as
//! `kubectl create job --from=cronjob/<name>` does — becomes a WorkflowRun.
//!
//! A reconcile is a pipeline: [`observe`] → [`validate`] (pure) → [`build_cronjob`] and
//! [`new_runs`] (pure) → [`apply`] → [`status_of`] (pure) and its write. The runs themselves are
//! reconciled by [`run`].

pub mod dag;
pub mod dag_file;
#[cfg(test)]
mod fixtures;
pub mod run;

use std::{collections::BTreeMap, sync::Arc};

use futures::Stream;
use k8s_openapi::api::{
    batch::v1::{CronJob, CronJobSpec, Job, JobSpec, JobTemplateSpec},
    core::v1::{ConfigMap, Container, Pod, PodSpec, PodTemplateSpec},
};
use kube::{
    Api, ResourceExt as _,
    api::ObjectMeta,
    core::{DeserializeGuard, PartialObjectMeta},
    runtime::{
        Controller, PredicateConfig, WatchStreamExt as _,
        controller::Action,
        reflector::{ObjectRef, Store},
        watcher,
    },
};
use ludis_crds::{
    LABEL_WORKFLOW, Project, Workflow, WorkflowRun, WorkflowRunStatus, WorkflowStatus,
    sizes::WorkloadKind,
    workflow::{RunPhase, Trigger, WorkflowState},
};

use self::{
    dag_file::DagFileState,
    run::task_pod::{TaskWork, task_size},
};
use super::pods;
use crate::{
    context::{Config, Context},
    error::{self, Error, Result},
    events,
    images::ImageCatalog,
    k8s::{
        apply::{owner_ref, update_status},
        children::RESYNC,
        labels::{child_labels, kind_selector},
        stores::{cached_or_get, metadata, owned_by, primaries},
    },
    metrics::arrivals::Arrivals,
    sizes::{Helper, SizeCatalog},
    verdict::{Reason, Verdict},
};

const CONTROLLER: &str = "workflow";
/// A schedule that never fires (30 February), for unscheduled workflows' CronJobs.
const NEVER: &str = "0 0 30 2 *";
/// Annotation kubectl puts on a Job made from a CronJob's template (`manual`).
const ANNOTATION_INSTANTIATE: &str = "cronjob.kubernetes.io/instantiate";

pub fn controller(
    ctx: Arc<Context>,
    shutdown: impl std::future::Future<Output = ()> + Send + Sync + 'static,
) -> impl Stream<Item = ()> {
    let client = ctx.client.clone();
    let caches = &ctx.caches;
    let ours = |component: Option<&str>| {
        watcher::Config::default().labels(&kind_selector(LABEL_WORKFLOW, component))
    };
    let arrivals = Arc::new(Arrivals::default());
    let (workflows, trigger) = primaries(Api::<DeserializeGuard<Workflow>>::all(client.clone()));
    let controller = Controller::for_stream(arrivals.objects(trigger), workflows)
        .owns_stream(
            arrivals.owners(
                caches
                    .cron_jobs
                    .full(Api::<PartialObjectMeta<CronJob>>::all(client.clone()), ours(None)),
            ),
        )
        // A workflow shows its latest run: it is looked at again when a run appears or its phase
        // or times change (not at every task's step). Runs made by hand have no owner reference;
        // they are mapped by the workflow they name.
        .watches_stream(
            caches
                .run_summaries
                .trimmed(
                    Api::<WorkflowRun>::all(client.clone()),
                    watcher::Config::default(),
                    summary,
                )
                .predicate_filter(run_summary_hash, PredicateConfig::default()),
            |run| Some(ObjectRef::new(&run.spec.workflow).within(&run.namespace()?)),
        )
        // The pods that read DAG files.
        .owns_stream(arrivals.owners(caches.parse_pods.trimmed(
            Api::<Pod>::all(client.clone()),
            ours(Some(dag_file::parse_pod::COMPONENT)),
            |p| p.spec = None,
        )))
        // The package its task pods mount: made again at once when deleted by hand.
        .owns_stream(arrivals.owners(caches.packages.full(
            Api::<PartialObjectMeta<ConfigMap>>::all(client.clone()),
            ours(Some(dag_file::package::COMPONENT)),
        )))
        // Jobs are owned by the CronJob, not the workflow: map them back by label.
        .watches_stream(
            caches.tick_jobs.full(
                Api::<PartialObjectMeta<Job>>::all(client.clone()),
                watcher::Config::default().labels(LABEL_WORKFLOW),
            ),
            |job| {
                let name = job.labels().get(LABEL_WORKFLOW)?.clone();
                Some(ObjectRef::new(&name).within(&job.namespace()?))
            },
        )
        // A workflow broken by an image outside the list is looked at again when the list changes.
        .reconcile_all_on(ctx.list_changes());
    caches.workflows.set(controller.store());
    super::drive(controller, arrivals, CONTROLLER, reconcile, ctx, shutdown)
}

/// What the workflow controller keeps of a run: the workflow it belongs to, its phase and times.
fn summary(run: &mut WorkflowRun) {
    run.spec.requests = Vec::new();
    if let Some(status) = run.status.as_mut() {
        *status = WorkflowRunStatus {
            phase: status.phase,
            start_time: status.start_time.take(),
            completion_time: status.completion_time.take(),
            ..Default::default()
        };
    }
}

/// What of a run the workflow's status shows (its latest run's name, start and duration).
fn run_summary_hash(run: &WorkflowRun) -> Option<u64> {
    let status = run.status.as_ref();
    let key = (
        status.and_then(|s| s.phase).map(|p| p as u8),
        status
            .and_then(|s| s.start_time.as_ref())
            .map(|t| t.0.as_millisecond()),
        status
            .and_then(|s| s.completion_time.as_ref())
            .map(|t| t.0.as_millisecond()),
    );
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&key, &mut hasher);
    Some(std::hash::Hasher::finish(&hasher))
}

async fn reconcile(wf: Arc<Workflow>, ctx: Arc<Context>) -> Result<Action> {
    let wf = ctx.caches.workflow_statuses.current(wf);
    let observed = observe(&wf, &ctx).await?;
    let mut valid =
        validate(&wf, observed.project.as_ref(), &observed.images, &observed.sizes).map(|_dag| ());
    // A workflow written as code is ready once its DAG file is read.
    let mut dag_state = None;
    if let (Ok(()), Some(dag_file), Some(project)) = (&valid, &wf.spec.dag_file, observed.project.as_ref()) {
        let image = dag_file_image(&wf, project, &observed.images).expect("validated");
        let state = dag_file::reconcile(&ctx, &wf, dag_file, project, &image, &observed.parse_pods).await?;
        if let DagFileState::Broken(_, why) = &state {
            valid = Err(why.clone());
        }
        dag_state = Some(state);
    }
    let reading = dag_state == Some(DagFileState::Reading);
    if valid.is_ok() && !reading {
        let cron_job = build_cronjob(&wf, &ctx.config);
        let runs = new_runs(&wf, &observed.jobs);
        apply(&ctx, &wf, &cron_job, &runs, &observed).await?;
    }
    let (status, verdict) = status_of(
        &wf,
        valid.as_ref().map(|_| ()).map_err(String::as_str),
        dag_state.as_ref(),
        &observed.runs,
    );
    if let Some(written) = update_status(&ctx.client, wf.as_ref(), wf.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?
    {
        ctx.caches.workflow_statuses.wrote(&written);
    }
    events::announce(&ctx, wf.as_ref(), &verdict).await;
    Ok(if reading {
        // The parse pod's end triggers the next look; this is a safety net.
        Action::requeue(std::time::Duration::from_secs(30))
    } else if valid.is_err() {
        Action::await_change()
    } else {
        Action::requeue(RESYNC)
    })
}

/// What a workflow's reconcile reads, from caches (a project missing from its cache is looked
/// up).
pub struct Observed {
    /// The workflow's project (None: it does not exist).
    pub project: Option<Project>,
    pub images: ImageCatalog,
    pub sizes: SizeCatalog,
    /// The workflow's CronJob, as cached.
    pub cron_jobs: Vec<ObjectMeta>,
    /// The Jobs of its CronJob (ticks and manual runs), without the ones being deleted.
    pub jobs: Vec<ObjectMeta>,
    /// Its runs (phase and times only).
    pub runs: Vec<Arc<WorkflowRun>>,
    /// The pods reading its DAG file (without their spec).
    pub parse_pods: Vec<Pod>,
    /// The ConfigMap of the `ludis` package (a workflow written as code).
    pub packages: Vec<ObjectMeta>,
}

async fn observe(wf: &Workflow, ctx: &Context) -> Result<Observed> {
    let ns = wf.namespace().unwrap_or_default();
    let name = wf.name_any();
    let caches = &ctx.caches;
    let project = cached_or_get(&caches.projects, &ctx.client, &ns, &wf.spec.project)
        .await
        .map_err(error::observe("project"))?;
    let images = ctx.images().await.map_err(Error::ReadImages)?;
    let sizes = ctx.sizes().await.map_err(error::observe("size list"))?;
    let uid = wf.uid().unwrap_or_default();
    let cron_jobs = metadata(&owned_by(caches.cron_jobs.ready("cronjob").await?, &ns, &uid));
    let jobs = caches
        .tick_jobs
        .ready("tick job")
        .await?
        .state_filter(|j| {
            j.metadata.namespace.as_deref() == Some(ns.as_str())
                && j.labels().get(LABEL_WORKFLOW) == Some(&name)
                && j.metadata.deletion_timestamp.is_none()
        })
        .iter()
        .map(|j| j.metadata.clone())
        .collect();
    let runs = runs_of(caches.run_summaries.ready("workflow run").await?, &ns, &name);
    let parse_pods = if wf.spec.dag_file.is_some() {
        owned_by(caches.parse_pods.ready("parse pod").await?, &ns, &uid)
            .iter()
            .map(|p| Pod::clone(p))
            .collect()
    } else {
        Vec::new()
    };
    let packages = metadata(&owned_by(
        caches.packages.ready("python package").await?,
        &ns,
        &uid,
    ));
    Ok(Observed {
        project,
        images,
        sizes,
        cron_jobs,
        jobs,
        runs,
        parse_pods,
        packages,
    })
}

/// The runs of workflow `name` in namespace `ns`.
fn runs_of(store: &Store<WorkflowRun>, ns: &str, name: &str) -> Vec<Arc<WorkflowRun>> {
    store.state_filter(|r| r.metadata.namespace.as_deref() == Some(ns) && r.spec.workflow == name)
}

/// Pure: why a workflow cannot run, if it cannot.
pub fn validate(
    wf: &Workflow,
    project: Option<&Project>,
    images: &ImageCatalog,
    sizes: &SizeCatalog,
) -> Result<dag::Dag, String> {
    let Some(project) = project else {
        return Err(format!("the project {:?} does not exist", wf.spec.project));
    };
    if wf.spec.dag_file.is_some() {
        dag_file_image(wf, project, images)?;
    }
    sizes
        .resolve(wf.spec.size.as_deref(), WorkloadKind::Task)
        .map_err(|e| e.to_string())?;
    for t in &wf.spec.tasks {
        if let Some(s) = &t.script
            && images.resolve(&s.image).is_none()
        {
            return Err(format!(
                "task {:?}: image {:?} is not in the administrator's image list",
                t.name, s.image
            ));
        }
        sizes
            .resolve(task_size(wf, TaskWork::Designed(t)), WorkloadKind::Task)
            .map_err(|e| format!("task {:?}: {e}", t.name))?;
    }
    dag::Dag::new(&wf.spec.tasks, &wf.spec.edges)
}

/// Pure: the image reference that reads a workflow's DAG file and runs its tasks: the workflow's
/// image, else the project's, from the administrator's list.
pub fn dag_file_image(wf: &Workflow, project: &Project, images: &ImageCatalog) -> Result<String, String> {
    let id = wf.spec.image.as_deref().unwrap_or(&project.spec.image);
    images
        .resolve(id)
        .map(str::to_owned)
        .ok_or_else(|| format!("image {id:?} is not in the administrator's image list"))
}

/// Pure: the CronJob of a workflow. Its Jobs only mark a tick; the tasks run as the WorkflowRun's
/// pods.
pub fn build_cronjob(wf: &Workflow, config: &Config) -> CronJob {
    let name = wf.name_any();
    let labels = child_labels(LABEL_WORKFLOW, &name, "schedule");
    let tick = PodSpec {
        containers: vec![Container {
            name: "tick".into(),
            image: Some(config.tick_image.clone()),
            args: Some(vec!["true".into()]),
            resources: Some(Helper::Tick.requirements()),
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
pub fn trigger_of(job: &ObjectMeta) -> Trigger {
    match job
        .annotations
        .as_ref()
        .and_then(|a| a.get(ANNOTATION_INSTANTIATE))
        .map(String::as_str)
    {
        Some("manual") => Trigger::Manual,
        _ => Trigger::Schedule,
    }
}

/// Pure: a WorkflowRun of the same name for every Job of the workflow's CronJob.
pub fn new_runs(wf: &Workflow, jobs: &[ObjectMeta]) -> Vec<WorkflowRun> {
    jobs.iter()
        .filter_map(|job| {
            let name = job.name.clone()?;
            Some(new_run(wf, &name, trigger_of(job), Some(name.clone())))
        })
        .collect()
}

/// Applies the CronJob when it changed and makes the runs that do not exist yet (once each: the
/// API and the run controller own a run's spec and status from then on).
async fn apply(
    ctx: &Context,
    wf: &Workflow,
    cron_job: &CronJob,
    runs: &[WorkflowRun],
    observed: &Observed,
) -> Result<()> {
    let children = ctx.children(CONTROLLER, wf);
    children.apply("cronjob", cron_job, &observed.cron_jobs).await?;
    if wf.spec.dag_file.is_some() {
        children
            .apply(
                "python package",
                &dag_file::package::config_map(wf),
                &observed.packages,
            )
            .await?;
    }
    let current = metadata(&observed.runs);
    for run in runs {
        children.create("workflow run", run, &current).await?;
    }
    children.applied();
    Ok(())
}

/// Pure: the workflow's status — ready (or why it is broken), its CronJob and its latest run —
/// and the verdict its conditions carry.
pub fn status_of(
    wf: &Workflow,
    valid: std::result::Result<(), &str>,
    dag_state: Option<&DagFileState>,
    runs: &[Arc<WorkflowRun>],
) -> (WorkflowStatus, Verdict) {
    let (state, import_error, verdict, cron_job) = match valid {
        Ok(()) if dag_state == Some(&DagFileState::Reading) => (
            WorkflowState::Initializing,
            None,
            Verdict::progressing(Reason::ReadingDagFile, "the DAG file is being read"),
            wf.status.as_ref().and_then(|s| s.cron_job.clone()),
        ),
        Err(why) => (
            WorkflowState::Broken,
            Some(why.to_owned()),
            Verdict::degraded(Reason::WorkflowBroken, why),
            None,
        ),
        Ok(()) => {
            let verdict = if wf.spec.paused {
                Verdict::ready(Reason::Paused, "scheduled runs are paused; manual runs work")
            } else {
                Verdict::ready(
                    Reason::Scheduled,
                    format!("schedule {}", wf.spec.schedule.as_deref().unwrap_or("None")),
                )
            };
            (WorkflowState::Ready, None, verdict, Some(wf.name_any()))
        }
    };
    // The latest run, for the list view.
    let last = runs
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
        // What the DAG file declares; kept while it is read again.
        dag: match dag_state {
            Some(DagFileState::Read(dag) | DagFileState::Broken(dag, _)) => Some(dag.clone()),
            _ => wf.status.as_ref().and_then(|s| s.dag.clone()),
        },
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
    (status, verdict)
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
    run.metadata.labels = Some(BTreeMap::from([(LABEL_WORKFLOW.to_owned(), wf.name_any())]));
    run.metadata.owner_references = Some(vec![owner_ref(wf)]);
    run
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{
        fixtures::{project, workflow},
        *,
    };

    #[test]
    fn the_cronjob_carries_the_schedule_in_utc_and_pauses() {
        let config = Config::for_tests("ludis-system");
        let cj = build_cronjob(&workflow(json!({"schedule": "0 3 * * *"})), &config)
            .spec
            .unwrap();
        assert_eq!((cj.schedule.as_str(), cj.suspend), ("0 3 * * *", Some(false)));
        assert_eq!(cj.time_zone.as_deref(), Some("Etc/UTC"));
        let labels = cj.job_template.metadata.unwrap().labels.unwrap();
        assert_eq!(labels[LABEL_WORKFLOW], "nightly");
        let paused = build_cronjob(
            &workflow(json!({"schedule": "0 3 * * *", "paused": true})),
            &config,
        )
        .spec
        .unwrap();
        assert_eq!(paused.suspend, Some(true));
        let unscheduled = build_cronjob(&workflow(json!({})), &config).spec.unwrap();
        assert_eq!(
            (unscheduled.schedule.as_str(), unscheduled.suspend),
            (NEVER, Some(true))
        );
    }

    #[test]
    fn broken_workflows_say_why() {
        let images = ImageCatalog(BTreeMap::from([("py".into(), "python:3".into())]));
        let sizes = SizeCatalog::default();
        let project = project();
        let p = Some(&project);
        assert!(validate(&workflow(json!({})), p, &images, &sizes).is_ok());
        assert!(
            validate(&workflow(json!({})), None, &images, &sizes)
                .unwrap_err()
                .contains("project \"demo\" does not exist")
        );
        let bad_image =
            workflow(json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "zz"}}]}));
        assert!(
            validate(&bad_image, p, &images, &sizes)
                .unwrap_err()
                .contains("image \"zz\"")
        );
        let big_task = workflow(
            json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "py", "size": "huge"}}]}),
        );
        assert_eq!(
            validate(&big_task, p, &images, &sizes).unwrap_err(),
            "task \"a\": size \"huge\" is not in the administrator's size list (small, medium, large)"
        );
        assert!(
            validate(&workflow(json!({"size": "xl"})), p, &images, &sizes)
                .unwrap_err()
                .starts_with("size \"xl\" is not in")
        );
        let cycle = workflow(
            json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "py"}},
            {"name": "b", "script": {"file": "b.py", "image": "py"}}],
            "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "a"}]}),
        );
        assert_eq!(
            validate(&cycle, p, &images, &sizes).unwrap_err(),
            "the tasks form a cycle through a, b"
        );
    }

    #[test]
    fn a_dag_file_being_read_is_initializing_then_ready_or_broken_with_its_error() {
        let wf = workflow(json!({"tasks": [], "dagFile": "wf_dag.py"}));
        let (reading, verdict) = status_of(&wf, Ok(()), Some(&DagFileState::Reading), &[]);
        assert_eq!(verdict.reason(), Reason::ReadingDagFile);
        assert!(verdict.is_progressing());
        assert_eq!(reading.state, Some(WorkflowState::Initializing));
        assert_eq!(reading.cron_job, None);
        let dag: ludis_crds::workflow::ParsedDag = serde_json::from_value(json!({"source": "s1",
            "dagId": "d", "tasks": [{"name": "a", "operator": "BashOperator"}], "edges": []}))
        .unwrap();
        let (read, verdict) = status_of(&wf, Ok(()), Some(&DagFileState::Read(dag.clone())), &[]);
        assert!(verdict.is_ready());
        assert_eq!(read.state, Some(WorkflowState::Ready));
        assert_eq!(read.dag.as_ref(), Some(&dag));
        // What was read is recorded: the same source is not read again.
        let mut wf = wf;
        wf.status = Some(read);
        assert_eq!(dag_file::recorded(&wf, "s1"), Some(DagFileState::Read(dag)));
        assert_eq!(dag_file::recorded(&wf, "s2"), None);
        let failed = ludis_crds::workflow::ParsedDag {
            source: Some("s3".into()),
            ..Default::default()
        };
        let (broken, verdict) = status_of(
            &wf,
            Err("NameError: x"),
            Some(&DagFileState::Broken(failed.clone(), "NameError: x".into())),
            &[],
        );
        assert_eq!(verdict, Verdict::degraded(Reason::WorkflowBroken, "NameError: x"));
        assert_eq!(broken.state, Some(WorkflowState::Broken));
        assert_eq!(broken.import_error.as_deref(), Some("NameError: x"));
        wf.status = Some(broken);
        assert_eq!(
            dag_file::recorded(&wf, "s3"),
            Some(DagFileState::Broken(failed, "NameError: x".into()))
        );
    }

    #[test]
    fn manual_jobs_are_manual_runs() {
        let manual: Job = serde_json::from_value(json!({"metadata": {"annotations":
            {"cronjob.kubernetes.io/instantiate": "manual"}}}))
        .unwrap();
        assert_eq!(trigger_of(&manual.metadata), Trigger::Manual);
        assert_eq!(trigger_of(&ObjectMeta::default()), Trigger::Schedule);
    }
}
