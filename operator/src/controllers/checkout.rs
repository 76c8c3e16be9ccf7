//! The init container that puts a project's git repository into a pod's workspace: the branch's
//! head, or a pinned revision when given, cloned afresh and written over the workspace (a
//! preview's volume keeps what else it holds) without ever reading what the workspace's own `.git`
//! says ([`CHECKOUT_SCRIPT`]). Used by project previews, applications and reports, by the pod that
//! reads a workflow's DAG file, and by task pods (which check out into an emptyDir, so a workflow
//! runs the published code whether or not a preview ever ran).
//!
//! A repository the API serves (under `LUDIS_GIT_URL`: the projects Ludis hosts, and the mirrors
//! of imported projects' remotes) is cloned with the pod's own identity: a service-account token
//! for the audience [`GIT_AUDIENCE`], projected into the init container only, expiring within
//! minutes and dead with the pod; the API lets it clone only the repository the pod's
//! [`ANNOTATION_CHECKOUT`] names. No token of a user or of a project is ever in a pod. A
//! repository elsewhere (a Project applied with another `git.url`) is cloned with
//! `git.credentialsSecret` when the resource names one.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::{Container, EnvVar, EnvVarSource, SecretKeySelector, Volume, VolumeMount};
use ludis_crds::{
    keys::{ANNOTATION_CHECKOUT, GIT_AUDIENCE, GIT_POD_USERNAME},
    project::GitSource,
};

use super::pods;
use crate::{context::Config, sizes::Helper};

/// Where the checkout is, in every pod that has one.
pub const WORKSPACE: &str = "/workspace";

/// The volume of the pod's identity token, and where the init container finds it.
const IDENTITY_VOLUME: &str = "git-identity";
const IDENTITY_DIR: &str = "/var/run/secrets/ludis.dev/git";
/// The identity token's lifetime: the shortest Kubernetes issues. The checkout reads it once.
const IDENTITY_SECONDS: i64 = 600;

/// A pod's checkout: its init container, and what the pod needs beside it.
pub struct Checkout {
    pub container: Container,
    /// The identity token's volume, when the repository is the API's.
    identity: Option<Volume>,
    /// The repository the identity token may clone (`<namespace>/<project>.git`).
    repository: Option<String>,
}

impl Checkout {
    /// The tree of the commit without the repository (`.git`): a published app's or report's
    /// checkout, whose viewers must not fetch the history — newer, unpublished commits included —
    /// from a server that shows files. Its volume is the pod's own and new, so nothing needs the
    /// repository afterwards.
    pub fn tree_only(mut self) -> Self {
        self.container
            .env
            .get_or_insert_default()
            .push(pods::env_var("LUDIS_TREE_ONLY", "1"));
        self
    }

    /// `volumes` and the checkout's own.
    pub fn volumes(&self, mut volumes: Vec<Volume>) -> Vec<Volume> {
        volumes.extend(self.identity.clone());
        volumes
    }

    /// The pod's annotations: [`ANNOTATION_CHECKOUT`] when the checkout shows its identity.
    pub fn annotations(&self) -> Option<BTreeMap<String, String>> {
        self.repository
            .as_ref()
            .map(|repository| BTreeMap::from([(ANNOTATION_CHECKOUT.to_owned(), repository.clone())]))
    }
}

/// Pure: the repository path of `url` when it is served by the API at `base` (`LUDIS_GIT_URL`):
/// exactly `<base>/<namespace>/<name>.git`, nothing before, after or between.
fn api_repository(base: Option<&str>, url: &str) -> Option<String> {
    let base = base?.trim().trim_end_matches('/');
    let path = url.trim().strip_prefix(base)?.strip_prefix('/')?;
    let (namespace, name) = path.split_once('/')?;
    let name = name.strip_suffix(".git")?;
    let plain = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    (!base.is_empty() && plain(namespace) && plain(name)).then(|| format!("{namespace}/{name}.git"))
}

/// The checkout of `git` (at `revision`, else the branch's head) into the volume `mount`.
pub fn git_checkout(
    git: &GitSource,
    revision: Option<&str>,
    config: &Config,
    mount: VolumeMount,
) -> Checkout {
    let var = pods::env_var;
    let mut env = vec![
        var("REPO_URL", &git.url),
        var("BRANCH", &git.branch),
        var("HOME", "/tmp"),
        // A transfer that stalls (under 1 KB/s for 30 s) fails instead of hanging the pod for
        // good: the kubelet then starts the checkout again.
        var("GIT_HTTP_LOW_SPEED_LIMIT", "1000"),
        var("GIT_HTTP_LOW_SPEED_TIME", "30"),
    ];
    if let Some(revision) = revision {
        env.push(var("REVISION", revision));
    }
    let repository = api_repository(config.git_url.as_deref(), &git.url);
    let mut mounts = vec![mount];
    let identity = if repository.is_some() {
        env.push(var("GIT_USERNAME", GIT_POD_USERNAME));
        env.push(var("GIT_TOKEN_FILE", &format!("{IDENTITY_DIR}/token")));
        mounts.push(pods::read_only_mount(IDENTITY_VOLUME, IDENTITY_DIR));
        Some(pods::token_volume(
            IDENTITY_VOLUME,
            GIT_AUDIENCE,
            IDENTITY_SECONDS,
            Vec::new(),
        ))
    } else {
        if let Some(secret) = &git.credentials_secret {
            for (name, key) in [("GIT_USERNAME", "username"), ("GIT_TOKEN", "token")] {
                env.push(EnvVar {
                    name: name.into(),
                    value_from: Some(EnvVarSource {
                        secret_key_ref: Some(SecretKeySelector {
                            name: secret.name.clone(),
                            key: key.into(),
                            optional: Some(false),
                        }),
                        ..Default::default()
                    }),
                    ..Default::default()
                });
            }
        }
        None
    };
    Checkout {
        container: Container {
            name: "git-checkout".into(),
            image: Some(config.git_image.clone()),
            args: Some(vec!["sh".into(), "-c".into(), CHECKOUT_SCRIPT.into()]),
            env: Some(env),
            resources: Some(Helper::Checkout.requirements()),
            security_context: Some(pods::container_security_context()),
            volume_mounts: Some(mounts),
            ..Default::default()
        },
        identity,
        repository,
    }
}

/// The checkout, which never runs git against anything the workspace holds: whoever has a
/// terminal in the workspace may have written its `.git` (a credential helper that would receive
/// the token, hooks, `core.fsmonitor`, a remote pointing elsewhere). So git reads no configuration
/// but ours (none of the system's or the user's, `GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL`), the
/// repository is cloned afresh into a folder of the container's own, its files written over the
/// workspace's tracked ones (untracked files stay; files the new commit deleted since the last
/// checkout go), and the fresh `.git` replaces the workspace's — or, with `LUDIS_TREE_ONLY`
/// ([`Checkout::tree_only`]), is removed. `LUDIS_WORKSPACE` (tests only) moves it from
/// [`WORKSPACE`].
pub const CHECKOUT_SCRIPT: &str = r#"set -eu
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0 HOME=/tmp
workspace=${LUDIS_WORKSPACE:-/workspace}
helper='!f() { echo "username=${GIT_USERNAME:-}"; if [ -n "${GIT_TOKEN_FILE:-}" ]; then echo "password=$(cat "$GIT_TOKEN_FILE")"; else echo "password=${GIT_TOKEN:-}"; fi; }; f'
ours() { git -c core.hooksPath=/dev/null -c core.fsmonitor=false "$@"; }
fresh=$(mktemp -d /tmp/checkout.XXXXXX)
ours -c credential.helper="$helper" clone --quiet --no-checkout --branch "$BRANCH" -- "$REPO_URL" "$fresh"
target=$(ours --git-dir="$fresh/.git" rev-parse --verify --quiet "${REVISION:-HEAD}^{commit}") ||
  { echo "ludis: the revision ${REVISION:-HEAD} is not in the repository" >&2; exit 1; }
# Files the new commit deleted since the last checkout (a commit of this repository, or nothing).
previous=$(head -c 64 "$workspace/.git/ludis-checkout" 2>/dev/null | tr -dc 0-9a-f || true)
if [ -n "$previous" ] && ours --git-dir="$fresh/.git" cat-file -e "$previous^{commit}" 2>/dev/null; then
  ours --git-dir="$fresh/.git" diff --name-only -z --no-renames --diff-filter=D "$previous" "$target" |
    (cd "$workspace" && xargs -0r rm -f --)
fi
ours --git-dir="$fresh/.git" --work-tree="$workspace" reset --quiet --hard "$target"
rm -rf "$workspace/.git"
mv "$fresh/.git" "$workspace/.git"
echo "$target" >"$workspace/.git/ludis-checkout"
if [ -n "${LUDIS_TREE_ONLY:-}" ]; then rm -rf "$workspace/.git"; fi
echo "ludis: checked out $target""#;

/// The mount of the volume `workspace` at [`WORKSPACE`].
pub fn workspace_mount() -> VolumeMount {
    VolumeMount {
        name: "workspace".into(),
        mount_path: WORKSPACE.into(),
        ..Default::default()
    }
}

/// An emptyDir volume named `workspace`, for a checkout that lives as long as its pod, of at most
/// [`super::pods::SCRATCH_LIMIT`].
pub fn scratch_workspace() -> k8s_openapi::api::core::v1::Volume {
    super::pods::scratch_volume("workspace", super::pods::SCRATCH_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_revision_is_checked_out_after_the_clone() {
        let git: GitSource =
            serde_json::from_value(serde_json::json!({"url": "https://git.example/a.git"})).unwrap();
        let config = Config::for_tests("ludis-system");
        let c = git_checkout(
            &git,
            Some("0123456789abcdef0123456789abcdef01234567"),
            &config,
            workspace_mount(),
        )
        .container;
        let env = c.env.unwrap();
        let revision = env.iter().find(|e| e.name == "REVISION").unwrap();
        assert_eq!(
            revision.value.as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert_eq!(c.args.unwrap()[2], CHECKOUT_SCRIPT);
        let head = git_checkout(&git, None, &config, workspace_mount()).container;
        let env = head.env.unwrap();
        assert!(!env.iter().any(|e| e.name == "REVISION"));
        let stall = |name: &str| env.iter().find(|e| e.name == name).and_then(|e| e.value.clone());
        assert_eq!(
            (
                stall("GIT_HTTP_LOW_SPEED_LIMIT"),
                stall("GIT_HTTP_LOW_SPEED_TIME")
            ),
            (Some("1000".into()), Some("30".into())),
            "a stalled clone fails and is tried again"
        );
    }

    #[test]
    fn the_api_s_repositories_are_cloned_with_the_pod_s_identity_and_nothing_else() {
        let config = Config {
            git_url: Some("http://10.0.0.1:8080/git/".into()),
            ..Config::for_tests("ludis-system")
        };
        let source = |url: &str| -> GitSource {
            serde_json::from_value(serde_json::json!({"url": url, "credentialsSecret": {"name": "p-git"}}))
                .unwrap()
        };
        let ours = git_checkout(
            &source("http://10.0.0.1:8080/git/ludis-acme/0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.git"),
            None,
            &config,
            workspace_mount(),
        );
        let env = ours.container.env.clone().unwrap();
        assert!(
            env.iter().all(|e| e.value_from.is_none()),
            "no Secret reaches the checkout: {env:?}"
        );
        assert_eq!(
            ours.annotations().unwrap()[ANNOTATION_CHECKOUT],
            "ludis-acme/0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.git"
        );
        let volumes = ours.volumes(vec![scratch_workspace()]);
        let token = volumes[1].projected.as_ref().unwrap().sources.as_ref().unwrap()[0]
            .service_account_token
            .as_ref()
            .unwrap();
        assert_eq!(token.audience.as_deref(), Some(GIT_AUDIENCE));
        assert_eq!(token.expiration_seconds, Some(600));
        let mounts = ours.container.volume_mounts.unwrap();
        assert_eq!(mounts[1].mount_path, IDENTITY_DIR);
        assert_eq!(mounts[1].read_only, Some(true));

        // Anything else keeps to its own credentials, and never gets the pod's identity.
        for url in [
            "https://github.com/acme/sales.git",
            "http://10.0.0.1:8080/gitx/ludis-acme/p.git",
            "http://10.0.0.1:8080/git@evil.example/ludis-acme/p.git",
            "http://10.0.0.1:8080/git/ludis-acme/../other/p.git",
            "http://10.0.0.1:8080/git/ludis-acme/p.git/extra",
            "http://10.0.0.1:8080/git/p.git",
        ] {
            let theirs = git_checkout(&source(url), None, &config, workspace_mount());
            assert!(theirs.annotations().is_none(), "{url}");
            assert_eq!(theirs.volumes(Vec::new()).len(), 0, "{url}");
            let env = theirs.container.env.unwrap();
            assert!(
                env.iter()
                    .any(|e| e.name == "GIT_TOKEN" && e.value_from.is_some()),
                "{url}"
            );
        }
        // Without LUDIS_GIT_URL no repository is the API's.
        let plain = git_checkout(
            &source("http://10.0.0.1:8080/git/ludis-acme/p.git"),
            None,
            &Config::for_tests("ludis-system"),
            workspace_mount(),
        );
        assert!(plain.annotations().is_none());
    }

    /// Runs `git` in `dir` (the test's own repositories), failing the test when it fails.
    fn git(dir: &std::path::Path, args: &[&str]) -> String {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=Ludis test", "-c", "user.email=test@ludis.local"])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git is installed");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Commits `files` (path, content; content None deletes) in the origin `work`; its head.
    fn commit(work: &std::path::Path, files: &[(&str, Option<&str>)]) -> String {
        for (path, content) in files {
            match content {
                Some(text) => std::fs::write(work.join(path), text).unwrap(),
                None => std::fs::remove_file(work.join(path)).unwrap(),
            }
        }
        git(work, &["add", "-A"]);
        git(work, &["commit", "-q", "-m", "change"]);
        git(work, &["rev-parse", "HEAD"])
    }

    /// Runs the checkout as the init container does, into `workspace`, from `origin`.
    fn check_out(
        origin: &std::path::Path,
        workspace: &std::path::Path,
        revision: Option<&str>,
    ) -> std::process::Output {
        check_out_with(origin, workspace, revision, &[])
    }

    fn check_out_with(
        origin: &std::path::Path,
        workspace: &std::path::Path,
        revision: Option<&str>,
        more: &[(&str, &str)],
    ) -> std::process::Output {
        let mut cmd = std::process::Command::new("sh");
        cmd.envs(more.iter().copied());
        cmd.args(["-c", CHECKOUT_SCRIPT])
            .env("LUDIS_WORKSPACE", workspace)
            .env("REPO_URL", format!("file://{}", origin.display()))
            .env("BRANCH", "main")
            .env("GIT_USERNAME", "project-1")
            .env("GIT_TOKEN", "the-checkout-token");
        if let Some(r) = revision {
            cmd.env("REVISION", r);
        }
        cmd.output().unwrap()
    }

    #[test]
    fn the_checkout_never_runs_what_the_workspace_planted() {
        let dir = tempfile::tempdir().unwrap();
        let (work, workspace, loot) = (
            dir.path().join("work"),
            dir.path().join("ws"),
            dir.path().join("loot"),
        );
        for d in [&work, &workspace, &loot] {
            std::fs::create_dir(d).unwrap();
        }
        git(&work, &["init", "-q", "--initial-branch=main"]);
        let first = commit(&work, &[("app.py", Some("v1\n")), ("old.py", Some("old\n"))]);
        let origin = dir.path().join("origin.git");
        git(dir.path(), &["clone", "-q", "--bare", "work", "origin.git"]);

        // The first start: a clean workspace gets the files and a .git of its own.
        let out = check_out(&origin, &workspace, None);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read_to_string(workspace.join("app.py")).unwrap(), "v1\n");
        assert_eq!(git(&workspace, &["rev-parse", "HEAD"]), first);

        // Someone with a terminal plants what git would run: a credential helper (it would get the
        // token), core.fsmonitor, a hooks folder, a remote elsewhere; and works on files.
        let plant = |name: &str| format!("{}/{name}", loot.display());
        let config = format!(
            "[core]\n\tfsmonitor = \"touch {}\"\n\thooksPath = {}\n[credential]\n\thelper = \"!f() {{ cat > {}; }}; f\"\n[remote \"origin\"]\n\turl = file:///nowhere.git\n[include]\n\tpath = {}\n",
            plant("fsmonitor"),
            workspace.join("hooks").display(),
            plant("helper"),
            workspace.join("more.cfg").display(),
        );
        std::fs::write(workspace.join(".git/config"), config).unwrap();
        std::fs::create_dir(workspace.join("hooks")).unwrap();
        for hook in ["post-checkout", "reference-transaction", "post-index-change"] {
            let path = workspace.join("hooks").join(hook);
            std::fs::write(&path, format!("#!/bin/sh\ntouch {}\n", plant(hook))).unwrap();
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::write(workspace.join("app.py"), "edited in the terminal\n").unwrap();
        std::fs::write(workspace.join("notes.txt"), "mine\n").unwrap();

        // The next start, on a new commit that changed app.py and deleted old.py.
        let second = commit(&work, &[("app.py", Some("v2\n")), ("old.py", None)]);
        git(&work, &["push", "-q", origin.to_str().unwrap(), "main"]);
        let out = check_out(&origin, &workspace, None);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let looted: Vec<_> = std::fs::read_dir(&loot)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(looted.is_empty(), "the checkout ran what was planted: {looted:?}");
        // The new commit, over the workspace: tracked files follow it, untracked ones stay.
        assert_eq!(git(&workspace, &["rev-parse", "HEAD"]), second);
        assert_eq!(std::fs::read_to_string(workspace.join("app.py")).unwrap(), "v2\n");
        assert!(
            !workspace.join("old.py").exists(),
            "a file the commit deleted goes"
        );
        assert_eq!(
            std::fs::read_to_string(workspace.join("notes.txt")).unwrap(),
            "mine\n"
        );
        // The planted configuration is gone with the old .git.
        assert!(
            !std::fs::read_to_string(workspace.join(".git/config"))
                .unwrap()
                .contains("fsmonitor")
        );

        // A published tree: the files, without the repository and its newer commits.
        let published = dir.path().join("published");
        std::fs::create_dir(&published).unwrap();
        let out = check_out_with(&origin, &published, Some(&first), &[("LUDIS_TREE_ONLY", "1")]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read_to_string(published.join("app.py")).unwrap(), "v1\n");
        assert!(
            !published.join(".git").exists(),
            "the repository is not in a published tree"
        );

        // A pinned revision: exactly that commit.
        let out = check_out(&origin, &workspace, Some(&first));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(std::fs::read_to_string(workspace.join("app.py")).unwrap(), "v1\n");
        let out = check_out(
            &origin,
            &workspace,
            Some("0123456789abcdef0123456789abcdef01234567"),
        );
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("is not in the repository"));
    }
}
