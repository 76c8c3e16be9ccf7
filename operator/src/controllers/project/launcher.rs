//! What a preview runs when its Project names no command (`spec.preview.command`): the project's
//! entry file from the workspace, the way a user expects "Run" to work.
//!
//! - Python: `app.py` (with `streamlit run` when it imports Streamlit, else `python app.py`),
//!   else `main.py`;
//! - R: `app.R` (a Shiny app, `shiny::runApp` on the port), else `main.R`;
//! - neither: the workspace's files served over HTTP on the port, so the web view shows something.
//!
//! The program runs as a child of the launcher's shell, which passes SIGTERM on (the container
//! stops at once) and, when the program ends by itself, says how and stays up, so its log and the
//! terminal stay available instead of the pod restarting in a loop. Apps listen on `$PORT`.

use ludis_crds::common::Language;

/// The shell part every language shares: run `$@`, pass SIGTERM on, stay up after it ends.
const SUPERVISE: &str = r#"run() {
  echo "ludis: running $*"
  "$@" &
  child=$!
  trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM INT
  wait "$child"
  code=$?
  echo "ludis: the program exited with code $code; the container stays up for the terminal (Stop ends it)"
  while :; do sleep 3600 & wait $!; done
}
"#;

const PYTHON: &str = r#"if [ -f app.py ]; then
  if grep -Eq '^[[:space:]]*(import|from)[[:space:]]+streamlit' app.py; then
    run streamlit run app.py --server.port "$PORT" --server.address 0.0.0.0
  fi
  run python app.py
elif [ -f main.py ]; then
  run python main.py
fi
run python -m http.server "$PORT"
"#;

const R: &str = r#"if [ -f app.R ]; then
  run Rscript -e "shiny::runApp('app.R', host = '0.0.0.0', port = as.integer(Sys.getenv('PORT')))"
elif [ -f main.R ]; then
  run Rscript main.R
fi
run python3 -m http.server "$PORT"
"#;

/// Pure: the preview container's arguments for a notebook-flavour project: JupyterLab on the
/// workspace, on `$PORT`, under `base_path` (the app proxy's prefix, which it forwards whole).
/// It asks every request for the token in `$JUPYTER_TOKEN` (the project's environment Secret;
/// the app proxy sends it), so nothing else in the cluster can use it; the origin and XSRF
/// checks are the proxy's, which serves it on an origin of its own. The console frames it, so it
/// may be framed (JupyterLab's default is `frame-ancestors 'self'`): another site framing it gets
/// nothing, as the proxy's cookie is never sent there (partitioned by the console's site when
/// framed, `SameSite=Lax` otherwise). Nothing is fetched from outside (no news, no update checks).
pub fn jupyter_args(base_path: &str) -> Vec<String> {
    [
        "jupyter",
        "lab",
        "--no-browser",
        "--ip=0.0.0.0",
        "--port=$(PORT)",
        &format!("--ServerApp.base_url={base_path}"),
        "--ServerApp.root_dir=/workspace",
        "--ServerApp.allow_origin=*",
        "--ServerApp.allow_remote_access=True",
        "--ServerApp.disable_check_xsrf=True",
        "--ServerApp.password=",
        r#"--ServerApp.tornado_settings={"headers": {"Content-Security-Policy": "frame-ancestors *"}}"#,
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect()
}

/// Pure: the preview container's arguments for a project of `language` with no command (under
/// the image's entrypoint).
pub fn preview_args(language: Language) -> Vec<String> {
    let body = match language {
        Language::R => R,
        _ => PYTHON,
    };
    vec!["sh".into(), "-c".into(), format!("{SUPERVISE}{body}")]
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// Runs the launcher in `dir` with `python` and `streamlit` replaced by echoes, and returns
    /// the line saying what it ran.
    fn launched(language: Language, files: &[(&str, &str)]) -> String {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in files {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        let args = preview_args(language);
        // The stand-ins print their arguments and exit; the launcher then stays up, until the
        // stand-in of `sleep` sends it SIGTERM.
        let script = format!(
            "python() {{ echo python \"$@\"; }}; python3() {{ echo python3 \"$@\"; }}; streamlit() {{ echo streamlit \"$@\"; }}; Rscript() {{ echo Rscript \"$@\"; }}; sleep() {{ kill -TERM $$; }}\n{}",
            args[2]
        );
        let out = Command::new("sh")
            .args(["-c", &script])
            .current_dir(dir.path())
            .env("PORT", "8080")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines()
            .find_map(|l| l.strip_prefix("ludis: running "))
            .unwrap_or_default()
            .to_owned()
    }

    #[test]
    fn the_entry_file_decides_what_runs() {
        assert_eq!(
            launched(Language::Python, &[("app.py", "import streamlit as st\n")]),
            "streamlit run app.py --server.port 8080 --server.address 0.0.0.0"
        );
        assert_eq!(
            launched(Language::Python, &[("app.py", "print('hi')\n"), ("main.py", "")]),
            "python app.py"
        );
        assert_eq!(launched(Language::Python, &[("main.py", "")]), "python main.py");
        assert_eq!(launched(Language::Python, &[]), "python -m http.server 8080");
        assert_eq!(launched(Language::R, &[("main.R", "")]), "Rscript main.R");
        assert!(launched(Language::R, &[("app.R", "")]).contains("shiny::runApp('app.R'"));
        assert_eq!(preview_args(Language::Python)[..2], ["sh", "-c"]);
    }

    #[test]
    fn jupyterlab_serves_under_the_base_path_on_the_port() {
        let args = jupyter_args("/apps/p1/");
        assert_eq!(args[..2], ["jupyter", "lab"]);
        assert!(args.contains(&"--ServerApp.base_url=/apps/p1/".to_owned()));
        // Kubernetes expands $(PORT) from the container's environment.
        assert!(args.contains(&"--port=$(PORT)".to_owned()));
        assert!(args.iter().any(|a| a.contains("frame-ancestors *")));
        // No token argument: JupyterLab takes $JUPYTER_TOKEN.
        assert!(!args.iter().any(|a| a.contains("token=")));
    }
}
