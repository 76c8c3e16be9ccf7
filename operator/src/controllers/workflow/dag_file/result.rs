//! Reading what `ludis.parse` printed (pure): the last line starting with [`MARKER`] holds the
//! DAG or the import error. The operator checks the DAG again (task ids, sizes, cycles): the
//! file is the user's code, and its output is only data.

use ludis_crds::workflow::{Edge, ParsedDag, ParsedTask};
use serde::Deserialize;

use super::super::dag::Dag;

/// The line prefix of the result (`MARKER` in ludis/parse.py).
pub const MARKER: &str = "::ludis-dag::";
/// At most this many tasks and edges (as the CRD allows).
const MAX_TASKS: usize = 1000;
const MAX_EDGES: usize = 5000;
/// How much of an import error is kept.
const MAX_ERROR: usize = 8 * 1024;

/// What reading a DAG file gave.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseOutcome {
    Dag(ParsedDag),
    /// Why the file cannot run (the import error, or what the operator refused).
    Broken(String),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
enum Printed {
    Dag(PrintedDag),
    Error(PrintedError),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PrintedDag {
    dag_id: String,
    schedule: Option<String>,
    tasks: Vec<ParsedTask>,
    edges: Vec<Edge>,
}

#[derive(Deserialize)]
struct PrintedError {
    #[serde(rename = "type")]
    type_: String,
    message: String,
    file: Option<String>,
    line: Option<u32>,
    traceback: Option<String>,
}

/// The outcome printed in `log`, the DAG read at `revision`.
pub fn read_log(log: &str, revision: Option<&str>) -> ParseOutcome {
    let Some(json) = log.lines().rev().find_map(|l| l.strip_prefix(MARKER)) else {
        let tail: Vec<&str> = log.lines().rev().take(10).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return ParseOutcome::Broken(cut(format!(
            "the DAG file could not be read: the parser printed no result{}",
            if tail.is_empty() {
                String::new()
            } else {
                format!("; its output ends with:\n{}", tail.join("\n"))
            }
        )));
    };
    match serde_json::from_str::<Printed>(json) {
        Err(e) => ParseOutcome::Broken(format!(
            "the DAG file could not be read: the parser's result is not valid ({e})"
        )),
        Ok(Printed::Error(e)) => ParseOutcome::Broken(cut(describe_error(&e))),
        Ok(Printed::Dag(d)) => match check(&d) {
            Err(why) => ParseOutcome::Broken(why),
            Ok(()) => ParseOutcome::Dag(ParsedDag {
                source: None,
                revision: revision.map(str::to_owned),
                dag_id: Some(d.dag_id),
                schedule: d.schedule,
                tasks: d.tasks,
                edges: d.edges,
            }),
        },
    }
}

/// `Type: message (file, line N)`, a blank line, the traceback's last lines.
fn describe_error(e: &PrintedError) -> String {
    let mut text = format!("{}: {}", e.type_, e.message);
    match (&e.file, e.line) {
        (Some(file), Some(line)) => text.push_str(&format!(" ({file}, line {line})")),
        (Some(file), None) => text.push_str(&format!(" ({file})")),
        _ => {}
    }
    if let Some(tb) = e.traceback.as_deref().filter(|t| !t.is_empty()) {
        text.push_str("\n\n");
        text.push_str(tb);
    }
    text
}

/// The DAG as the CRD and the runs need it: valid task ids, within the limits, no cycle.
fn check(d: &PrintedDag) -> Result<(), String> {
    if d.tasks.is_empty() {
        return Err(format!("the DAG {:?} has no tasks", d.dag_id));
    }
    if d.tasks.len() > MAX_TASKS || d.edges.len() > MAX_EDGES {
        return Err(format!(
            "the DAG {:?} has {} tasks and {} dependencies; at most {MAX_TASKS} and {MAX_EDGES}",
            d.dag_id,
            d.tasks.len(),
            d.edges.len()
        ));
    }
    for t in &d.tasks {
        let valid = (1..=250).contains(&t.name.len())
            && t.name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !valid || t.operator.len() > 100 {
            return Err(format!("the task id {:?} is not valid", t.name));
        }
    }
    let names: Vec<String> = d.tasks.iter().map(|t| t.name.clone()).collect();
    Dag::of_names(&names, &d.edges).map(|_| ())
}

fn cut(mut text: String) -> String {
    if text.len() > MAX_ERROR {
        let mut end = MAX_ERROR;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_result_line_wins_and_the_dag_is_checked_again() {
        let log = "::ludis-dag::{\"dag\":{\"dagId\":\"fake\",\"schedule\":null,\"tasks\":[],\"edges\":[]}}\n\
            user output\n\
            ::ludis-dag::{\"dag\":{\"dagId\":\"d\",\"schedule\":\"@daily\",\"tasks\":[{\"name\":\"a\",\"operator\":\"BashOperator\"},{\"name\":\"b.c\",\"operator\":\"task\"}],\"edges\":[{\"from\":\"a\",\"to\":\"b.c\"}]}}\n";
        let ParseOutcome::Dag(d) = read_log(log, Some("abc")) else {
            panic!()
        };
        assert_eq!(
            (d.dag_id.as_deref(), d.revision.as_deref()),
            (Some("d"), Some("abc"))
        );
        assert_eq!(d.tasks.len(), 2);
        let cycle = "::ludis-dag::{\"dag\":{\"dagId\":\"d\",\"schedule\":null,\"tasks\":[{\"name\":\"a\",\"operator\":\"x\"},{\"name\":\"b\",\"operator\":\"x\"}],\"edges\":[{\"from\":\"a\",\"to\":\"b\"},{\"from\":\"b\",\"to\":\"a\"}]}}";
        assert_eq!(
            read_log(cycle, None),
            ParseOutcome::Broken("the tasks form a cycle through a, b".into())
        );
        let bad = "::ludis-dag::{\"dag\":{\"dagId\":\"d\",\"schedule\":null,\"tasks\":[{\"name\":\"a b\",\"operator\":\"x\"}],\"edges\":[]}}";
        assert_eq!(
            read_log(bad, None),
            ParseOutcome::Broken("the task id \"a b\" is not valid".into())
        );
    }

    #[test]
    fn no_result_says_what_the_output_ended_with() {
        let ParseOutcome::Broken(why) = read_log("Traceback\nImportError: no python\n", None) else {
            panic!()
        };
        assert!(why.starts_with("the DAG file could not be read: the parser printed no result"));
        assert!(why.ends_with("ImportError: no python"), "{why}");
    }
}
