//! Status (IO): the run's status, written when it changed; once the run is over, the end-of-run
//! e-mail (after the status, so a failing mail server delays only the e-mail, never the run's
//! state), then `notified`.

use std::time::Duration;

use kube::{ResourceExt as _, runtime::controller::Action, runtime::events::EventType};
use ludis_crds::{
    Workflow, WorkflowRun, WorkflowRunStatus,
    workflow::{NotifyOn, RunPhase, TaskStatus},
};

use crate::{
    context::Context,
    error::{Error, Result},
    events,
    k8s::{apply::update_status, children::RESYNC},
    mail_policy, notify,
    verdict::Verdict,
};

/// How often a running run is looked at again without a change of its pods.
pub const RUNNING_RESYNC: Duration = Duration::from_secs(30);

/// Writes `status` (whose conditions carry `verdict`); once the run is over, sends its e-mail and
/// records that it did (in the same write when there is no e-mail to send).
pub async fn update(
    ctx: &Context,
    run: &WorkflowRun,
    wf: &Workflow,
    mut status: WorkflowRunStatus,
    verdict: &Verdict,
) -> Result<Action> {
    let Some(phase @ (RunPhase::Succeeded | RunPhase::Failed)) = status.phase else {
        write(ctx, run, status, verdict).await?;
        return Ok(Action::requeue(RUNNING_RESYNC));
    };
    let email = (status.notified != Some(true))
        .then(|| email(run, wf, phase, &status.tasks))
        .flatten();
    if email.is_none() {
        status.notified = Some(true);
    }
    let status = write(ctx, run, status, verdict).await?;
    if let Some(email) = email {
        send(ctx, run, &email).await?;
        let notified = WorkflowRunStatus {
            notified: Some(true),
            ..status.clone()
        };
        let written = crate::k8s::apply::patch_status(&ctx.client, run, Some(&status), &notified)
            .await
            .map_err(Error::PatchStatus)?;
        ctx.caches.run_statuses.wrote(&written);
    }
    Ok(Action::requeue(RESYNC))
}

/// Writes `status` unless the run already has it, remembers it (the store lags the write), and
/// publishes the change of `verdict`.
async fn write(
    ctx: &Context,
    run: &WorkflowRun,
    status: WorkflowRunStatus,
    verdict: &Verdict,
) -> Result<WorkflowRunStatus> {
    if let Some(written) = update_status(&ctx.client, run, run.status.as_ref(), &status)
        .await
        .map_err(Error::PatchStatus)?
    {
        ctx.caches.run_statuses.wrote(&written);
    }
    events::announce(ctx, run, verdict).await;
    Ok(status)
}

/// A run that cannot go on: Failed, with the verdict's reason; nothing else changes.
pub async fn degrade(ctx: &Context, run: &WorkflowRun, verdict: Verdict) -> Result<Action> {
    write(ctx, run, degraded(run, &verdict), &verdict).await?;
    Ok(Action::await_change())
}

/// Writes `verdict`'s conditions (what the run waits for), nothing else of its status.
pub async fn wait(ctx: &Context, run: &WorkflowRun, verdict: &Verdict) -> Result<()> {
    let old = run.status.clone().unwrap_or_default();
    let status = WorkflowRunStatus {
        observed_generation: run.metadata.generation,
        conditions: verdict.conditions(&old.conditions, run.metadata.generation),
        ..old
    };
    write(ctx, run, status, verdict).await.map(drop)
}

/// Pure: the status of a run that cannot go on.
pub fn degraded(run: &WorkflowRun, verdict: &Verdict) -> WorkflowRunStatus {
    let old = run.status.clone().unwrap_or_default();
    WorkflowRunStatus {
        observed_generation: run.metadata.generation,
        phase: Some(RunPhase::Failed),
        conditions: verdict.conditions(&old.conditions, run.metadata.generation),
        ..old
    }
}

/// An e-mail about a run.
#[derive(Debug, PartialEq)]
pub struct Email {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
}

/// Pure: the end-of-run e-mail, when the workflow asks for one for a run ending in `phase`.
pub fn email(run: &WorkflowRun, wf: &Workflow, phase: RunPhase, tasks: &[TaskStatus]) -> Option<Email> {
    let n = wf.spec.notification.as_ref().filter(|n| n.enabled)?;
    let due = match n.on {
        NotifyOn::Both => true,
        NotifyOn::Success => phase == RunPhase::Succeeded,
        NotifyOn::Failure => phase == RunPhase::Failed,
    };
    if !due {
        return None;
    }
    let outcome = if phase == RunPhase::Succeeded {
        "succeeded"
    } else {
        "failed"
    };
    // The subject is ours: what users typed (the workflow's name, its tasks') is only in the body.
    let subject = format!("Ludis: a workflow run {outcome}");
    let mut body = format!(
        "The run {} of the workflow {} {outcome}.\n\nTasks:\n",
        run.name_any(),
        wf.spec.display_name
    );
    for t in tasks {
        body.push_str(&format!(
            "  {:<24} {:?} (try {})\n",
            t.name, t.state, t.try_number
        ));
    }
    Some(Email {
        to: n.emails.clone(),
        subject,
        body,
    })
}

/// Sends `email` over SMTP (with an event on the run either way); without an SMTP server, an
/// event says that none was sent.
///
/// Only the organization's members receive it ([`mail_policy`]), within the organization's hourly
/// budget; what is not sent is said in an event on the run.
async fn send(ctx: &Context, run: &WorkflowRun, email: &Email) -> Result<()> {
    let reference = kube::Resource::object_ref(run, &());
    let not_sent = |why: String| {
        let reference = reference.clone();
        async move {
            ctx.event(
                &reference,
                EventType::Warning,
                "NotificationNotSent",
                "Notify",
                why,
            )
            .await
        }
    };
    let Some(smtp) = ctx.config.smtp.as_ref() else {
        not_sent("no SMTP server is configured".into()).await;
        return Ok(());
    };
    let namespace = run.namespace().unwrap_or_default();
    let members = mail_policy::members(&ctx.client, &namespace)
        .await
        .map_err(|source| Error::Observe {
            what: "mail recipients",
            source,
        })?;
    let (to, strangers) = mail_policy::split(&email.to, &members);
    if !strangers.is_empty() {
        not_sent(format!(
            "not members of the organization, not e-mailed: {}",
            strangers.join(", ")
        ))
        .await;
    }
    if to.is_empty() {
        return Ok(());
    }
    let deliveries = u32::try_from(to.len()).unwrap_or(u32::MAX);
    let within_budget = ctx
        .mail_budget
        .lock()
        .expect("the mail budget's lock is never poisoned")
        .take(&namespace, deliveries, std::time::Instant::now());
    if !within_budget {
        let per_hour = ctx.config.mail_per_hour;
        not_sent(format!(
            "the organization's limit of {per_hour} e-mail deliveries per hour is reached"
        ))
        .await;
        return Ok(());
    }
    notify::send(smtp, &to, &email.subject, &email.body)
        .await
        .map_err(Error::Notify)?;
    ctx.event(
        &reference,
        EventType::Normal,
        "NotificationSent",
        "Notify",
        format!("e-mailed {}", to.join(", ")),
    )
    .await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use ludis_crds::workflow::TaskState;
    use serde_json::json;

    use super::{super::fixtures::*, *};
    use crate::verdict::Reason;

    fn tasks() -> Vec<TaskStatus> {
        vec![TaskStatus {
            name: "extract".into(),
            state: TaskState::Failed,
            try_number: 2,
            start_time: None,
            duration: None,
            pod: None,
        }]
    }

    #[test]
    fn the_end_of_run_email_goes_out_when_the_workflow_asks_for_it() {
        let on = |when: &str| {
            workflow(json!({"notification": {"enabled": true, "emails": ["ann@acme.example"], "on": when}}))
        };
        let mail = email(&run(&[]), &on("failure"), RunPhase::Failed, &tasks()).unwrap();
        assert_eq!(mail.to, ["ann@acme.example"]);
        assert_eq!(mail.subject, "Ludis: a workflow run failed");
        assert!(
            mail.body
                .starts_with("The run r1 of the workflow Nightly failed.\n\nTasks:\n")
        );
        assert!(mail.body.contains("extract") && mail.body.contains("(try 2)"));
        assert_eq!(email(&run(&[]), &on("failure"), RunPhase::Succeeded, &[]), None);
        assert!(email(&run(&[]), &on("success"), RunPhase::Succeeded, &[]).is_some());
        assert!(email(&run(&[]), &on("both"), RunPhase::Failed, &[]).is_some());
        let off = workflow(json!({"notification": {"enabled": false, "emails": ["a@b.c"], "on": "both"}}));
        assert_eq!(email(&run(&[]), &off, RunPhase::Failed, &[]), None);
        assert_eq!(
            email(&run(&[]), &workflow(json!({})), RunPhase::Failed, &[]),
            None
        );
    }

    #[test]
    fn a_run_that_cannot_go_on_fails_and_keeps_its_tasks() {
        let mut r = run(&[]);
        r.status = Some(WorkflowRunStatus {
            tasks: tasks(),
            ..Default::default()
        });
        let s = degraded(&r, &Verdict::degraded(Reason::WorkflowNotFound, "gone"));
        assert_eq!(s.phase, Some(RunPhase::Failed));
        assert_eq!(s.tasks, tasks());
        let d = s.conditions.iter().find(|c| c.type_ == "Degraded").unwrap();
        assert_eq!(
            (d.status.as_str(), d.reason.as_str(), d.message.as_str()),
            ("True", "WorkflowNotFound", "gone")
        );
    }
}
