//! Workflow: a DAG of tasks on a schedule, and WorkflowRun: one execution of it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use kube::{CustomResource, KubeSchema};
use serde::{Deserialize, Serialize};

use crate::common::Sharing;

/// A workflow: tasks (scripts and uploads to datasets) with dependencies, run on a UTC cron
/// schedule (a CronJob, suspended while paused) or on demand. Every run is a WorkflowRun.
/// Namespaced.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[kube(
    group = "ludis.dev",
    version = "v1alpha1",
    kind = "Workflow",
    namespaced,
    status = "WorkflowStatus",
    shortname = "wf",
    category = "ludis",
    doc = "A Ludis workflow: a DAG of tasks run on a schedule or on demand.",
    printcolumn(name = "Schedule", type_ = "string", json_path = ".spec.schedule"),
    printcolumn(name = "Paused", type_ = "boolean", json_path = ".spec.paused"),
    printcolumn(name = "State", type_ = "string", json_path = ".status.state"),
    printcolumn(
        name = "Ready",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].status"
    ),
    printcolumn(
        name = "Reason",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].reason"
    ),
    printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp")
)]
#[x_kube(validation = Rule::new("self.edges.all(e, self.tasks.exists(t, t.name == e.from) && self.tasks.exists(t, t.name == e.to))").message("every edge must join two tasks of this workflow"))]
#[x_kube(validation = Rule::new("self.tasks.all(t, self.tasks.exists_one(u, u.name == t.name))").message("task names must be unique"))]
#[x_kube(validation = Rule::new("self.project == oldSelf.project").message("project is immutable"))]
#[x_kube(validation = Rule::new("size(self.tasks) > 0 || has(self.dagFile)").message("a workflow needs tasks, or a dagFile to read them from"))]
#[x_kube(validation = Rule::new("!(size(self.tasks) > 0 && has(self.dagFile))").message("a workflow has either tasks or a dagFile, not both"))]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSpec {
    /// Name shown in the console.
    #[schemars(length(min = 1, max = 128))]
    pub display_name: String,
    /// Name of the Project (in this namespace) whose code the tasks run. Immutable.
    #[schemars(length(min = 1, max = 253))]
    pub project: String,
    /// Whether the workflow was drawn in the visual designer (true) or written as code.
    #[serde(default)]
    pub visual: bool,
    /// Cron schedule in UTC (minute hour day-of-month month day-of-week). Unset: runs only on demand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 9, max = 100))]
    #[x_kube(validation = Rule::new(r"self.matches('^\\s*([0-9*/,\\-]+)\\s+([0-9*/,\\-]+)\\s+([0-9*/,\\-?LW]+)\\s+([0-9A-Za-z*/,\\-]+)\\s+([0-9A-Za-z*/,\\-?L#]+)\\s*$')").message("schedule must be a cron expression of five fields (minute hour day-of-month month day-of-week), in UTC"))]
    pub schedule: Option<String>,
    /// Whether scheduled runs are paused (the CronJob is suspended). Manual runs still work.
    #[serde(default)]
    pub paused: bool,
    /// The tasks of a workflow drawn in the designer (empty when `dagFile` is set).
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub tasks: Vec<WorkflowTask>,
    /// For a workflow written as code: its DAG file, relative to the project root
    /// (`{workflowId}_dag.py`). The operator reads the tasks by running the file in a pod, the way
    /// Airflow does (`status.dag`); a file that fails to import makes the workflow broken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 4, max = 1024))]
    #[x_kube(validation = Rule::new("self.endsWith('.py') && !self.contains('..') && !self.startsWith('/')").message("dagFile must be a .py file inside the project"))]
    pub dag_file: Option<String>,
    /// Id of the image (from the administrator's image list) that parses the DAG file and runs its
    /// tasks. Unset: the project's image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 128))]
    pub image: Option<String>,
    /// Id of the hardware size, from the administrator's size list (CPU, memory and local disk of
    /// the pod). Unset: the list's default for workflow tasks; a designed task may name its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        length(min = 1, max = 63),
        regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    )]
    pub size: Option<String>,
    /// The commit of the project's repository the tasks run (pinned when the workflow is
    /// published). Unset: the head of the project's branch when a run starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 40, max = 64), regex(pattern = r"^[0-9a-f]{40,64}$"))]
    pub revision: Option<String>,
    /// Dependencies: `to` runs after `from` succeeded.
    #[serde(default)]
    #[schemars(length(max = 500))]
    pub edges: Vec<Edge>,
    /// E-mail sent when a run ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notification: Option<Notification>,
    /// Shares declared with the resource (GitOps); merged with shares made in the console.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharing: Option<Sharing>,
}

/// One task: exactly one of `script` or `upload`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[x_kube(validation = Rule::new("has(self.script) != has(self.upload)").message("a task is either a script or an upload"))]
#[serde(rename_all = "camelCase")]
pub struct WorkflowTask {
    /// Task name, unique in the workflow (a DNS label: lowercase letters, digits, hyphens).
    #[schemars(
        length(min = 1, max = 40),
        regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    )]
    pub name: String,
    /// Run a script of the project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<ScriptTask>,
    /// Copy a file of the project into a dataset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload: Option<UploadTask>,
}

/// A script task.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScriptTask {
    /// Script file, relative to the project root; must end in .py, .r or .rmd.
    #[schemars(length(min = 1, max = 1024))]
    #[x_kube(validation = Rule::new("self.lowerAscii().endsWith('.py') || self.lowerAscii().endsWith('.r') || self.lowerAscii().endsWith('.rmd')").message("File must end in .r, .py, or .rmd"))]
    pub file: String,
    /// Id of the container image, from the administrator's image list.
    #[schemars(length(min = 1, max = 128))]
    pub image: String,
    /// Id of the hardware size of this task's pod, from the administrator's size list. Unset: the
    /// workflow's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        length(min = 1, max = 63),
        regex(pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    )]
    pub size: Option<String>,
    /// Script run before the task to install dependencies; must end in .sh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1024))]
    #[x_kube(validation = Rule::new("self.endsWith('.sh')").message("the install script must end in .sh"))]
    pub install_script: Option<String>,
}

/// An upload task.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadTask {
    /// File to upload, relative to the project root; needs an extension.
    #[schemars(length(min = 1, max = 1024))]
    #[x_kube(validation = Rule::new("self.matches('^.*[^/]\\\\.[A-Za-z0-9]+$')").message("Please enter a valid file name with an extension"))]
    #[x_kube(validation = Rule::new("!self.startsWith('/') && !self.matches('(^|/)\\\\.\\\\.(/|$)')").message("file must stay inside the project"))]
    pub file: String,
    /// Name of the destination Dataset in this namespace.
    #[schemars(length(min = 1, max = 253))]
    pub dataset: String,
    /// Folder inside the dataset (empty: its root).
    #[serde(default)]
    #[schemars(length(max = 1024))]
    #[x_kube(validation = Rule::new("!self.contains('..') && !self.startsWith('/')").message("destinationPath must stay inside the dataset"))]
    pub destination_path: String,
}

/// A dependency between two tasks.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[x_kube(validation = Rule::new("self.from != self.to").message("a task cannot depend on itself"))]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    /// The upstream task.
    #[schemars(length(min = 1, max = 250))]
    pub from: String,
    /// The downstream task.
    #[schemars(length(min = 1, max = 250))]
    pub to: String,
}

/// The tasks and dependencies read from a workflow's DAG file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParsedDag {
    /// What was read, as a hash of the file's path, the revision, the image and the operator's
    /// parser: when it differs from the current one, the operator reads the file again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 64))]
    pub source: Option<String>,
    /// The commit the file was read at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// The DAG's id as the file declares it (`DAG(dag_id=...)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dag_id: Option<String>,
    /// The schedule the file declares (a cron expression or preset), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,
    /// The tasks, in the file's order.
    #[serde(default)]
    #[schemars(length(max = 1000))]
    pub tasks: Vec<ParsedTask>,
    /// Dependencies: `to` runs after `from` succeeded.
    #[serde(default)]
    #[schemars(length(max = 5000))]
    pub edges: Vec<Edge>,
}

/// One task read from a DAG file. It runs as `python -m ludis.run <dagFile> <taskId>` in the
/// workflow's image, which imports the file again and executes that task's operator.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParsedTask {
    /// The task id as the file declares it (letters, digits, `_`, `-`, `.`).
    #[schemars(length(min = 1, max = 250))]
    pub name: String,
    /// The operator: BashOperator, PythonOperator, task (the `@task` decorator), EmptyOperator…
    #[schemars(length(max = 100))]
    pub operator: String,
}

/// E-mail notification of finished runs.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    /// Whether e-mails are sent.
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// Recipients.
    #[schemars(length(min = 1, max = 50))]
    pub emails: Vec<String>,
    /// When to send: both, failure or success.
    #[serde(default)]
    pub on: NotifyOn,
}

fn default_true() -> bool {
    true
}

/// When a notification is sent.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NotifyOn {
    /// After every run.
    #[default]
    Both,
    /// After failed runs.
    Failure,
    /// After successful runs.
    Success,
}

/// What the operator observed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowStatus {
    /// The generation of the spec this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// unpublished, initializing, ready or broken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<WorkflowState>,
    /// Why the workflow is broken (e.g. a cycle in its tasks, or the DAG file's import error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import_error: Option<String>,
    /// What the DAG file declares (workflows written as code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dag: Option<ParsedDag>,
    /// Name of the CronJob that carries the schedule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cron_job: Option<String>,
    /// Name of the most recent WorkflowRun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run: Option<String>,
    /// When the most recent run started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run_time: Option<Time>,
    /// How long the most recent finished run took, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_run_duration: Option<f64>,
    /// Ready, Reconciling and Stalled (read by kstatus, Flux and Argo CD), each with the
    /// generation it was written for; Progressing and Degraded repeat the last two (deprecated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["type".into()]))]
    pub conditions: Vec<Condition>,
}

/// State of a workflow, as the console shows it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WorkflowState {
    /// Not yet reconciled.
    Unpublished,
    /// Its CronJob is being created.
    Initializing,
    /// Runs on schedule and on demand.
    Ready,
    /// Cannot run; `importError` says why.
    Broken,
}

/// One run of a workflow. Created by the operator for every tick of the schedule and every
/// manual run (a Job from the workflow's CronJob), or directly (e.g. a re-run). Runs one Pod per
/// task in DAG order. Namespaced.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[kube(
    group = "ludis.dev",
    version = "v1alpha1",
    kind = "WorkflowRun",
    namespaced,
    status = "WorkflowRunStatus",
    shortname = "wfr",
    category = "ludis",
    doc = "One run of a Ludis workflow.",
    printcolumn(name = "Workflow", type_ = "string", json_path = ".spec.workflow"),
    printcolumn(name = "Trigger", type_ = "string", json_path = ".spec.trigger"),
    printcolumn(name = "Phase", type_ = "string", json_path = ".status.phase"),
    printcolumn(
        name = "Ready",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].status"
    ),
    printcolumn(
        name = "Reason",
        type_ = "string",
        json_path = ".status.conditions[?(@.type==\"Ready\")].reason"
    ),
    printcolumn(name = "Age", type_ = "date", json_path = ".metadata.creationTimestamp")
)]
#[x_kube(validation = Rule::new("self.workflow == oldSelf.workflow && self.trigger == oldSelf.trigger").message("workflow and trigger are immutable"))]
#[x_kube(validation = Rule::new("self.requests.all(r, self.requests.exists_one(q, q.id == r.id))").message("request ids must be unique"))]
#[serde(rename_all = "camelCase")]
pub struct WorkflowRunSpec {
    /// Name of the Workflow in this namespace. Immutable.
    #[schemars(length(min = 1, max = 253))]
    pub workflow: String,
    /// What started the run. Immutable.
    pub trigger: Trigger,
    /// Name of the Job (a tick of the schedule, or a manual run) this run stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<String>,
    /// Requests to change task states; each is applied once, in order (append to make one).
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub requests: Vec<TaskRequest>,
}

/// What started a run.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Trigger {
    /// A tick of the schedule.
    Schedule,
    /// Someone asked for a run now.
    Manual,
    /// A re-run of an earlier run.
    Rerun,
}

/// A request to change a task's state.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskRequest {
    /// Unique id of the request (the operator records the ids it applied).
    #[schemars(length(min = 1, max = 64))]
    pub id: String,
    /// markSuccess, markFailed or clear (run again).
    pub action: TaskAction,
    /// The task (a designer task's name, or a DAG file's task id).
    #[schemars(length(min = 1, max = 250))]
    pub task: String,
    /// Also apply to every task downstream of it.
    #[serde(default)]
    pub downstream: bool,
}

/// What a request does.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum TaskAction {
    /// Set the task to success.
    MarkSuccess,
    /// Set the task to failed.
    MarkFailed,
    /// Run the task again (try number + 1).
    Clear,
}

/// What the operator observed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowRunStatus {
    /// The generation of the spec this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Pending, Running, Succeeded or Failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<RunPhase>,
    /// When the first task started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    /// When the last task ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<Time>,
    /// Per task: state, try number, start, duration, pod.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["name".into()]))]
    pub tasks: Vec<TaskStatus>,
    /// Ids of the requests already applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied_requests: Vec<String>,
    /// Whether the notification of the finished run was sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notified: Option<bool>,
    /// Ready, Reconciling and Stalled (read by kstatus, Flux and Argo CD), each with the
    /// generation it was written for; Progressing and Degraded repeat the last two (deprecated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[x_kube(merge_strategy = ListMerge::Map(vec!["type".into()]))]
    pub conditions: Vec<Condition>,
}

/// Phase of a run.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
pub enum RunPhase {
    /// No task has started.
    Pending,
    /// Tasks run.
    Running,
    /// Every task succeeded (or was skipped).
    Succeeded,
    /// A task failed.
    Failed,
}

/// State of one task in a run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskStatus {
    /// The task.
    pub name: String,
    /// queued, running, success, failed, upstream_failed or skipped.
    pub state: TaskState,
    /// How many times the task was started (a cleared task runs again with try number + 1).
    #[serde(default)]
    pub try_number: i32,
    /// When the current try started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<Time>,
    /// How long the current try took, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    /// The pod of the current try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod: Option<String>,
}

/// State of a task instance.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    /// Waiting for its upstream tasks.
    Queued,
    /// Its pod runs.
    Running,
    /// It succeeded (or was marked so).
    Success,
    /// It failed (or was marked so).
    Failed,
    /// An upstream task failed, so it will not run.
    UpstreamFailed,
    /// It was skipped.
    Skipped,
}

/// The `ludis.dev/task` label value (and pod name part) of a task: the task's name when it is a
/// valid label value of at most 40 characters in lowercase, else the name lowercased with other
/// characters as `-`, cut to 31 characters, plus `-` and 8 hex digits of a hash of the name
/// (a DAG file's task ids may have `_`, `.`, capitals and 250 characters). Used by the operator
/// for task pods and by the API to find a task's pods and archived logs.
pub fn task_label(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= 40
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if plain {
        return name.to_owned();
    }
    let mut cleaned = String::with_capacity(31);
    for c in name.chars() {
        if cleaned.len() == 31 {
            break;
        }
        let c = c.to_ascii_lowercase();
        cleaned.push(if c.is_ascii_lowercase() || c.is_ascii_digit() {
            c
        } else {
            '-'
        });
    }
    let cleaned = cleaned.trim_matches('-');
    // FNV-1a 32: stable across builds and machines.
    let hash = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    if cleaned.is_empty() {
        format!("t-{hash:08x}")
    } else {
        format!("{cleaned}-{hash:08x}")
    }
}

#[cfg(test)]
mod tests {
    use super::task_label;

    #[test]
    fn task_labels_are_valid_label_values_and_keep_plain_names() {
        assert_eq!(task_label("extract"), "extract");
        let dotted = task_label("Extract.EU_data");
        assert!(
            dotted.starts_with("extract-eu-data-") && dotted.len() == 24,
            "{dotted}"
        );
        assert_ne!(task_label("a_b"), task_label("a.b"));
        let long = task_label(&"x".repeat(250));
        assert_eq!(long.len(), 40);
        assert_eq!(task_label("__"), format!("t-{}", &task_label("__")[2..]));
        for name in ["a_b", "A", "-x-", "_", "x".repeat(41).as_str(), "ünï"] {
            let l = task_label(name);
            assert!(
                l.len() <= 40
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            );
            assert!(!l.starts_with('-') && !l.ends_with('-'), "{l}");
        }
    }
}
