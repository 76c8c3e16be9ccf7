//! The init container that puts a project's git repository into a pod's workspace: clones the
//! branch (or pulls it when the workspace already has it, as a preview's volume does), then checks
//! out a pinned revision when given. Used by project previews, by the pod that reads a workflow's
//! DAG file, and by task pods (which check out into an emptyDir, so a workflow runs the published
//! code whether or not a preview ever ran).

use k8s_openapi::api::core::v1::{Container, EnvVar, EnvVarSource, SecretKeySelector, VolumeMount};
use ludis_crds::project::GitSource;

use super::pods;

/// Where the checkout is, in every pod that has one.
pub const WORKSPACE: &str = "/workspace";

/// The checkout of `git` (at `revision`, else the branch's head) into the volume `mount`.
pub fn git_checkout(git: &GitSource, revision: Option<&str>, image: &str, mount: VolumeMount) -> Container {
    let var = |name: &str, value: &str| EnvVar {
        name: name.into(),
        value: Some(value.into()),
        ..Default::default()
    };
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
    let script = r#"set -eu
helper='!f() { echo "username=${GIT_USERNAME:-}"; echo "password=${GIT_TOKEN:-}"; }; f'
if [ -d /workspace/.git ]; then
  # The volume's root may belong to another user than the checkout (root, or the fsGroup).
  git -C /workspace -c safe.directory=/workspace -c credential.helper="$helper" pull --ff-only
else
  git -c credential.helper="$helper" clone --branch "$BRANCH" -- "$REPO_URL" /workspace
fi"#;
    // Only pinned checkouts carry the extra step, so a preview's pod (named by its spec's hash)
    // stays the same.
    let script = match revision {
        Some(_) => format!(
            "{script}\ngit -C /workspace -c safe.directory=/workspace checkout -q --detach \"$REVISION\""
        ),
        None => script.to_owned(),
    };
    Container {
        name: "git-checkout".into(),
        image: Some(image.to_owned()),
        args: Some(vec!["sh".into(), "-c".into(), script]),
        env: Some(env),
        security_context: Some(pods::container_security_context()),
        volume_mounts: Some(vec![mount]),
        ..Default::default()
    }
}

/// The mount of the volume `workspace` at [`WORKSPACE`].
pub fn workspace_mount() -> VolumeMount {
    VolumeMount {
        name: "workspace".into(),
        mount_path: WORKSPACE.into(),
        ..Default::default()
    }
}

/// An emptyDir volume named `workspace`, for a checkout that lives as long as its pod.
pub fn scratch_workspace() -> k8s_openapi::api::core::v1::Volume {
    k8s_openapi::api::core::v1::Volume {
        name: "workspace".into(),
        empty_dir: Some(Default::default()),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_revision_is_checked_out_after_the_clone() {
        let git: GitSource =
            serde_json::from_value(serde_json::json!({"url": "https://git.example/a.git"})).unwrap();
        let c = git_checkout(
            &git,
            Some("0123456789abcdef0123456789abcdef01234567"),
            "git:1",
            workspace_mount(),
        );
        let env = c.env.unwrap();
        let revision = env.iter().find(|e| e.name == "REVISION").unwrap();
        assert_eq!(
            revision.value.as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        assert!(c.args.unwrap()[2].contains("checkout -q --detach \"$REVISION\""));
        let head = git_checkout(&git, None, "git:1", workspace_mount());
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
}
