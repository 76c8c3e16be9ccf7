//! What runs a workload's entry file: **one rule** for a project's preview, a published
//! application and a report's render (a legacy notebook project runs JupyterLab, see
//! [`Runner::JupyterLab`]). The rule is decided in two places from the same table, so they cannot
//! disagree:
//!
//! - by the API, in Rust, from the file's text ([`decide`]), to show the user what Run or Publish
//!   will run (`streamlit run app.py`) before it runs;
//! - in the pod, by the shell script [`script`] writes (the operator puts it in the container), with
//!   the same patterns through `grep -E`, on the files the pod checked out.
//!
//! The rule, for an entry file (chosen by the user; else the first of [`candidates`] that exists):
//!
//! | entry file | when its text matches | runs |
//! |---|---|---|
//! | `*.py` | `import streamlit` / `from streamlit …` | `streamlit run FILE --server.port $PORT --server.address 0.0.0.0` |
//! | | `import panel` | `panel serve FILE --address 0.0.0.0 --port $PORT --allow-websocket-origin '*'` |
//! | | `import gradio` | `python FILE` with `GRADIO_SERVER_NAME=0.0.0.0`, `GRADIO_SERVER_PORT=$PORT` |
//! | | `import dash` | `python FILE` with `HOST=0.0.0.0` (Dash's `app.run()` reads `HOST` and `PORT`) |
//! | | `import fastapi` | `uvicorn MODULE:APP --host 0.0.0.0 --port $PORT --proxy-headers` (`APP`: the name assigned `FastAPI(…)`, else `app`) |
//! | | `import flask` | `flask --app FILE run --host 0.0.0.0 --port $PORT` |
//! | | anything else | `python FILE` |
//! | `*.R` | `library(shiny)`, `shinyApp(`, `shiny::` | `shiny::runApp(FILE, host = "0.0.0.0", port = $PORT)` |
//! | | anything else | `Rscript FILE` |
//! | `*.Rmd` | | `rmarkdown::render(FILE)` into `$LUDIS_OUTPUT_DIR` (reports) |
//! | `*.ipynb` | | `jupyter nbconvert --execute --to html` into `$LUDIS_OUTPUT_DIR` (reports) |
//! | none | | the workspace's files over HTTP (a preview with nothing to run) |
//!
//! Frameworks are served as their own documentation starts them: nothing Ludis-specific is asked
//! of the user's files. Every server listens on `0.0.0.0:$PORT`; the app proxy forwards the
//! browser's `Host`, so a framework's own origin checks (Streamlit's, Bokeh's, Jupyter's) see the
//! page's own origin.
//!
//! File names never enter the script's text: the entry is the environment variable
//! [`ENTRY_VARIABLE`], which the script only quotes.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The environment variable holding the entry file (relative to the working folder) in the pod.
pub const ENTRY_VARIABLE: &str = "LUDIS_ENTRY";

/// What a workload does with its entry file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A web server on `$PORT` (a project's preview, a published application).
    Serve,
    /// A report rendered into `$LUDIS_OUTPUT_DIR`.
    Render,
}

/// What runs the entry file.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Runner {
    Streamlit,
    Panel,
    Gradio,
    Dash,
    FastApi,
    Flask,
    /// A Python script (`python FILE`).
    Python,
    Shiny,
    /// An R script (`Rscript FILE`).
    R,
    /// An R Markdown document rendered (reports).
    RMarkdown,
    /// A Jupyter notebook executed and rendered to HTML (reports).
    Notebook,
    /// JupyterLab on the workspace (legacy notebook projects).
    JupyterLab,
    /// No entry file: the workspace's files served over HTTP.
    Files,
}

impl Runner {
    /// The name people know it by.
    pub fn label(self) -> &'static str {
        match self {
            Self::Streamlit => "Streamlit",
            Self::Panel => "Panel",
            Self::Gradio => "Gradio",
            Self::Dash => "Dash",
            Self::FastApi => "FastAPI",
            Self::Flask => "Flask",
            Self::Python => "Python",
            Self::Shiny => "Shiny",
            Self::R => "R",
            Self::RMarkdown => "R Markdown",
            Self::Notebook => "Jupyter notebook",
            Self::JupyterLab => "JupyterLab",
            Self::Files => "static files",
        }
    }

    /// Whether it serves a web page on `$PORT` (else it is a program that may print and end).
    pub fn serves(self) -> bool {
        !matches!(self, Self::Python | Self::R | Self::RMarkdown | Self::Notebook)
    }
}

/// A framework recognised by a line of its entry file (`grep -E` syntax, also valid for the
/// `regex` crate), tried in this order: the first that matches decides.
struct Detect {
    runner: Runner,
    pattern: &'static str,
}

/// `import NAME`, `import NAME as x`, `import NAME.sub`, `from NAME import …`, `from NAME.sub …`.
macro_rules! python_import {
    ($name:literal) => {
        concat!(
            "^[[:space:]]*(import|from)[[:space:]]+",
            $name,
            "([[:space:].,]|$)"
        )
    };
}

/// Python frameworks. Streamlit, Panel and Gradio first: their apps often also import a server
/// framework they run on; Dash before Flask, which it is built on.
const PYTHON: &[Detect] = &[
    Detect {
        runner: Runner::Streamlit,
        pattern: python_import!("streamlit"),
    },
    Detect {
        runner: Runner::Panel,
        pattern: python_import!("panel"),
    },
    Detect {
        runner: Runner::Gradio,
        pattern: python_import!("gradio"),
    },
    Detect {
        runner: Runner::Dash,
        pattern: python_import!("dash"),
    },
    Detect {
        runner: Runner::FastApi,
        pattern: python_import!("fastapi"),
    },
    Detect {
        runner: Runner::Flask,
        pattern: python_import!("flask"),
    },
];

/// R frameworks.
const R: &[Detect] = &[Detect {
    runner: Runner::Shiny,
    pattern: "(^|[^A-Za-z0-9_.])((library|require)[[:space:]]*\\([[:space:]]*[\"']?shiny[\"']?[[:space:]]*[,)]|shinyApp[[:space:]]*\\(|shiny::)",
}];

/// The name a FastAPI application is assigned to (`app = FastAPI(…)`): `sed -E` and `regex`
/// alike, the name in group 1.
const FASTAPI_APP: &str = "^([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(:[^=]*)?=[[:space:]]*(fastapi[[:space:]]*\\.[[:space:]]*)?FastAPI[[:space:]]*\\(";

/// The kind of an entry file, by its extension (case-insensitive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    Python,
    R,
    RMarkdown,
    Notebook,
    Other,
}

fn file_kind(file: &str) -> FileKind {
    let lower = file.to_ascii_lowercase();
    if lower.ends_with(".py") {
        FileKind::Python
    } else if lower.ends_with(".r") {
        FileKind::R
    } else if lower.ends_with(".rmd") {
        FileKind::RMarkdown
    } else if lower.ends_with(".ipynb") {
        FileKind::Notebook
    } else {
        FileKind::Other
    }
}

/// Entry files tried in this order when none is chosen (the project's root).
pub fn candidates() -> &'static [&'static str] {
    &["app.py", "main.py", "streamlit_app.py", "app.R", "main.R"]
}

/// Whether `file` may be an entry file: a relative path inside the workspace (no `..`, no
/// absolute path, no empty or hidden-folder part), of a kind the rule knows, at most 255 bytes.
pub fn valid_entry(file: &str) -> bool {
    !file.is_empty()
        && file.len() <= 255
        && !file.starts_with('/')
        && file_kind(file) != FileKind::Other
        && file
            .split('/')
            .all(|part| !part.is_empty() && !part.starts_with('.') && !part.contains('\\'))
        && !file.chars().any(char::is_control)
}

/// What will run, as the user is shown it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub runner: Runner,
    /// The entry file (none: nothing to run).
    pub file: Option<String>,
    /// The command as a person would type it (`streamlit run app.py`).
    pub command: String,
}

static COMPILED: LazyLock<Vec<(Runner, Regex)>> = LazyLock::new(|| {
    PYTHON
        .iter()
        .chain(R)
        .map(|d| {
            (
                d.runner,
                Regex::new(&format!("(?m){}", d.pattern)).expect("a valid pattern"),
            )
        })
        .collect()
});

static FASTAPI_APP_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("(?m){FASTAPI_APP}")).expect("a valid pattern"));

fn detect(table: &[Detect], text: &str) -> Option<Runner> {
    table.iter().find_map(|d| {
        COMPILED
            .iter()
            .find(|(r, _)| *r == d.runner)
            .filter(|(_, re)| re.is_match(text))
            .map(|(r, _)| *r)
    })
}

/// Pure: what runs entry file `file` whose text is `text` (the API's side of the rule; the pod's
/// is [`script`]).
pub fn decide(purpose: Purpose, file: &str, text: &str) -> Launch {
    let runner = match (file_kind(file), purpose) {
        (FileKind::Python, _) => detect(PYTHON, text).unwrap_or(Runner::Python),
        (FileKind::R, _) => detect(R, text).unwrap_or(Runner::R),
        (FileKind::RMarkdown, _) => Runner::RMarkdown,
        (FileKind::Notebook, _) => Runner::Notebook,
        (FileKind::Other, _) => Runner::Files,
    };
    // Rendering runs the program; a server framework's app is run as a script then.
    let runner = match (purpose, runner) {
        (Purpose::Render, r) if r.serves() && r != Runner::Files => match file_kind(file) {
            FileKind::R => Runner::R,
            _ => Runner::Python,
        },
        (_, r) => r,
    };
    let fastapi_app = FASTAPI_APP_RE
        .captures(text)
        .and_then(|c| c.get(1))
        .map_or("app", |m| m.as_str());
    Launch {
        runner,
        file: Some(file.to_owned()),
        command: command_line(runner, file, fastapi_app),
    }
}

/// Pure: what runs when no entry file exists.
pub fn nothing_to_run() -> Launch {
    Launch {
        runner: Runner::Files,
        file: None,
        command: "python -m http.server".into(),
    }
}

/// The module uvicorn imports for a file (`api/main.py` → folder `api`, module `main`).
fn module_of(file: &str) -> (&str, &str) {
    let stem = &file[..file.len() - ".py".len()];
    match stem.rsplit_once('/') {
        Some((dir, module)) => (dir, module),
        None => (".", stem),
    }
}

/// The command as a person would type it.
fn command_line(runner: Runner, file: &str, fastapi_app: &str) -> String {
    let quoted = shell_word(file);
    match runner {
        Runner::Streamlit => format!("streamlit run {quoted}"),
        Runner::Panel => format!("panel serve {quoted}"),
        Runner::Gradio | Runner::Dash | Runner::Python => format!("python {quoted}"),
        Runner::FastApi => {
            let (dir, module) = module_of(file);
            let dir = if dir == "." {
                String::new()
            } else {
                format!(" --app-dir {}", shell_word(dir))
            };
            format!("uvicorn{dir} {}", shell_word(&format!("{module}:{fastapi_app}")))
        }
        Runner::Flask => format!("flask --app {quoted} run"),
        Runner::Shiny => format!("shiny::runApp({})", r_string(file)),
        Runner::R => format!("Rscript {quoted}"),
        Runner::RMarkdown => format!("rmarkdown::render({})", r_string(file)),
        Runner::Notebook => format!("jupyter nbconvert --execute --to html {quoted}"),
        Runner::JupyterLab => "jupyter lab".into(),
        Runner::Files => "python -m http.server".into(),
    }
}

/// A word as a POSIX shell would need it (single quotes unless it is plain).
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/:=+@%,".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// An R string literal.
pub fn r_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// How the script's program runs: as the container's process (an app: when it ends, the
/// container ends and the kubelet restarts it, so a crashing app is seen failing), or supervised
/// (a preview: when it ends, the container stays up for the log and the terminal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Supervision {
    Exec,
    StayUp,
}

/// The shell functions `run` (runs `$@`: exec'd, or as a child that gets SIGTERM passed on and
/// after whose end the container stays up) and `fail` (says why nothing runs).
fn functions(supervision: Supervision) -> &'static str {
    match supervision {
        Supervision::Exec => {
            r#"run() {
  echo "ludis: running $*"
  exec "$@"
}
fail() {
  echo "ludis: $*" >&2
  exit 2
}
"#
        }
        Supervision::StayUp => {
            r#"stay_up() {
  while :; do sleep 3600 & wait $!; done
}
run() {
  echo "ludis: running $*"
  "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM INT
  wait "$child"
  code=$?
  echo "ludis: the program exited with code $code; the container stays up for the terminal (Stop ends it)"
  stay_up
}
fail() {
  echo "ludis: $*" >&2
  trap 'exit 143' TERM INT
  stay_up
}
"#
        }
    }
}

/// A single-quoted shell word.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A `grep -E` test of the entry file's text.
fn grep(pattern: &str) -> String {
    format!("grep -Eq -- {} \"$entry\"", quote(pattern))
}

/// The shell command that runs `$entry` with `runner` (servers listen on `0.0.0.0:$PORT`).
fn shell_command(runner: Runner) -> String {
    match runner {
        Runner::Streamlit => {
            r#"run streamlit run "$entry" --server.port "$PORT" --server.address 0.0.0.0"#.into()
        }
        Runner::Panel => {
            r#"run panel serve "$entry" --address 0.0.0.0 --port "$PORT" --allow-websocket-origin '*'"#.into()
        }
        Runner::Gradio => {
            r#"export GRADIO_SERVER_NAME=0.0.0.0 GRADIO_SERVER_PORT="$PORT"; run python "$entry""#.into()
        }
        Runner::Dash => r#"export HOST=0.0.0.0; run python "$entry""#.into(),
        Runner::FastApi => format!(
            r#"app=$(sed -nE {} "$entry" | head -n 1); dir=$(dirname -- "$entry"); module=$(basename -- "$entry" .py); run uvicorn --app-dir "$dir" "$module:${{app:-app}}" --host 0.0.0.0 --port "$PORT" --proxy-headers --forwarded-allow-ips '*'"#,
            quote(&format!("s/{FASTAPI_APP}.*/\\1/p"))
        ),
        Runner::Flask => r#"run flask --app "$entry" run --host 0.0.0.0 --port "$PORT""#.into(),
        Runner::Shiny => {
            r#"run Rscript -e 'shiny::runApp(Sys.getenv("LUDIS_ENTRY"), host = "0.0.0.0", port = as.integer(Sys.getenv("PORT")), launch.browser = FALSE)'"#.into()
        }
        Runner::R => r#"run Rscript "$entry""#.into(),
        Runner::RMarkdown => {
            r#"run Rscript -e 'rmarkdown::render(Sys.getenv("LUDIS_ENTRY"), output_dir = Sys.getenv("LUDIS_OUTPUT_DIR", "."), intermediates_dir = tempdir())'"#.into()
        }
        Runner::Notebook => {
            r#"run jupyter nbconvert --execute --to html --output-dir "${LUDIS_OUTPUT_DIR:-.}" "$entry""#.into()
        }
        Runner::Files => r#"run python3 -m http.server "$PORT""#.into(),
        Runner::Python | Runner::JupyterLab => r#"run python "$entry""#.into(),
    }
}

/// The `if … elif … else … fi` over a table (servers), or the plain program (rendering).
fn branch(table: &[Detect], fallback: Runner, purpose: Purpose) -> String {
    if purpose == Purpose::Render || table.is_empty() {
        return format!("    {}\n", shell_command(fallback));
    }
    let mut out = String::new();
    for (i, d) in table.iter().enumerate() {
        let keyword = if i == 0 { "if" } else { "elif" };
        out.push_str(&format!(
            "    {keyword} {}; then\n      {}\n",
            grep(d.pattern),
            shell_command(d.runner)
        ));
    }
    out.push_str(&format!("    else\n      {}\n    fi\n", shell_command(fallback)));
    out
}

/// The container's arguments (`sh -c SCRIPT`) that apply the rule in the pod: the entry file of
/// [`ENTRY_VARIABLE`] (else the first of [`candidates`] that exists, when serving), run as
/// [`decide`] says, under `supervision`.
pub fn script(purpose: Purpose, supervision: Supervision) -> Vec<String> {
    let mut s = String::from(functions(supervision));
    s.push_str("entry=${LUDIS_ENTRY:-}\n");
    if purpose == Purpose::Serve {
        let names: Vec<String> = candidates().iter().map(|c| quote(c)).collect();
        s.push_str(&format!(
            "if [ -z \"$entry\" ]; then\n  for f in {}; do\n    if [ -f \"$f\" ]; then entry=$f; break; fi\n  done\nfi\nif [ -z \"$entry\" ]; then\n  echo \"ludis: no entry file ({}): serving the workspace's files\"\n  {}\nfi\n",
            names.join(" "),
            candidates().join(", "),
            shell_command(Runner::Files)
        ));
    } else {
        s.push_str("[ -n \"$entry\" ] || fail \"no entry file to render\"\n");
    }
    s.push_str(
        "[ -f \"$entry\" ] || fail \"the entry file $entry is not in this revision of the project\"\nexport LUDIS_ENTRY=\"$entry\"\ncase \"$entry\" in\n",
    );
    s.push_str("  *.[pP][yY])\n");
    s.push_str(&branch(PYTHON, Runner::Python, purpose));
    s.push_str("    ;;\n  *.[rR])\n");
    s.push_str(&branch(R, Runner::R, purpose));
    s.push_str("    ;;\n  *.[rR][mM][dD])\n");
    s.push_str(&format!("    {}\n", shell_command(Runner::RMarkdown)));
    s.push_str("    ;;\n  *.[iI][pP][yY][nN][bB])\n");
    s.push_str(&format!("    {}\n", shell_command(Runner::Notebook)));
    s.push_str("    ;;\nesac\nfail \"cannot run $entry: an entry file ends in .py, .R, .Rmd or .ipynb\"\n");
    vec!["sh".into(), "-c".into(), s]
}

/// Where Ludis images keep JupyterLab's page template with the storage stand-in
/// (`dev/images/jupyterlab/setup.sh`): JupyterLab uses it when the image has it.
pub const JUPYTERLAB_TEMPLATES: &str = "/usr/local/share/ludis/jupyterlab";

/// The identity provider of notebook servers ([`jupyterlab_args`]): the app proxy's token, with
/// JupyterLab's own origin checks kept.
pub const JUPYTER_IDENTITY: &str = include_str!("launch/ludis_identity.py");

/// The container's arguments for JupyterLab on the workspace (legacy notebook projects), on
/// `$PORT`, under `base_path` (`/` when its web view has an origin of its own). It asks every
/// request for the token in `$JUPYTER_TOKEN` (the app proxy sends it), so nothing else in the
/// cluster can use it — through [`JUPYTER_IDENTITY`] (written beside the server at its start),
/// so that JupyterLab's own origin checks still refuse any API request or websocket from another
/// page than its own (Jupyter skips them for its own token logins). Its XSRF cookie check stays
/// off: the console frames JupyterLab from another site, where browsers may withhold its cookie;
/// the origin check covers the same requests. The console frames it, so it may be framed
/// (JupyterLab's default is `frame-ancestors 'self'`), with the page template of
/// [`JUPYTERLAB_TEMPLATES`] when the image has it (it keeps JupyterLab working where the browser
/// refuses a framed site its storage). Nothing is fetched from outside (no news, no update
/// checks).
pub fn jupyterlab_args(base_path: &str) -> Vec<String> {
    let start = format!(
        r#"d=$(mktemp -d) && cat >"$d/ludis_identity.py" <<'LUDIS_IDENTITY' || exit 1
{JUPYTER_IDENTITY}LUDIS_IDENTITY
export PYTHONPATH="$d${{PYTHONPATH:+:$PYTHONPATH}}"
t={JUPYTERLAB_TEMPLATES}; if [ -f "$t/index.html" ]; then set -- "$@" "--LabApp.templates_dir=$t"; fi; echo "ludis: running $*"; exec "$@""#
    );
    [
        "sh",
        "-c",
        &start,
        "jupyterlab",
        "jupyter",
        "lab",
        "--no-browser",
        "--ip=0.0.0.0",
        "--port=$(PORT)",
        &format!("--ServerApp.base_url={base_path}"),
        "--ServerApp.root_dir=/workspace",
        "--ServerApp.identity_provider_class=ludis_identity.ProxyIdentityProvider",
        "--ServerApp.allow_remote_access=True",
        "--ServerApp.disable_check_xsrf=True",
        r#"--ServerApp.tornado_settings={"headers": {"Content-Security-Policy": "frame-ancestors *"}}"#,
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

#[cfg(test)]
mod tests;
