//! Events for the verdicts people act on. When a reconcile's [`Verdict`] differs from the one the
//! object carried, the change is published on the object:
//!
//! - a Warning when it enters a Stalled verdict (an image outside the list, a missing secret,
//!   dataset or project, a broken DAG, an invalid task, a failed preview, render or run, no
//!   object storage…), reason = the condition's reason, note = its message; again when the same
//!   reason comes with another message (another missing dataset, another import error);
//! - a Normal event when it reaches a state worth telling ([`NOTABLE`]: a preview or an
//!   application runs, a report is rendered, a run succeeded), or becomes Ready after a Stalled
//!   verdict (the problem is gone);
//! - nothing for a verdict that did not change, however often the object is reconciled, and
//!   nothing on the way (Reconciling).
//!
//! Failing calls (a transient error of the reconcile itself) are published by the controllers'
//! error policy, the DAG file's reading by its own `DagRead` event, e-mails by `NotificationSent`.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::{Resource, runtime::events::EventType};
use ludis_crds::{
    Dataset, Insight, Project, Workflow, WorkflowRun,
    common::{CONDITION_DEGRADED, CONDITION_READY, CONDITION_STALLED, find_condition},
};

use crate::{
    context::Context,
    verdict::{Reason, Verdict},
};

/// Ready reasons announced by a Normal event whenever an object reaches them.
pub const NOTABLE: [Reason; 4] = [
    Reason::PreviewRunning,
    Reason::Running,
    Reason::Rendered,
    Reason::Succeeded,
];

/// The action of every verdict event.
pub const ACTION: &str = "Reconcile";

/// One event to publish about a change of verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Announcement {
    pub type_: EventType,
    pub reason: Reason,
    pub note: String,
}

/// Pure: what to publish when an object whose conditions were `before` gets `verdict` (None:
/// nothing, the verdict did not change or is not worth an event).
pub fn announcement(before: &[Condition], verdict: &Verdict) -> Option<Announcement> {
    let ready = find_condition(before, CONDITION_READY);
    let same_reason = ready.is_some_and(|c| verdict.reason() == c.reason.as_str());
    let same_message = ready.is_some_and(|c| c.message == verdict.message());
    let is_on = |type_: &str| find_condition(before, type_).is_some_and(|c| c.status == "True");
    // Objects written before Stalled existed carry only its alias.
    let was_stalled = is_on(CONDITION_STALLED) || is_on(CONDITION_DEGRADED);
    let type_ = match verdict {
        Verdict::Degraded(..) if !(same_reason && same_message) => EventType::Warning,
        Verdict::Ready(reason, _) if !same_reason && (NOTABLE.contains(reason) || was_stalled) => {
            EventType::Normal
        }
        _ => return None,
    };
    Some(Announcement {
        type_,
        reason: verdict.reason(),
        note: verdict.message().to_owned(),
    })
}

/// A kind whose status carries conditions.
pub trait WithConditions: Resource<DynamicType = ()> {
    /// The conditions of the status it was read with (none without a status).
    fn conditions(&self) -> &[Condition];
}

macro_rules! with_conditions {
    ($($kind:ty),*) => {$(
        impl WithConditions for $kind {
            fn conditions(&self) -> &[Condition] {
                self.status.as_ref().map_or(&[], |s| s.conditions.as_slice())
            }
        }
    )*};
}

with_conditions!(Project, Insight, Workflow, WorkflowRun, Dataset);

/// Publishes the [`announcement`] of `verdict` on `obj`, as it was read before the reconcile
/// (call it once the status with the verdict is written).
pub async fn announce<K: WithConditions>(ctx: &Context, obj: &K, verdict: &Verdict) {
    if let Some(a) = announcement(obj.conditions(), verdict) {
        ctx.event(&obj.object_ref(&()), a.type_, a.reason.as_str(), ACTION, a.note)
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The conditions an object carries after `verdict`.
    fn after(verdict: &Verdict) -> Vec<Condition> {
        verdict.conditions(&[], Some(1))
    }

    /// (type, reason, note) of what a change from `before` to `verdict` publishes.
    fn published(before: &[Condition], verdict: &Verdict) -> Option<(EventType, &'static str, String)> {
        announcement(before, verdict).map(|a| (a.type_, a.reason.as_str(), a.note))
    }

    #[test]
    fn entering_a_stalled_verdict_is_a_warning_with_its_reason_and_message() {
        let stalled = [
            (
                Reason::ImageNotAllowed,
                "image \"zz\" is not in the administrator's image list",
            ),
            (Reason::SecretNotFound, "the secret \"env\" does not exist"),
            (Reason::DatasetNotFound, "the dataset \"sales\" does not exist"),
            (Reason::ProjectNotFound, "the project \"demo\" does not exist"),
            (Reason::WorkflowBroken, "the tasks form a cycle through a, b"),
            (Reason::TaskInvalid, "task \"a\": image \"zz\" is not in the list"),
            (Reason::PreviewFailed, "the preview pod failed; see its logs"),
            (Reason::PreviewExited, "the preview command exited"),
            (
                Reason::RenderFailed,
                "rendering the report failed; see the job's logs",
            ),
            (Reason::Failed, "failed tasks: extract"),
            (
                Reason::StorageNotConfigured,
                "the operator has no object storage configured",
            ),
        ];
        let starting = after(&Verdict::progressing(Reason::PreviewStarting, "starting"));
        for (reason, message) in stalled {
            let verdict = Verdict::degraded(reason, message);
            assert_eq!(
                published(&starting, &verdict),
                Some((EventType::Warning, reason.as_str(), message.to_owned()))
            );
            // The first status of a new object too.
            assert_eq!(published(&[], &verdict).unwrap().0, EventType::Warning);
            // Not again while it stays.
            assert_eq!(published(&after(&verdict), &verdict), None, "{reason}");
        }
    }

    #[test]
    fn the_same_reason_with_another_message_is_another_warning() {
        let one = Verdict::degraded(Reason::DatasetNotFound, "the dataset \"a\" does not exist");
        let other = Verdict::degraded(Reason::DatasetNotFound, "the dataset \"b\" does not exist");
        assert_eq!(
            published(&after(&one), &other),
            Some((
                EventType::Warning,
                "DatasetNotFound",
                "the dataset \"b\" does not exist".to_owned()
            ))
        );
    }

    #[test]
    fn reaching_a_notable_state_is_a_normal_event_once() {
        let starting = after(&Verdict::progressing(Reason::PreviewStarting, "starting"));
        let running = Verdict::ready(Reason::PreviewRunning, "the preview runs");
        assert_eq!(
            published(&starting, &running),
            Some((EventType::Normal, "PreviewRunning", "the preview runs".to_owned()))
        );
        assert_eq!(published(&after(&running), &running), None);
        let run = after(&Verdict::progressing(Reason::Running, "tasks are running"));
        let succeeded = Verdict::ready(Reason::Succeeded, "every task succeeded");
        assert_eq!(published(&run, &succeeded).unwrap().1, "Succeeded");
        let app = Verdict::ready(Reason::Running, "the application runs");
        assert_eq!(
            published(&after(&Verdict::progressing(Reason::Starting, "")), &app)
                .unwrap()
                .1,
            "Running"
        );
        assert_eq!(
            published(
                &after(&Verdict::progressing(Reason::Rendering, "")),
                &Verdict::ready(Reason::Rendered, "")
            )
            .unwrap()
            .1,
            "Rendered"
        );
    }

    #[test]
    fn becoming_ready_after_a_stalled_verdict_says_the_problem_is_gone() {
        let refused = after(&Verdict::degraded(Reason::ImageNotAllowed, "no"));
        let stopped = Verdict::ready(Reason::Stopped, "the workspace is ready; no preview runs");
        assert_eq!(
            published(&refused, &stopped),
            Some((
                EventType::Normal,
                "Stopped",
                "the workspace is ready; no preview runs".to_owned()
            ))
        );
        // An object written before Stalled existed (Degraded only) too.
        let mut old = refused.clone();
        old.retain(|c| c.type_ != "Stalled");
        assert_eq!(published(&old, &stopped).unwrap().0, EventType::Normal);
    }

    #[test]
    fn ordinary_changes_publish_nothing() {
        // A new object that is simply ready, a step on the way, a ready state after another.
        let stopped = Verdict::ready(Reason::Stopped, "no preview runs");
        assert_eq!(published(&[], &stopped), None);
        let running = after(&Verdict::ready(Reason::PreviewRunning, "runs"));
        assert_eq!(
            published(&running, &Verdict::progressing(Reason::PreviewStarting, "")),
            None
        );
        assert_eq!(published(&running, &stopped), None);
        let scheduled = after(&Verdict::ready(Reason::Scheduled, "schedule 0 3 * * *"));
        assert_eq!(
            published(&scheduled, &Verdict::ready(Reason::Paused, "paused")),
            None
        );
        // A notable state whose message changes is not a new event.
        assert_eq!(
            published(&running, &Verdict::ready(Reason::PreviewRunning, "other")),
            None
        );
    }
}
