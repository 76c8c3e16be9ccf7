//! Pure DAG logic of workflows: validation (names, cycles) and the run state machine that turns
//! task states, pod outcomes and requests into the next task states and the pods to start.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use ludis_crds::workflow::{Edge, RunPhase, TaskAction, TaskRequest, TaskState, TaskStatus, WorkflowTask};

/// A validated DAG: tasks in a topological order, with their upstream tasks.
#[derive(Clone, Debug, PartialEq)]
pub struct Dag {
    /// Task names in a topological order (upstream first; ties by declaration order).
    pub order: Vec<String>,
    pub upstream: BTreeMap<String, BTreeSet<String>>,
    pub downstream: BTreeMap<String, BTreeSet<String>>,
}

impl Dag {
    /// Checks that the edges join known tasks and make no cycle.
    pub fn new(tasks: &[WorkflowTask], edges: &[Edge]) -> Result<Self, String> {
        let names: Vec<String> = tasks.iter().map(|t| t.name.clone()).collect();
        Self::of_names(&names, edges)
    }

    /// Checks that the names are unique, the edges join them and make no cycle.
    pub fn of_names(names: &[String], edges: &[Edge]) -> Result<Self, String> {
        let mut upstream: BTreeMap<String, BTreeSet<String>> =
            names.iter().map(|n| (n.clone(), BTreeSet::new())).collect();
        let mut downstream = upstream.clone();
        if upstream.len() != names.len() {
            return Err("task names must be unique".into());
        }
        for e in edges {
            for end in [&e.from, &e.to] {
                if !upstream.contains_key(end) {
                    return Err(format!(
                        "the edge {} → {} names an unknown task {end:?}",
                        e.from, e.to
                    ));
                }
            }
            if e.from == e.to {
                return Err(format!("the task {:?} depends on itself", e.from));
            }
            upstream.get_mut(&e.to).expect("checked").insert(e.from.clone());
            downstream.get_mut(&e.from).expect("checked").insert(e.to.clone());
        }
        // Kahn's algorithm, in declaration order for a stable result.
        let mut indegree: BTreeMap<&str, usize> =
            upstream.iter().map(|(k, v)| (k.as_str(), v.len())).collect();
        let mut ready: VecDeque<&str> = names
            .iter()
            .map(String::as_str)
            .filter(|n| indegree[n] == 0)
            .collect();
        let mut order = Vec::with_capacity(names.len());
        while let Some(n) = ready.pop_front() {
            order.push(n.to_owned());
            for d in names.iter().filter(|d| downstream[n].contains(*d)) {
                let deg = indegree.get_mut(d.as_str()).expect("known");
                *deg -= 1;
                if *deg == 0 {
                    ready.push_back(d);
                }
            }
        }
        if order.len() != names.len() {
            let mut stuck: Vec<_> = names.iter().filter(|n| !order.contains(n)).cloned().collect();
            stuck.sort();
            return Err(format!("the tasks form a cycle through {}", stuck.join(", ")));
        }
        Ok(Self {
            order,
            upstream,
            downstream,
        })
    }

    /// Every task downstream of `task`, transitively (not `task` itself).
    pub fn all_downstream(&self, task: &str) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = vec![task];
        while let Some(t) = todo.pop() {
            for d in self.downstream.get(t).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d);
                }
            }
        }
        seen
    }
}

/// What became of a task's pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PodOutcome {
    Running,
    Succeeded,
    Failed,
}

/// One step of a run.
#[derive(Debug, Default, PartialEq)]
pub struct Step {
    /// Tasks to start now, with their try number.
    pub start: Vec<(String, i32)>,
    /// Ids of the requests applied in this step.
    pub applied: Vec<String>,
}

/// The pod name of a task's try.
pub fn pod_name(run: &str, task: &str, try_number: i32) -> String {
    format!("{run}-{}-{try_number}", ludis_crds::workflow::task_label(task))
}

/// Advances a run: applies new requests, records pod outcomes (`pods` maps pod name to outcome;
/// `now` is the time in seconds), fails the downstream of failures, starts every task whose
/// upstream succeeded, and returns the phase.
pub fn step(
    run: &str,
    dag: &Dag,
    tasks: &mut Vec<TaskStatus>,
    requests: &[TaskRequest],
    applied: &[String],
    pods: &BTreeMap<String, (PodOutcome, Option<f64>)>,
) -> (Step, RunPhase) {
    let mut out = Step::default();
    // Every task has a status, in topological order.
    let mut by_name: BTreeMap<String, TaskStatus> = tasks.drain(..).map(|t| (t.name.clone(), t)).collect();
    for name in &dag.order {
        by_name.entry(name.clone()).or_insert_with(|| TaskStatus {
            name: name.clone(),
            state: TaskState::Queued,
            try_number: 0,
            start_time: None,
            duration: None,
            pod: None,
        });
    }

    // 1. Pod outcomes of running tasks.
    for t in by_name.values_mut().filter(|t| t.state == TaskState::Running) {
        let pod = pod_name(run, &t.name, t.try_number);
        match pods.get(&pod) {
            Some((PodOutcome::Succeeded, d)) => {
                t.state = TaskState::Success;
                t.duration = *d;
            }
            Some((PodOutcome::Failed, d)) => {
                t.state = TaskState::Failed;
                t.duration = *d;
            }
            Some((PodOutcome::Running, _)) => {}
            None => {} // created this step or the last one; its pod appears soon
        }
    }

    // 2. Requests, once each, in order.
    for r in requests.iter().filter(|r| !applied.contains(&r.id)) {
        let mut targets = vec![r.task.clone()];
        if r.downstream {
            targets.extend(dag.all_downstream(&r.task));
        }
        for name in targets {
            let Some(t) = by_name.get_mut(&name) else { continue };
            match r.action {
                TaskAction::MarkSuccess => t.state = TaskState::Success,
                TaskAction::MarkFailed => t.state = TaskState::Failed,
                TaskAction::Clear => {
                    t.state = TaskState::Queued;
                    t.duration = None;
                }
            }
        }
        out.applied.push(r.id.clone());
    }

    // 3. Failures flow downstream; tasks whose upstream all succeeded start.
    for name in &dag.order {
        let ups: Vec<TaskState> = dag.upstream[name].iter().map(|u| by_name[u].state).collect();
        let t = by_name.get_mut(name).expect("every task has a status");
        match t.state {
            TaskState::Queued | TaskState::UpstreamFailed => {
                if ups
                    .iter()
                    .any(|s| matches!(s, TaskState::Failed | TaskState::UpstreamFailed))
                {
                    t.state = TaskState::UpstreamFailed;
                } else if ups
                    .iter()
                    .all(|s| matches!(s, TaskState::Success | TaskState::Skipped))
                {
                    t.state = TaskState::Running;
                    t.try_number += 1;
                    t.duration = None;
                    t.start_time = None; // set by the caller when the pod is created
                    t.pod = Some(pod_name(run, name, t.try_number));
                    out.start.push((name.clone(), t.try_number));
                } else {
                    t.state = TaskState::Queued;
                }
            }
            _ => {}
        }
    }

    *tasks = dag
        .order
        .iter()
        .map(|n| by_name.remove(n).expect("present"))
        .collect();
    let phase = if tasks
        .iter()
        .any(|t| matches!(t.state, TaskState::Running | TaskState::Queued))
    {
        RunPhase::Running
    } else if tasks
        .iter()
        .any(|t| matches!(t.state, TaskState::Failed | TaskState::UpstreamFailed))
    {
        RunPhase::Failed
    } else {
        RunPhase::Succeeded
    };
    (out, phase)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tasks(names: &[&str]) -> Vec<WorkflowTask> {
        names
            .iter()
            .map(|n| {
                serde_json::from_value(json!({"name": n, "script": {"file": "a.py", "image": "py"}})).unwrap()
            })
            .collect()
    }

    fn edges(pairs: &[(&str, &str)]) -> Vec<Edge> {
        pairs
            .iter()
            .map(|(f, t)| Edge {
                from: (*f).into(),
                to: (*t).into(),
            })
            .collect()
    }

    /// a → b, a → c, b → d, c → d
    fn diamond() -> Dag {
        Dag::new(
            &tasks(&["a", "b", "c", "d"]),
            &edges(&[("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]),
        )
        .unwrap()
    }

    fn states(tasks: &[TaskStatus]) -> Vec<(&str, TaskState, i32)> {
        tasks
            .iter()
            .map(|t| (t.name.as_str(), t.state, t.try_number))
            .collect()
    }

    fn outcome(run: &str, task: &str, try_: i32, o: PodOutcome) -> (String, (PodOutcome, Option<f64>)) {
        (pod_name(run, task, try_), (o, Some(1.5)))
    }

    fn req(id: &str, action: TaskAction, task: &str, downstream: bool) -> TaskRequest {
        TaskRequest {
            id: id.into(),
            action,
            task: task.into(),
            downstream,
        }
    }

    #[test]
    fn cycles_and_unknown_tasks_are_refused() {
        let err = Dag::new(
            &tasks(&["a", "b", "c"]),
            &edges(&[("a", "b"), ("b", "c"), ("c", "b")]),
        )
        .unwrap_err();
        assert_eq!(err, "the tasks form a cycle through b, c");
        let err = Dag::new(&tasks(&["a"]), &edges(&[("a", "zz")])).unwrap_err();
        assert!(err.contains("unknown task \"zz\""), "{err}");
        assert!(Dag::new(&tasks(&["a"]), &edges(&[("a", "a")])).is_err());
    }

    #[test]
    fn the_order_is_topological_and_downstream_is_transitive() {
        let dag = diamond();
        assert_eq!(dag.order, ["a", "b", "c", "d"]);
        assert_eq!(dag.all_downstream("a"), ["b", "c", "d"].map(String::from).into());
        assert_eq!(dag.all_downstream("c"), ["d"].map(String::from).into());
    }

    #[test]
    fn a_diamond_runs_independent_tasks_in_parallel() {
        let dag = diamond();
        let mut t = vec![];
        let (s, phase) = step("r", &dag, &mut t, &[], &[], &BTreeMap::new());
        assert_eq!(s.start, [("a".to_owned(), 1)]);
        assert_eq!(phase, RunPhase::Running);
        let pods = BTreeMap::from([outcome("r", "a", 1, PodOutcome::Succeeded)]);
        let (s, _) = step("r", &dag, &mut t, &[], &[], &pods);
        assert_eq!(
            s.start,
            [("b".to_owned(), 1), ("c".to_owned(), 1)],
            "b and c start together"
        );
        assert_eq!(t[0].duration, Some(1.5));
    }

    #[test]
    fn a_failure_fails_its_downstream_and_the_run() {
        let dag = diamond();
        let mut t = vec![];
        let mut pods = BTreeMap::new();
        step("r", &dag, &mut t, &[], &[], &pods);
        pods.extend([outcome("r", "a", 1, PodOutcome::Succeeded)]);
        step("r", &dag, &mut t, &[], &[], &pods);
        pods.extend([
            outcome("r", "b", 1, PodOutcome::Failed),
            outcome("r", "c", 1, PodOutcome::Succeeded),
        ]);
        let (s, phase) = step("r", &dag, &mut t, &[], &[], &pods);
        assert!(s.start.is_empty());
        use TaskState::*;
        assert_eq!(
            states(&t),
            [
                ("a", Success, 1),
                ("b", Failed, 1),
                ("c", Success, 1),
                ("d", UpstreamFailed, 0)
            ]
        );
        assert_eq!(phase, RunPhase::Failed);

        // Mark b success: d runs, and the run succeeds once d does.
        let reqs = [req("1", TaskAction::MarkSuccess, "b", false)];
        let (s, phase) = step("r", &dag, &mut t, &reqs, &[], &pods);
        assert_eq!(s.applied, ["1"]);
        assert_eq!(s.start, [("d".to_owned(), 1)]);
        assert_eq!(phase, RunPhase::Running);
        pods.extend([outcome("r", "d", 1, PodOutcome::Succeeded)]);
        let (s, phase) = step("r", &dag, &mut t, &reqs, &["1".into()], &pods);
        assert!(s.applied.is_empty(), "a request is applied once");
        assert_eq!(phase, RunPhase::Succeeded);
    }

    #[test]
    fn clear_with_downstream_reruns_exactly_those_tasks() {
        let dag = diamond();
        let mut t = vec![];
        let mut pods = BTreeMap::new();
        for round in [&["a"][..], &["b", "c"], &["d"]] {
            step("r", &dag, &mut t, &[], &[], &pods);
            for task in round {
                pods.extend([outcome("r", task, 1, PodOutcome::Succeeded)]);
            }
        }
        let (_, phase) = step("r", &dag, &mut t, &[], &[], &pods);
        assert_eq!(phase, RunPhase::Succeeded);

        let reqs = [req("c1", TaskAction::Clear, "c", true)];
        let (s, phase) = step("r", &dag, &mut t, &reqs, &[], &pods);
        assert_eq!(
            s.start,
            [("c".to_owned(), 2)],
            "c runs again first; d waits for it"
        );
        assert_eq!(phase, RunPhase::Running);
        use TaskState::*;
        assert_eq!(
            states(&t),
            [
                ("a", Success, 1),
                ("b", Success, 1),
                ("c", Running, 2),
                ("d", Queued, 1)
            ]
        );
        pods.extend([outcome("r", "c", 2, PodOutcome::Succeeded)]);
        let (s, _) = step("r", &dag, &mut t, &reqs, &["c1".into()], &pods);
        assert_eq!(s.start, [("d".to_owned(), 2)]);
    }

    #[test]
    fn clearing_one_task_without_downstream_leaves_the_rest() {
        let dag = Dag::new(&tasks(&["a", "b"]), &edges(&[("a", "b")])).unwrap();
        let mut t = vec![];
        let mut pods = BTreeMap::new();
        step("r", &dag, &mut t, &[], &[], &pods);
        pods.extend([outcome("r", "a", 1, PodOutcome::Failed)]);
        let (_, phase) = step("r", &dag, &mut t, &[], &[], &pods);
        assert_eq!(phase, RunPhase::Failed);
        let reqs = [req("x", TaskAction::Clear, "a", false)];
        let (s, _) = step("r", &dag, &mut t, &reqs, &[], &pods);
        assert_eq!(s.start, [("a".to_owned(), 2)]);
        assert_eq!(
            t[1].state,
            TaskState::Queued,
            "b waits again once its upstream is cleared"
        );
    }
}
