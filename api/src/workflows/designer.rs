//! The visual designer's graph (spec 001 §3 "Designer node/edge", §4 "Designer"): nodes and
//! edges as the console draws them, the rules checked at save ([`check_graph`]: limits, edges
//! between existing nodes, no self-connection, no cycle), and the tasks a publish applies
//! ([`tasks`]: each node named by its label, each edge a dependency).

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::NodeTaskType;

/// At most this many nodes and edges (the Workflow resource's limits).
pub const MAX_NODES: usize = 100;
pub const MAX_EDGES: usize = 500;
/// A task name's most characters (a DNS label part).
const TASK_NAME_MAX: usize = 40;
/// Text fields of a node: most characters.
const FIELD_MAX: usize = 1024;

pub const CYCLES: &str = "Cycles are not allowed";

/// One node of the canvas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DesignerNode {
    pub id: String,
    /// Always `taskNode`.
    #[serde(rename = "type", default = "task_node")]
    pub kind: String,
    #[serde(default)]
    pub position: NodePosition,
    #[serde(default)]
    pub data: NodeData,
}

fn task_node() -> String {
    "taskNode".into()
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NodePosition {
    pub x: f64,
    pub y: f64,
}

/// What a node is: its label and, once configured, its task.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NodeData {
    #[serde(default)]
    pub label: String,
    /// Null while the node is empty.
    #[serde(default)]
    #[schema(required)]
    pub task_type: Option<NodeTaskType>,
    #[serde(default)]
    pub task_data: TaskData,
}

/// A script task's `{fileName, image, installScript?}` or an upload task's `{fileName,
/// datasetID, datasetName, datasetDestination, datasetPath}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskData {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    /// Script: an image id of the administrator's list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Script: run first; ends in .sh.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub install_script: Option<String>,
    /// Script: an id of the administrator's size list (`GET /v2/cluster/sizes/list`); unset: the
    /// list's default for workflow tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Upload: the destination dataset's id.
    #[serde(default, rename = "datasetID", skip_serializing_if = "Option::is_none")]
    pub dataset_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_destination: Option<String>,
    /// Upload: the folder inside the dataset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset_path: Option<String>,
}

/// A connection: `target` runs after `source`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DesignerEdge {
    pub id: String,
    pub source: String,
    pub target: String,
}

/// Pure: the rules every saved graph keeps; the message of the first broken one.
pub fn check_graph(nodes: &[DesignerNode], edges: &[DesignerEdge]) -> Result<(), String> {
    if nodes.len() > MAX_NODES {
        return Err(format!("A workflow has at most {MAX_NODES} tasks"));
    }
    if edges.len() > MAX_EDGES {
        return Err(format!("A workflow has at most {MAX_EDGES} connections"));
    }
    let mut ids = HashSet::new();
    for n in nodes {
        if n.id.trim().is_empty() || n.id.len() > 200 {
            return Err("Every task needs an id".into());
        }
        if !ids.insert(n.id.as_str()) {
            return Err(format!("Two tasks have the id '{}'", n.id));
        }
        let d = &n.data.task_data;
        let fields = [
            Some(&n.data.label),
            d.file_name.as_ref(),
            d.image.as_ref(),
            d.install_script.as_ref(),
            d.size.as_ref(),
            d.dataset_id.as_ref(),
            d.dataset_name.as_ref(),
            d.dataset_destination.as_ref(),
            d.dataset_path.as_ref(),
        ];
        if fields
            .into_iter()
            .flatten()
            .any(|f| f.chars().count() > FIELD_MAX)
        {
            return Err(format!("At most {FIELD_MAX} characters are allowed"));
        }
    }
    for e in edges {
        if !ids.contains(e.source.as_str()) || !ids.contains(e.target.as_str()) {
            return Err("Every connection must join two tasks of this workflow".into());
        }
        if e.source == e.target {
            return Err(CYCLES.into());
        }
    }
    if has_cycle(nodes, edges) {
        return Err(CYCLES.into());
    }
    Ok(())
}

/// Pure: whether the edges close a cycle (Kahn's algorithm leaves a node unvisited).
fn has_cycle(nodes: &[DesignerNode], edges: &[DesignerEdge]) -> bool {
    let mut indegree: HashMap<&str, usize> = nodes.iter().map(|n| (n.id.as_str(), 0)).collect();
    let mut next: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in edges {
        *indegree.entry(e.target.as_str()).or_default() += 1;
        next.entry(e.source.as_str()).or_default().push(e.target.as_str());
    }
    let mut ready: Vec<&str> = indegree
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(n, _)| *n)
        .collect();
    let mut seen = 0;
    while let Some(n) = ready.pop() {
        seen += 1;
        for m in next.get(n).into_iter().flatten() {
            let d = indegree.get_mut(m).expect("edges join known nodes");
            *d -= 1;
            if *d == 0 {
                ready.push(m);
            }
        }
    }
    seen < indegree.len()
}

/// Pure: a task's name from its label: lowercased, runs of other characters → `-`, at most 40
/// characters, no `-` at either end (`Clean data!` → `clean-data`); `None` when nothing is left.
pub fn task_name(label: &str) -> Option<String> {
    let mut out = String::new();
    for c in label.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let mut out: String = out.chars().take(TASK_NAME_MAX).collect();
    while out.ends_with('-') {
        out.pop();
    }
    (!out.is_empty()).then_some(out)
}

/// A dependency `(from, to)` between two tasks, by name: `to` runs after `from`.
pub type Dependency = (String, String);

/// One task as the Workflow resource has it (`spec.tasks[]`), before the dataset's resource name
/// is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub name: String,
    pub file: String,
    pub work: Work,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    Script {
        image: String,
        install_script: Option<String>,
        /// The task's hardware size (None: the list's default).
        size: Option<String>,
    },
    Upload {
        /// The dataset's asset id (the caller needs edit on it).
        dataset_id: String,
        destination_path: String,
    },
}

fn trimmed(v: Option<&String>) -> Option<&str> {
    v.map(|s| s.trim()).filter(|s| !s.is_empty())
}

fn has_extension(file: &str) -> bool {
    file.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && !stem.ends_with('/')
            && !ext.is_empty()
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// Pure: whether a path stays inside its root (relative, no `..`).
fn inside(path: &str) -> bool {
    !path.starts_with('/') && !path.split('/').any(|p| p == "..") && !path.contains('\0')
}

/// Pure: the tasks and dependencies of a checked graph ([`check_graph`]), or why it cannot be
/// published (an unconfigured node, a bad file, two tasks of one name).
pub fn tasks(nodes: &[DesignerNode], edges: &[DesignerEdge]) -> Result<(Vec<Task>, Vec<Dependency>), String> {
    check_graph(nodes, edges)?;
    if nodes.is_empty() {
        return Err("Please add a task to the workflow".into());
    }
    let mut names: HashMap<&str, String> = HashMap::new();
    let mut taken = HashSet::new();
    let mut out = Vec::with_capacity(nodes.len());
    for n in nodes {
        let label = n.data.label.trim();
        let shown = if label.is_empty() { n.id.as_str() } else { label };
        let name = task_name(label).ok_or_else(|| format!("Please name the task '{shown}'"))?;
        if !taken.insert(name.clone()) {
            return Err(format!("Two tasks are named '{name}'"));
        }
        let d = &n.data.task_data;
        let Some(kind) = n.data.task_type else {
            return Err(format!("The task '{shown}' is not configured"));
        };
        let file = trimmed(d.file_name.as_ref()).ok_or_else(|| format!("The task '{shown}' needs a file"))?;
        if !inside(file) {
            return Err(format!("The task '{shown}': the file must be inside the project"));
        }
        let work = match kind {
            NodeTaskType::Script => {
                let lower = file.to_lowercase();
                if ![".py", ".r", ".rmd"].iter().any(|e| lower.ends_with(e)) {
                    return Err(format!("The task '{shown}': File must end in .r, .py, or .rmd"));
                }
                let image =
                    trimmed(d.image.as_ref()).ok_or_else(|| format!("The task '{shown}' needs an image"))?;
                let install_script = trimmed(d.install_script.as_ref()).map(str::to_owned);
                if let Some(s) = &install_script
                    && (!s.ends_with(".sh") || !inside(s))
                {
                    return Err(format!("The task '{shown}': the install script must end in .sh"));
                }
                Work::Script {
                    image: image.to_owned(),
                    install_script,
                    size: trimmed(d.size.as_ref()).map(str::to_owned),
                }
            }
            NodeTaskType::Upload => {
                if !has_extension(file) {
                    return Err(format!(
                        "The task '{shown}': Please enter a valid file name with an extension"
                    ));
                }
                let dataset_id = trimmed(d.dataset_id.as_ref())
                    .ok_or_else(|| format!("The task '{shown}' needs a dataset"))?;
                let destination_path = trimmed(d.dataset_path.as_ref())
                    .unwrap_or_default()
                    .trim_matches('/')
                    .to_owned();
                if !inside(&destination_path) {
                    return Err(format!(
                        "The task '{shown}': the folder must stay inside the dataset"
                    ));
                }
                Work::Upload {
                    dataset_id: dataset_id.to_owned(),
                    destination_path,
                }
            }
        };
        names.insert(n.id.as_str(), name.clone());
        out.push(Task {
            name,
            file: file.to_owned(),
            work,
        });
    }
    let deps = edges
        .iter()
        .map(|e| (names[e.source.as_str()].clone(), names[e.target.as_str()].clone()))
        .collect();
    Ok((out, deps))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, label: &str, kind: Option<NodeTaskType>, data: TaskData) -> DesignerNode {
        DesignerNode {
            id: id.into(),
            kind: task_node(),
            position: NodePosition::default(),
            data: NodeData {
                label: label.into(),
                task_type: kind,
                task_data: data,
            },
        }
    }

    fn script(id: &str, label: &str, file: &str) -> DesignerNode {
        node(
            id,
            label,
            Some(NodeTaskType::Script),
            TaskData {
                file_name: Some(file.into()),
                image: Some("python-3.12".into()),
                ..TaskData::default()
            },
        )
    }

    fn edge(s: &str, t: &str) -> DesignerEdge {
        DesignerEdge {
            id: format!("{s}-{t}"),
            source: s.into(),
            target: t.into(),
        }
    }

    #[test]
    fn the_console_shape_reads_and_writes_back() {
        let json = serde_json::json!({"id": "1", "type": "taskNode", "position": {"x": 1.5, "y": 2.5},
            "data": {"label": "Load", "taskType": "upload", "taskData": {"fileName": "a.csv",
            "datasetID": "d1", "datasetName": "Sales", "datasetDestination": "d", "datasetPath": "in"}}});
        let n: DesignerNode = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(n.data.task_data.dataset_id.as_deref(), Some("d1"));
        assert_eq!(serde_json::to_value(&n).unwrap(), json);
        let empty: DesignerNode = serde_json::from_value(
            serde_json::json!({"id": "2", "data": {"label": "", "taskType": null, "taskData": {}}}),
        )
        .unwrap();
        assert_eq!(empty.data.task_type, None);
    }

    #[test]
    fn cycles_and_self_connections_are_refused() {
        let nodes = [
            script("a", "A", "a.py"),
            script("b", "B", "b.py"),
            script("c", "C", "c.py"),
        ];
        assert_eq!(check_graph(&nodes, &[edge("a", "b"), edge("b", "c")]), Ok(()));
        assert_eq!(
            check_graph(&nodes, &[edge("a", "b"), edge("b", "c"), edge("c", "a")]),
            Err(CYCLES.into())
        );
        assert_eq!(check_graph(&nodes, &[edge("a", "a")]), Err(CYCLES.into()));
        assert!(check_graph(&nodes, &[edge("a", "zz")]).is_err());
    }

    #[test]
    fn labels_become_task_names() {
        assert_eq!(task_name("Clean data!").as_deref(), Some("clean-data"));
        assert_eq!(task_name("  --Étape 2--").as_deref(), Some("tape-2"));
        assert_eq!(task_name("***"), None);
        assert_eq!(task_name(&"x".repeat(60)).map(|n| n.len()), Some(40));
    }

    #[test]
    fn a_graph_becomes_tasks_or_says_what_is_missing() {
        let nodes = [
            script("a", "Extract", "etl/extract.py"),
            script("b", "Report", "report.Rmd"),
        ];
        let (tasks, deps) = tasks(&nodes, &[edge("a", "b")]).unwrap();
        assert_eq!(tasks[0].name, "extract");
        assert_eq!(deps, [("extract".to_owned(), "report".to_owned())]);

        let empty = [node("n1", "Later", None, TaskData::default())];
        assert_eq!(
            super::tasks(&empty, &[]),
            Err("The task 'Later' is not configured".into())
        );
        let twice = [script("a", "Load", "a.py"), script("b", "load", "b.py")];
        assert_eq!(
            super::tasks(&twice, &[]),
            Err("Two tasks are named 'load'".into())
        );
        let bad = [script("a", "Load", "a.txt")];
        assert_eq!(
            super::tasks(&bad, &[]),
            Err("The task 'Load': File must end in .r, .py, or .rmd".into())
        );
        let escape = [script("a", "Load", "../a.py")];
        assert!(super::tasks(&escape, &[]).is_err());
    }
}
