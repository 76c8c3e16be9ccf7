//! What a workflow is apart from HTTP and the cluster (docs/contracts/workflows.md): the visual
//! designer's graph and how it becomes the Workflow resource's tasks ([`designer`]), the schedule
//! ([`schedule`]), and the starter DAG file a manual workflow begins with ([`starter`]).

pub mod designer;
pub mod schedule;
pub mod starter;
