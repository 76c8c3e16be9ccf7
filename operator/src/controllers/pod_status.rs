//! Why a workload's pod is not serving, read from the pod's own status (pure): what the scheduler
//! said of a pod it cannot place, an image that cannot be pulled, a checkout that failed, a
//! program that keeps exiting. Previews and applications put it in their status, so the console
//! says why instead of "Starting…" for ever.

use k8s_openapi::api::core::v1::{ContainerStatus, Pod};

/// What stands between a pod and serving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// Not placed on a node yet, with the scheduler's reason ("0/2 nodes are available: 1
    /// Insufficient cpu."): it may still be, when room is made.
    Unschedulable(String),
    /// Its container is being made, and the kubelet says what it waits for.
    BeingCreated(String),
    /// The checkout of the project's repository (the init container) failed.
    Checkout(String),
    /// The container cannot be made: its image cannot be pulled, or its configuration is wrong.
    CannotStart(String),
    /// The program ends with an error and is started again and again.
    Crashing(String),
    /// The node stopped the pod for using more than it may (its scratch space's size limit).
    Evicted(String),
}

impl Trouble {
    /// Whether it can pass by itself (room on a node), rather than a failure to act on.
    pub fn is_waiting(&self) -> bool {
        matches!(self, Trouble::Unschedulable(_) | Trouble::BeingCreated(_))
    }

    /// What a person should know.
    pub fn message(&self) -> &str {
        match self {
            Trouble::Unschedulable(m)
            | Trouble::BeingCreated(m)
            | Trouble::Checkout(m)
            | Trouble::CannotStart(m)
            | Trouble::Crashing(m)
            | Trouble::Evicted(m) => m,
        }
    }
}

/// Waiting reasons of a container whose image cannot be had: they do not pass by themselves.
const CANNOT_START: [&str; 4] = [
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
];

/// Waiting reasons of a container being made that the kubelet tries again and that usually pass
/// ("failed to sync secret cache: timed out waiting for the condition" on a busy API server; the
/// operator checks the Secrets a pod names before it makes it): the pod waits, and says why.
const BEING_CREATED: [&str; 2] = ["CreateContainerConfigError", "CreateContainerError"];

/// How a container last ended with an error, if it did (`exit code 1`, `killed: out of memory`).
fn last_error(c: &ContainerStatus) -> Option<String> {
    let terminated = c
        .state
        .as_ref()
        .and_then(|s| s.terminated.as_ref())
        .or_else(|| c.last_state.as_ref().and_then(|s| s.terminated.as_ref()))?;
    if terminated.exit_code == 0 {
        return None;
    }
    Some(match terminated.reason.as_deref() {
        Some("OOMKilled") => "it ran out of memory".to_owned(),
        _ => format!("exit code {}", terminated.exit_code),
    })
}

fn waiting_reason(c: &ContainerStatus) -> Option<(&str, Option<&str>)> {
    let w = c.state.as_ref()?.waiting.as_ref()?;
    Some((w.reason.as_deref()?, w.message.as_deref()))
}

/// Pure: what keeps `pod` from serving, if anything its status shows.
pub fn trouble(pod: &Pod) -> Option<Trouble> {
    let status = pod.status.as_ref()?;
    if status.reason.as_deref() == Some("Evicted") {
        let why = status.message.as_deref().map(str::trim).filter(|m| !m.is_empty());
        return Some(Trouble::Evicted(match why {
            Some(why) => format!("the node stopped it for using more than it may: {why}"),
            None => "the node stopped it for using more than it may".to_owned(),
        }));
    }
    if let Some(c) = status.conditions.iter().flatten().find(|c| {
        c.type_ == "PodScheduled" && c.status == "False" && c.reason.as_deref() == Some("Unschedulable")
    }) {
        let why = c
            .message
            .clone()
            .unwrap_or_else(|| "no node has room for it".into());
        return Some(Trouble::Unschedulable(format!("waiting for a node: {why}")));
    }
    for c in status.init_container_statuses.iter().flatten() {
        if let Some((reason, message)) = waiting_reason(c)
            && CANNOT_START.contains(&reason)
        {
            return Some(Trouble::CannotStart(cannot_start(reason, message)));
        }
        if let Some(error) = last_error(c) {
            return Some(Trouble::Checkout(format!(
                "the checkout of the project's repository failed ({error}); see the logs of `{}`",
                c.name
            )));
        }
    }
    for c in status.container_statuses.iter().flatten() {
        if let Some((reason, message)) = waiting_reason(c) {
            if CANNOT_START.contains(&reason) {
                return Some(Trouble::CannotStart(cannot_start(reason, message)));
            }
            if BEING_CREATED.contains(&reason) {
                let why = message.filter(|m| !m.is_empty()).unwrap_or(reason);
                return Some(Trouble::BeingCreated(format!(
                    "the container is being created: {why}"
                )));
            }
        }
        if c.ready {
            continue;
        }
        if let Some(error) = last_error(c) {
            let restarts = c.restart_count;
            let again = match restarts {
                0 => String::new(),
                1 => ", restarted once".to_owned(),
                n => format!(", restarted {n} times"),
            };
            return Some(Trouble::Crashing(format!(
                "the program ended with an error ({error}{again})"
            )));
        }
    }
    None
}

fn cannot_start(reason: &str, message: Option<&str>) -> String {
    match message {
        Some(m) if !m.is_empty() => format!("the image cannot be pulled: {m}"),
        _ => format!("the image cannot be pulled ({reason})"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(status: serde_json::Value) -> Pod {
        serde_json::from_value(json!({ "status": status })).unwrap()
    }

    #[test]
    fn a_pod_without_room_says_what_the_scheduler_said() {
        let p = pod(
            json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
            "reason": "Unschedulable", "message": "0/2 nodes are available: 1 Insufficient cpu."}]}),
        );
        let t = trouble(&p).unwrap();
        assert!(t.is_waiting());
        assert_eq!(
            t.message(),
            "waiting for a node: 0/2 nodes are available: 1 Insufficient cpu."
        );
    }

    #[test]
    fn a_crashing_program_a_failed_checkout_and_a_missing_image_are_failures() {
        let crash = pod(
            json!({"phase": "Running", "containerStatuses": [{"name": "app", "ready": false,
            "restartCount": 3, "image": "i", "imageID": "",
            "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s"}},
            "lastState": {"terminated": {"exitCode": 1, "reason": "Error"}}}]}),
        );
        let t = trouble(&crash).unwrap();
        assert!(!t.is_waiting());
        assert_eq!(
            t.message(),
            "the program ended with an error (exit code 1, restarted 3 times)"
        );

        let oom = pod(
            json!({"containerStatuses": [{"name": "app", "ready": false, "restartCount": 1,
            "image": "i", "imageID": "", "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled"}}}]}),
        );
        assert_eq!(
            trouble(&oom).unwrap().message(),
            "the program ended with an error (it ran out of memory, restarted once)"
        );

        let checkout = pod(
            json!({"initContainerStatuses": [{"name": "git-checkout", "ready": false,
            "restartCount": 2, "image": "g", "imageID": "",
            "lastState": {"terminated": {"exitCode": 128}}}]}),
        );
        assert!(matches!(trouble(&checkout), Some(Trouble::Checkout(m)) if m.contains("exit code 128")));

        let image = pod(
            json!({"containerStatuses": [{"name": "app", "ready": false, "restartCount": 0,
            "image": "i", "imageID": "", "state": {"waiting": {"reason": "ErrImageNeverPull",
            "message": "Container image \"x\" is not present with pull policy of Never"}}}]}),
        );
        assert_eq!(
            trouble(&image).unwrap().message(),
            "the image cannot be pulled: Container image \"x\" is not present with pull policy of Never"
        );
    }

    #[test]
    fn a_container_the_kubelet_is_still_making_waits_and_says_why() {
        let p = pod(
            json!({"phase": "Pending", "containerStatuses": [{"name": "app", "ready": false,
            "restartCount": 0, "image": "i", "imageID": "", "state": {"waiting": {
            "reason": "CreateContainerConfigError",
            "message": "failed to sync secret cache: timed out waiting for the condition"}}}]}),
        );
        let t = trouble(&p).unwrap();
        assert!(t.is_waiting(), "it passes by itself: not a failure");
        assert_eq!(
            t.message(),
            "the container is being created: failed to sync secret cache: timed out waiting for the condition"
        );
    }

    #[test]
    fn a_pod_evicted_for_its_scratch_space_says_so() {
        let p = pod(json!({"phase": "Failed", "reason": "Evicted",
            "message": "Usage of EmptyDir volume \"workspace\" exceeds the limit \"4Gi\". "}));
        let t = trouble(&p).unwrap();
        assert!(!t.is_waiting());
        assert_eq!(
            t.message(),
            "the node stopped it for using more than it may: Usage of EmptyDir volume \"workspace\" exceeds the limit \"4Gi\"."
        );
    }

    #[test]
    fn a_serving_or_starting_pod_has_no_trouble() {
        let ready = pod(
            json!({"phase": "Running", "containerStatuses": [{"name": "app", "ready": true,
            "restartCount": 1, "image": "i", "imageID": "", "lastState": {"terminated": {"exitCode": 1}}}]}),
        );
        assert_eq!(trouble(&ready), None, "an app that recovered");
        let starting = pod(
            json!({"phase": "Pending", "containerStatuses": [{"name": "app", "ready": false,
            "restartCount": 0, "image": "i", "imageID": "", "state": {"waiting": {"reason": "ContainerCreating"}}}]}),
        );
        assert_eq!(trouble(&starting), None);
        assert_eq!(trouble(&Pod::default()), None);
    }
}
