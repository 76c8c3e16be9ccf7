//! Build (pure): the next step of a run — task states from pod outcomes and requests (see
//! [`dag::step`]), the pods of the tasks it starts, the pods of tasks that no longer run, and the
//! run's status.

use std::{collections::BTreeMap, sync::Arc};

use k8s_openapi::{api::core::v1::Pod, apimachinery::pkg::apis::meta::v1::Time};
use kube::ResourceExt as _;
use ludis_crds::{
    WorkflowRun, WorkflowRunStatus,
    workflow::{RunPhase, TaskState, TaskStatus},
};

use super::{
    super::dag::{self, PodOutcome},
    observe::Observed,
    task_pod::{TaskWork, build_pod, outcome},
    validate::Validated,
};
use crate::{
    context::Config,
    verdict::{Reason, Verdict},
};

/// What this step of the run wants.
#[derive(Debug)]
pub struct Desired {
    /// The pods of the tasks this step starts.
    pub start: Vec<Pod>,
    /// The running pods of tasks that no longer run (marked success or failed): to stop.
    pub stop: Vec<String>,
    /// The run's status after this step.
    pub status: WorkflowRunStatus,
    /// The verdict its conditions carry.
    pub verdict: Verdict,
    /// Whether writing the status can wait for the started pods' first event: the step started
    /// tasks and did nothing a later step could not do again (no request applied, the run goes
    /// on). That step starts the same tries — the pods exist by then, under the same names — and
    /// writes one status for both; under a burst, one write instead of two.
    pub status_can_wait: bool,
}

/// The next step of `run` at `now` (Err: a task that cannot be made into a pod).
pub fn build(
    run: &WorkflowRun,
    valid: &Validated<'_>,
    observed: &Observed,
    config: &Config,
    now: Time,
) -> Result<Desired, Verdict> {
    let wf = valid.workflow;
    let outcomes: BTreeMap<String, (PodOutcome, Option<f64>)> = observed
        .pods
        .iter()
        .filter_map(|p| Some((p.name_any(), outcome(p)?)))
        .collect();
    let old = run.status.clone().unwrap_or_default();
    let mut tasks = old.tasks.clone();
    let mut applied = old.applied_requests.clone();
    let run_name = run.name_any();
    // Steps until none starts a try whose pod exists already: a status written late (or read
    // stale) starts a try again that has a pod, maybe finished — its outcome is taken at once.
    let (mut to_start, mut started_again, mut applied_now) = (Vec::new(), Vec::new(), false);
    let phase = loop {
        let (step, phase) = dag::step(
            &run_name,
            &valid.dag,
            &mut tasks,
            &run.spec.requests,
            &applied,
            &outcomes,
        );
        applied_now |= !step.applied.is_empty();
        applied.extend(step.applied);
        let (existing, new): (Vec<_>, Vec<_>) = step.start.into_iter().partition(|(task, try_number)| {
            outcomes.contains_key(&dag::pod_name(&run_name, task, *try_number))
        });
        to_start.extend(new);
        if existing.is_empty() {
            break phase;
        }
        started_again.extend(existing.into_iter().map(|(task, _)| task));
    };
    for t in tasks.iter_mut().filter(|t| started_again.contains(&t.name)) {
        t.start_time.get_or_insert_with(|| now.clone());
    }

    // The pods of the tasks the step released; they start now.
    let mut start = Vec::with_capacity(to_start.len());
    for (task_name, try_number) in &to_start {
        let work = if wf.spec.dag_file.is_some() {
            TaskWork::Coded(task_name)
        } else {
            TaskWork::Designed(
                wf.spec
                    .tasks
                    .iter()
                    .find(|t| &t.name == task_name)
                    .expect("a task of the DAG"),
            )
        };
        let pod = build_pod(run, valid, work, *try_number, observed.resolvers(), config)
            .map_err(|why| Verdict::degraded(Reason::TaskInvalid, why))?;
        start.push(pod);
        if let Some(t) = tasks.iter_mut().find(|t| &t.name == task_name) {
            t.start_time = Some(now.clone());
        }
    }
    let stop = stale_pods(&observed.pods, &tasks);

    let done = matches!(phase, RunPhase::Succeeded | RunPhase::Failed);
    let status_can_wait = !start.is_empty() && !applied_now && !done;
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
    let verdict = verdict_of(phase, &tasks);
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
    Ok(Desired {
        start,
        stop,
        status,
        verdict,
        status_can_wait,
    })
}

/// The running pods whose task no longer runs that try (it was marked success or failed).
pub fn stale_pods(pods: &[Arc<Pod>], tasks: &[TaskStatus]) -> Vec<String> {
    pods.iter()
        .filter(|p| {
            let current = tasks
                .iter()
                .any(|t| t.state == TaskState::Running && t.pod.as_deref() == Some(&p.name_any()));
            !current
                && outcome(p).map(|o| o.0) == Some(PodOutcome::Running)
                && p.metadata.deletion_timestamp.is_none()
        })
        .map(|p| p.name_any())
        .collect()
}

/// The verdict on a run in `phase`: a run that succeeded is Ready; one that failed is Stalled
/// (for good: its failed tasks are named; clearing a task starts it again); a running one is
/// Reconciling.
fn verdict_of(phase: RunPhase, tasks: &[TaskStatus]) -> Verdict {
    match phase {
        RunPhase::Succeeded => Verdict::ready(Reason::Succeeded, "every task succeeded"),
        RunPhase::Failed => {
            let failed: Vec<_> = tasks
                .iter()
                .filter(|t| t.state == TaskState::Failed)
                .map(|t| t.name.as_str())
                .collect();
            Verdict::degraded(Reason::Failed, format!("failed tasks: {}", failed.join(", ")))
        }
        _ => Verdict::progressing(Reason::Running, "tasks are running"),
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::jiff::Timestamp;
    use ludis_crds::workflow::{TaskAction, TaskRequest};

    use super::{
        super::{fixtures::*, validate::validate},
        *,
    };

    fn at(second: i64) -> Time {
        Time(Timestamp::from_second(second).unwrap())
    }

    fn step(run: &WorkflowRun, observed: &Observed, now: i64) -> Result<Desired, Verdict> {
        let valid = validate(run, observed).unwrap();
        build(run, &valid, observed, &Config::for_tests("ludis-system"), at(now))
    }

    fn states(status: &WorkflowRunStatus) -> Vec<(&str, TaskState)> {
        status.tasks.iter().map(|t| (t.name.as_str(), t.state)).collect()
    }

    /// `run` after `desired`: its status written.
    fn after(mut run: WorkflowRun, desired: Desired) -> WorkflowRun {
        run.status = Some(desired.status);
        run
    }

    #[test]
    fn the_first_step_starts_the_roots_now() {
        let d = step(&run(&[]), &observed(Some(diamond())), 100).unwrap();
        let names: Vec<_> = d.start.iter().map(|p| p.name_any()).collect();
        assert_eq!(names, ["r1-extract-1"]);
        assert!(d.stop.is_empty());
        assert_eq!(
            states(&d.status),
            [
                ("extract", TaskState::Running),
                ("clean", TaskState::Queued),
                ("check", TaskState::Queued),
                ("load", TaskState::Queued)
            ]
        );
        assert_eq!(d.status.phase, Some(RunPhase::Running));
        assert_eq!(d.status.tasks[0].start_time, Some(at(100)));
        assert_eq!(d.status.start_time, Some(at(100)));
        assert_eq!(d.status.completion_time, None);
        let ready = d
            .status
            .conditions
            .iter()
            .find(|c| c.type_ == "Progressing")
            .unwrap();
        assert_eq!(
            (ready.status.as_str(), ready.reason.as_str()),
            ("True", "Running")
        );
    }

    #[test]
    fn the_status_of_a_step_that_only_starts_pods_waits_for_their_first_event() {
        let wf = diamond();
        let first = step(&run(&[]), &observed(Some(wf.clone())), 100).unwrap();
        assert!(first.status_can_wait);
        // Not written: the next step reads the run as it was, with extract's pod there (running,
        // then finished), and goes on from its outcome.
        let mut o = observed(Some(wf));
        o.pods = vec![Arc::new(pod("r1-extract-1", "Running"))];
        let d = step(&run(&[]), &o, 101).unwrap();
        assert!(d.start.is_empty() && !d.status_can_wait);
        assert_eq!(states(&d.status)[0], ("extract", TaskState::Running));
        assert_eq!(d.status.tasks[0].start_time, Some(at(101)));
        o.pods = vec![Arc::new(pod("r1-extract-1", "Succeeded"))];
        let d = step(&run(&[]), &o, 102).unwrap();
        let names: Vec<_> = d.start.iter().map(|p| p.name_any()).collect();
        assert_eq!(names, ["r1-clean-1", "r1-check-1"]);
        assert_eq!(
            states(&d.status),
            [
                ("extract", TaskState::Success),
                ("clean", TaskState::Running),
                ("check", TaskState::Running),
                ("load", TaskState::Queued)
            ]
        );
        // A step that applies a request is written at once (it must not apply it twice).
        let cleared = run(&[serde_json::from_value(serde_json::json!(
            {"id": "q1", "task": "extract", "action": "clear", "downstream": true}))
        .unwrap()]);
        let r = after(cleared, d);
        let d = step(&r, &o, 103).unwrap();
        assert_eq!(
            d.start.iter().map(|p| p.name_any()).collect::<Vec<_>>(),
            ["r1-extract-2"]
        );
        assert!(!d.status_can_wait);
    }

    #[test]
    fn a_failed_task_fails_its_downstream_and_ends_the_run_once() {
        let wf = diamond();
        let first = step(&run(&[]), &observed(Some(wf.clone())), 100).unwrap();
        let r = after(run(&[]), first);
        let mut o = observed(Some(wf));
        o.pods = vec![Arc::new(pod("r1-extract-1", "Failed"))];
        let d = step(&r, &o, 160).unwrap();
        assert!(d.start.is_empty());
        assert_eq!(
            states(&d.status),
            [
                ("extract", TaskState::Failed),
                ("clean", TaskState::UpstreamFailed),
                ("check", TaskState::UpstreamFailed),
                ("load", TaskState::UpstreamFailed)
            ]
        );
        assert_eq!(d.status.phase, Some(RunPhase::Failed));
        assert_eq!(d.status.completion_time, Some(at(160)));
        let ready = d.status.conditions.iter().find(|c| c.type_ == "Ready").unwrap();
        assert_eq!(
            (
                ready.status.as_str(),
                ready.reason.as_str(),
                ready.message.as_str()
            ),
            ("False", "Failed", "failed tasks: extract")
        );
        let stalled = d.status.conditions.iter().find(|c| c.type_ == "Stalled").unwrap();
        assert_eq!(
            (stalled.status.as_str(), stalled.reason.as_str()),
            ("True", "Failed")
        );
        assert_eq!(
            d.verdict,
            Verdict::degraded(Reason::Failed, "failed tasks: extract")
        );
        // A later look keeps the time it ended.
        let r = after(r, d);
        assert_eq!(step(&r, &o, 500).unwrap().status.completion_time, Some(at(160)));
    }

    #[test]
    fn marking_a_running_task_succeeded_stops_its_pod_and_starts_its_downstream() {
        let wf = diamond();
        let first = step(&run(&[]), &observed(Some(wf.clone())), 100).unwrap();
        let mark: TaskRequest = TaskRequest {
            id: "req-1".into(),
            action: TaskAction::MarkSuccess,
            task: "extract".into(),
            downstream: false,
        };
        let mut r = after(run(&[]), first);
        r.spec.requests = vec![mark];
        let mut o = observed(Some(wf));
        o.pods = vec![Arc::new(pod("r1-extract-1", "Running"))];
        let d = step(&r, &o, 130).unwrap();
        assert_eq!(d.stop, ["r1-extract-1"]);
        let names: Vec<_> = d.start.iter().map(|p| p.name_any()).collect();
        assert_eq!(names, ["r1-clean-1", "r1-check-1"]);
        assert_eq!(d.status.applied_requests, ["req-1"]);
        // Applied once: the next step does not apply it again.
        let r = after(r, d);
        assert!(step(&r, &o, 140).unwrap().status.applied_requests == ["req-1"]);
    }

    #[test]
    fn a_task_with_an_image_outside_the_list_makes_the_run_invalid() {
        let wf = workflow(
            serde_json::json!({"tasks": [{"name": "a", "script": {"file": "a.py", "image": "zz"}}]}),
        );
        let v = step(&run(&[]), &observed(Some(wf)), 100).unwrap_err();
        assert!(v.is_degraded());
        assert_eq!(v.reason(), "TaskInvalid");
        assert!(v.message().contains("image \"zz\""), "{}", v.message());
    }
}
