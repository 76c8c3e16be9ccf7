//! What GitOps tools make of Ludis objects, by their own code: the health tool
//! (`dev/tools/health`) runs kstatus (`status.Compute`, as Flux does) and the Argo CD health
//! checks of `charts/ludis/docs/argocd/` (gopher-lua, as Argo CD runs them). dev/test.sh builds it
//! and exports its path as `LUDIS_HEALTH_TOOL`, and kubectl's as `LUDIS_KUBECTL`.

use std::{
    io::Write as _,
    path::PathBuf,
    process::{Command, Stdio},
};

use serde::Deserialize;
use serde_json::{Value, json};

/// What one tool made of one object.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Judged {
    pub kind: String,
    pub name: String,
    pub status: String,
    pub message: String,
}

/// A program whose path dev/test.sh exports in `variable`.
fn program(variable: &str, build: &str) -> PathBuf {
    let path = std::env::var(variable).unwrap_or_else(|_| {
        panic!(
            "{variable} is not set: run the tests with dev/test.sh, or {build} and export \
             {variable} with its path"
        )
    });
    let path = PathBuf::from(path);
    assert!(path.is_file(), "{variable}={} is not a file", path.display());
    path
}

/// The health tool.
pub fn tool() -> PathBuf {
    program(
        "LUDIS_HEALTH_TOOL",
        "build it with `dev/build-tools.sh health` (its path: `source dev/lib.sh; echo $(tool_dir health)/health`)",
    )
}

/// kubectl of the local platform.
pub fn kubectl() -> PathBuf {
    program(
        "LUDIS_KUBECTL",
        "build it with `dev/build-tools.sh kubernetes` (its path: `source dev/lib.sh; echo $(tool_dir kubernetes)/kubectl`)",
    )
}

/// The Argo CD health checks, in Argo CD's layout (`<group>_<Kind>/health.lua`).
pub fn argocd_scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../charts/ludis/docs/argocd")
}

/// Runs the tool with `args` on `objects` (given as one List), one verdict per object.
fn judge(args: &[&str], objects: &[Value]) -> Vec<Judged> {
    let mut child = Command::new(tool())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the health tool starts");
    let list = json!({"apiVersion": "v1", "kind": "List", "items": objects});
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "health {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let judged: Vec<Judged> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("a verdict per line"))
        .collect();
    assert_eq!(judged.len(), objects.len(), "one verdict per object");
    judged
}

/// kstatus's verdict on each object.
pub fn kstatus(objects: &[Value]) -> Vec<Judged> {
    judge(&["kstatus"], objects)
}

/// The Argo CD health check's verdict on each object.
pub fn argocd(objects: &[Value]) -> Vec<Judged> {
    let scripts = argocd_scripts();
    judge(&["argocd", "--scripts", scripts.to_str().unwrap()], objects)
}
