//! The rule's two sides agree: [`decide`] (Rust, the API) and [`script`] (shell, the pod) are run
//! on the same files — each framework's hello world as its own documentation writes it — and must
//! pick the same runner; the script runs stand-in programs that print how they were called.

use std::{os::unix::fs::PermissionsExt as _, path::Path, process::Command};

use super::*;

/// Hello worlds as the frameworks' documentation writes them.
const STREAMLIT: &str = "import streamlit as st\n\nst.write(\"Hello world\")\n";
const PANEL: &str = "import panel as pn\n\npn.panel(\"Hello World\").servable()\n";
const GRADIO: &str = "import gradio as gr\n\ndef greet(name, intensity):\n    return \"Hello, \" + name + \"!\" * int(intensity)\n\ndemo = gr.Interface(fn=greet, inputs=[\"text\", \"slider\"], outputs=[\"text\"])\n\ndemo.launch()\n";
const DASH: &str = "from dash import Dash, html\n\napp = Dash()\n\napp.layout = [html.Div(children='Hello World')]\n\nif __name__ == '__main__':\n    app.run(debug=True)\n";
const FASTAPI: &str = "from typing import Union\n\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get(\"/\")\ndef read_root():\n    return {\"Hello\": \"World\"}\n";
const FASTAPI_NAMED: &str = "import fastapi\n\napi: fastapi.FastAPI = fastapi.FastAPI(title=\"x\")\n";
const FLASK: &str = "from flask import Flask\n\napp = Flask(__name__)\n\n@app.route(\"/\")\ndef hello_world():\n    return \"<p>Hello, World!</p>\"\n";
const SCRIPT: &str =
    "import pandas as pd\nprint(pd.__version__)\n# import streamlit (a comment is not an import)\n";
const SHINY: &str = "library(shiny)\n\nui <- fluidPage(\"Hello, world!\")\nserver <- function(input, output, session) {}\nshinyApp(ui, server)\n";
const R_SCRIPT: &str = "library(dplyr)\nprint(\"hello\")\n";

/// (file, text, runner, what the pod runs: the stand-in's name and arguments).
fn cases() -> Vec<(&'static str, &'static str, Runner, &'static str)> {
    vec![
        (
            "app.py",
            STREAMLIT,
            Runner::Streamlit,
            "streamlit run app.py --server.port 8080 --server.address 0.0.0.0",
        ),
        (
            "app.py",
            PANEL,
            Runner::Panel,
            "panel serve app.py --address 0.0.0.0 --port 8080 --allow-websocket-origin *",
        ),
        (
            "app.py",
            GRADIO,
            Runner::Gradio,
            "python app.py GRADIO_SERVER_NAME=0.0.0.0 GRADIO_SERVER_PORT=8080",
        ),
        ("app.py", DASH, Runner::Dash, "python app.py HOST=0.0.0.0"),
        (
            "main.py",
            FASTAPI,
            Runner::FastApi,
            "uvicorn --app-dir . main:app --host 0.0.0.0 --port 8080 --proxy-headers --forwarded-allow-ips *",
        ),
        (
            "svc/api.py",
            FASTAPI_NAMED,
            Runner::FastApi,
            "uvicorn --app-dir svc api:api --host 0.0.0.0 --port 8080 --proxy-headers --forwarded-allow-ips *",
        ),
        (
            "hello.py",
            FLASK,
            Runner::Flask,
            "flask --app hello.py run --host 0.0.0.0 --port 8080",
        ),
        ("job.py", SCRIPT, Runner::Python, "python job.py"),
        (
            "app.R",
            SHINY,
            Runner::Shiny,
            "Rscript -e shiny::runApp(Sys.getenv(\"LUDIS_ENTRY\"), host = \"0.0.0.0\", port = as.integer(Sys.getenv(\"PORT\")), launch.browser = FALSE) LUDIS_ENTRY=app.R",
        ),
        ("etl.R", R_SCRIPT, Runner::R, "Rscript etl.R"),
        (
            "report.Rmd",
            "---\ntitle: x\n---\n",
            Runner::RMarkdown,
            "Rscript -e rmarkdown::render(Sys.getenv(\"LUDIS_ENTRY\"), output_dir = Sys.getenv(\"LUDIS_OUTPUT_DIR\", \".\"), intermediates_dir = tempdir()) LUDIS_ENTRY=report.Rmd",
        ),
        (
            "review.ipynb",
            "{}",
            Runner::Notebook,
            "jupyter nbconvert --execute --to html --output-dir . review.ipynb",
        ),
    ]
}

/// Stand-ins for the programs the script may run: each prints its name, its arguments and the
/// variables a framework reads, one line.
fn stand_ins(dir: &Path) {
    for name in [
        "streamlit",
        "panel",
        "python",
        "python3",
        "uvicorn",
        "flask",
        "Rscript",
        "jupyter",
    ] {
        let path = dir.join(name);
        let body = format!(
            "#!/bin/sh\nline=\"{name} $*\"\nfor v in GRADIO_SERVER_NAME GRADIO_SERVER_PORT HOST; do eval \"x=\\${{$v:-}}\"; [ -n \"$x\" ] && line=\"$line $v=$x\"; done\ncase \"$*\" in *Sys.getenv*) line=\"$line LUDIS_ENTRY=$LUDIS_ENTRY\";; esac\necho \"RAN $line\"\n"
        );
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Runs the pod's script in a folder holding `files`, with the entry `entry` (none: the script
/// picks), and returns what it ran (`RAN …`) or said.
fn pod_runs(
    purpose: Purpose,
    supervision: Supervision,
    files: &[(&str, &str)],
    entry: Option<&str>,
) -> String {
    let work = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    stand_ins(bin.path());
    for (name, text) in files {
        let path = work.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let args = script(purpose, supervision);
    let mut cmd = Command::new(&args[0]);
    cmd.args(&args[1..])
        .current_dir(work.path())
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .env("PORT", "8080");
    if let Some(entry) = entry {
        cmd.env(ENTRY_VARIABLE, entry);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .find_map(|l| l.strip_prefix("RAN "))
        .map(str::to_owned)
        .unwrap_or(text)
}

#[test]
fn the_api_and_the_pod_decide_alike_for_every_framework() {
    for (file, text, runner, ran) in cases() {
        let purpose = Purpose::Serve;
        let launch = decide(purpose, file, text);
        assert_eq!(launch.runner, runner, "{file}: {text}");
        assert_eq!(
            pod_runs(purpose, Supervision::Exec, &[(file, text)], Some(file)),
            ran,
            "{file} ({runner:?})"
        );
    }
}

#[test]
fn what_the_user_is_shown() {
    let shown = |file, text| decide(Purpose::Serve, file, text).command;
    assert_eq!(shown("app.py", STREAMLIT), "streamlit run app.py");
    assert_eq!(shown("main.py", FASTAPI), "uvicorn main:app");
    assert_eq!(
        shown("svc/api.py", FASTAPI_NAMED),
        "uvicorn --app-dir svc api:api"
    );
    assert_eq!(shown("hello.py", FLASK), "flask --app hello.py run");
    assert_eq!(shown("job.py", SCRIPT), "python job.py");
    assert_eq!(shown("my app.py", DASH), "python 'my app.py'");
    assert_eq!(shown("app.R", SHINY), "shiny::runApp(\"app.R\")");
    assert_eq!(Runner::FastApi.label(), "FastAPI");
}

#[test]
fn a_report_runs_its_program_even_when_it_imports_a_framework() {
    assert_eq!(decide(Purpose::Render, "a.py", STREAMLIT).runner, Runner::Python);
    assert_eq!(decide(Purpose::Render, "a.R", SHINY).runner, Runner::R);
    assert_eq!(decide(Purpose::Render, "r.Rmd", "").runner, Runner::RMarkdown);
    assert_eq!(
        pod_runs(
            Purpose::Render,
            Supervision::Exec,
            &[("a.py", STREAMLIT)],
            Some("a.py")
        ),
        "python a.py"
    );
}

#[test]
fn without_a_chosen_file_the_first_candidate_runs() {
    let files = [("main.py", SCRIPT), ("app.py", FLASK)];
    assert_eq!(
        pod_runs(Purpose::Serve, Supervision::Exec, &files, None),
        "flask --app app.py run --host 0.0.0.0 --port 8080"
    );
    assert_eq!(
        pod_runs(Purpose::Serve, Supervision::Exec, &[("notes.txt", "")], None),
        "python3 -m http.server 8080"
    );
}

#[test]
fn a_missing_or_strange_entry_says_why_and_runs_nothing() {
    let said = pod_runs(
        Purpose::Serve,
        Supervision::Exec,
        &[("app.py", STREAMLIT)],
        Some("gone.py"),
    );
    assert!(
        said.contains("the entry file gone.py is not in this revision"),
        "{said}"
    );
    // A name made to break out of the script is only ever a quoted value.
    let evil = "x\"; touch pwned; echo \".py";
    let said = pod_runs(Purpose::Serve, Supervision::Exec, &[(evil, SCRIPT)], Some(evil));
    assert_eq!(said, format!("python {evil}"));
}

#[test]
fn entry_files_stay_inside_the_workspace() {
    for ok in ["app.py", "src/app.py", "report.Rmd", "a b.R", "n.ipynb"] {
        assert!(valid_entry(ok), "{ok}");
    }
    for bad in [
        "",
        "/etc/passwd.py",
        "../x.py",
        "a/../x.py",
        ".git/hooks/x.py",
        "a//b.py",
        "x.sh",
        "a\n.py",
        "a\\b.py",
    ] {
        assert!(!valid_entry(bad), "{bad:?}");
    }
}

#[test]
fn imports_are_told_from_lookalikes() {
    for (text, runner) in [
        ("import streamlit.components.v1 as c\n", Runner::Streamlit),
        ("  from streamlit import write\n", Runner::Streamlit),
        ("import streamlitx\n", Runner::Python),
        ("import dashboard\n", Runner::Python),
        ("import dash_bootstrap_components\n", Runner::Python),
        ("from dash.dependencies import Input\n", Runner::Dash),
        ("import flask, os\n", Runner::Flask),
        ("x = 'import flask'\n", Runner::Python),
    ] {
        assert_eq!(decide(Purpose::Serve, "a.py", text).runner, runner, "{text}");
        let ran = pod_runs(Purpose::Serve, Supervision::Exec, &[("a.py", text)], Some("a.py"));
        let pod = ran.split(' ').next().unwrap_or_default();
        let expected = match runner {
            Runner::Streamlit => "streamlit",
            Runner::Flask => "flask",
            _ => "python",
        };
        assert_eq!(pod, expected, "{text}: {ran}");
    }
    for (text, runner) in [
        ("require(shiny)\n", Runner::Shiny),
        ("library(\"shiny\")\n", Runner::Shiny),
        ("x <- shiny::fluidPage()\n", Runner::Shiny),
        ("library(shinyjs)\n", Runner::R),
        ("myshinyApp <- 1\n", Runner::R),
    ] {
        assert_eq!(decide(Purpose::Serve, "a.R", text).runner, runner, "{text}");
    }
}

#[test]
fn jupyterlab_takes_the_images_page_template_only_where_the_image_has_it() {
    let args = jupyterlab_args("/");
    let bin = tempfile::tempdir().unwrap();
    stand_ins(bin.path());
    let out = Command::new(&args[0])
        .args(&args[1..])
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let ran = text
        .lines()
        .find_map(|l| l.strip_prefix("RAN "))
        .unwrap_or_default();
    assert!(ran.starts_with("jupyter lab --no-browser"), "{text}");
    assert!(ran.contains("--ServerApp.base_url=/"), "{ran}");
    // This machine has no Ludis image's template folder.
    assert!(!Path::new(JUPYTERLAB_TEMPLATES).exists());
    assert!(!ran.contains("templates_dir"), "{ran}");
    assert!(args[2].contains(&format!("t={JUPYTERLAB_TEMPLATES};")));
    // Jupyter's own origin checks stay on: no wildcard, the proxy's token through Ludis's provider.
    assert!(!ran.contains("allow_origin"), "{ran}");
    assert!(
        ran.contains("--ServerApp.identity_provider_class=ludis_identity.ProxyIdentityProvider"),
        "{ran}"
    );
}

#[test]
fn jupyterlab_finds_the_identity_provider_written_at_its_start() {
    let args = jupyterlab_args("/");
    let bin = tempfile::tempdir().unwrap();
    // A stand-in that prints the module Python would import first.
    let jupyter = bin.path().join("jupyter");
    std::fs::write(
        &jupyter,
        "#!/bin/sh\ncat \"${PYTHONPATH%%:*}/ludis_identity.py\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&jupyter, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(&args[0])
        .args(&args[1..])
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.path().display()))
        .env("PYTHONPATH", "/elsewhere")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let module = text.split_once('\n').map(|(_, rest)| rest).unwrap_or_default();
    assert_eq!(module, JUPYTER_IDENTITY, "{text}");
}
