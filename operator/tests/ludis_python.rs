//! The `ludis` Python package (operator/python) run by the real Python: DAG files in the Airflow
//! idioms are read into the DAG the operator stores, files it refuses say why (by name), and
//! `ludis.run` executes one task with its exit code. Needs `python3` (3.10 or later) on the PATH.

use std::{path::PathBuf, process::Command};

use ludis_operator::controllers::workflow::dag_file::result::{ParseOutcome, read_log};

fn python(args: &[&str]) -> (i32, String, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args(args)
        .env("PYTHONPATH", root.join("python"))
        // No __pycache__ in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("LUDIS_RUN", "nightly-manual-1")
        .env("LUDIS_TRY", "2")
        .current_dir(root.join("tests"))
        .output()
        .expect("python3 is installed");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What the operator reads from `ludis.parse`'s output for a fixture of tests/dags/.
fn parse(file: &str) -> ParseOutcome {
    let (code, stdout, stderr) = python(&["-m", "ludis.parse", &format!("dags/{file}")]);
    assert_eq!(code, 0, "ludis.parse {file}: {stderr}");
    read_log(&stdout, Some("abc123"))
}

fn dag(file: &str) -> ludis_crds::workflow::ParsedDag {
    match parse(file) {
        ParseOutcome::Dag(d) => d,
        ParseOutcome::Broken(why) => panic!("{file} is broken: {why}"),
    }
}

fn broken(file: &str) -> String {
    match parse(file) {
        ParseOutcome::Broken(why) => why,
        ParseOutcome::Dag(d) => panic!("{file} parsed: {d:?}"),
    }
}

fn tasks(d: &ludis_crds::workflow::ParsedDag) -> Vec<(&str, &str)> {
    d.tasks
        .iter()
        .map(|t| (t.name.as_str(), t.operator.as_str()))
        .collect()
}

fn edges(d: &ludis_crds::workflow::ParsedDag) -> Vec<(&str, &str)> {
    let mut e: Vec<_> = d.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())).collect();
    e.sort();
    e
}

#[test]
fn a_classic_dag_file_is_read_with_its_operators_and_lists_in_dependencies() {
    let d = dag("classic.py");
    assert_eq!(d.dag_id.as_deref(), Some("sales_daily"));
    assert_eq!(d.schedule.as_deref(), Some("0 6 * * *"));
    assert_eq!(d.revision.as_deref(), Some("abc123"));
    assert_eq!(
        tasks(&d),
        [
            ("start", "EmptyOperator"),
            ("extract.eu", "BashOperator"),
            ("extract_us", "BashOperator"),
            ("transform", "PythonOperator"),
            ("report", "BashOperator")
        ]
    );
    assert_eq!(
        edges(&d),
        [
            ("extract.eu", "transform"),
            ("extract_us", "transform"),
            ("start", "extract.eu"),
            ("start", "extract_us"),
            ("transform", "report")
        ]
    );
}

#[test]
fn taskflow_decorators_old_module_paths_chain_and_cross_downstream_are_read() {
    let d = dag("decorators.py");
    assert_eq!(d.dag_id.as_deref(), Some("taskflow_demo"));
    assert_eq!(d.schedule.as_deref(), Some("@daily"));
    assert_eq!(
        tasks(&d),
        [
            ("begin", "DummyOperator"),
            ("fetch", "task"),
            ("fit-model", "task"),
            ("notify", "BashOperator"),
            ("publish", "PythonOperator"),
            ("archive", "BashOperator")
        ]
    );
    assert_eq!(
        edges(&d),
        [
            ("begin", "fetch"),
            ("fetch", "fit-model"),
            ("fit-model", "notify"),
            ("fit-model", "publish"),
            ("notify", "archive"),
            ("publish", "archive")
        ]
    );
    // Airflow 3's airflow.sdk, `dag=` on each task, no schedule.
    let sdk = dag("sdk.py");
    assert_eq!(
        (sdk.dag_id.as_deref(), sdk.schedule.as_deref()),
        (Some("sdk_style"), None)
    );
    assert_eq!(edges(&sdk), [("one", "three"), ("one", "two")]);
}

#[test]
fn an_import_error_is_the_exception_with_where_it_happened() {
    let why = broken("import_error.py");
    assert!(
        why.starts_with("NameError: name 'missing_helper' is not defined (dags/import_error.py, line 6)"),
        "{why}"
    );
    assert!(
        why.contains("missing_helper()"),
        "the traceback's last lines: {why}"
    );
}

#[test]
fn what_ludis_does_not_run_is_refused_by_name() {
    let cases = [
        (
            "refused.py",
            "NotSupportedError: KubernetesPodOperator is not supported by Ludis; use BashOperator, PythonOperator, EmptyOperator or @task (dags/refused.py, line 2)",
        ),
        ("cycle.py", "DagError: the tasks form a cycle through a, b, c"),
        (
            "two_dags.py",
            "DagError: the file declares 2 DAGs (first, second); Ludis runs one DAG per file: put each in a workflow of its own",
        ),
        (
            "no_dag.py",
            "DagError: the file declares no DAG (make one with `with DAG(...)` or `@dag`)",
        ),
        (
            "bad_task_id.py",
            "DagError: the task id 'has space' is not valid: use 1 to 250 letters, digits, '_', '-' or '.' (dags/bad_task_id.py, line 5)",
        ),
        (
            "duplicate.py",
            "DagError: the task id 'same' is used twice in the DAG 'dup' (dags/duplicate.py, line 6)",
        ),
        (
            "xcom.py",
            "NotSupportedError: the task 'consume' takes the return value of the task 'produce' (XCom): Ludis does not pass values between tasks; make the dependency with produce >> consume and share data through files (e.g. in a dataset) (dags/xcom.py, line 14)",
        ),
    ];
    for (file, first_line) in cases {
        let why = broken(file);
        assert_eq!(why.lines().next(), Some(first_line), "{file}: {why}");
    }
}

#[test]
fn a_task_runs_with_its_context_and_its_exit_code() {
    // A Bash task: its output, a rendered template, the exit code of the command.
    let (code, out, _) = python(&["-m", "ludis.run", "dags/run_me.py", "shout"]);
    assert_eq!(
        (code, out.lines().last()),
        (0, Some("run nightly-manual-1 try 2"))
    );
    let (code, _, _) = python(&["-m", "ludis.run", "dags/run_me.py", "fail"]);
    assert_eq!(code, 7);
    // A Python callable with op_args, op_kwargs and the context it asks for.
    let (code, out, _) = python(&["-m", "ludis.run", "dags/run_me.py", "add"]);
    assert_eq!(code, 0);
    assert!(out.contains("sum 5 in nightly-manual-1 try 2\n"), "{out}");
    // A @task function; one that raises fails with its traceback.
    let (code, out, _) = python(&["-m", "ludis.run", "dags/run_me.py", "hello"]);
    assert_eq!((code, out.contains("hello from a task\n")), (0, true), "{out}");
    let (code, _, err) = python(&["-m", "ludis.run", "dags/run_me.py", "explode"]);
    assert_eq!(code, 1);
    assert!(err.contains("ValueError: boom"), "{err}");
    let (code, _, err) = python(&["-m", "ludis.run", "dags/run_me.py", "nope"]);
    assert_eq!(code, 1);
    assert!(err.contains("has no task 'nope'"), "{err}");
}
