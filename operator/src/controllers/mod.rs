//! One controller per kind. Each reconcile is a pipeline: observe (IO) → validate (pure) →
//! build the desired children (pure) → apply them and delete orphans (IO) → status (IO).

pub mod dataset;
pub mod insight;
pub mod pods;
pub mod project;
pub mod workflow;

use std::{fmt::Debug, future::Future, sync::Arc, time::Duration};

use futures::StreamExt as _;
use k8s_openapi::{
    NamespaceResourceScope,
    apimachinery::pkg::apis::meta::v1::{Condition, Time},
    jiff::Timestamp,
};
use kube::{
    Resource, ResourceExt as _,
    core::DeserializeGuard,
    runtime::{controller::Action, events::EventType},
};
use ludis_crds::common::{CONDITION_DEGRADED, CONDITION_PROGRESSING, CONDITION_READY, set_condition};
use serde::de::DeserializeOwned;

use crate::{context::Context, error::Error};

/// How often a healthy object is looked at again even without changes.
pub const RESYNC: Duration = Duration::from_secs(300);

/// How many objects of one kind are reconciled at the same time.
pub const CONCURRENCY: u16 = 256;

/// What a reconcile concluded, turned into the three standard conditions.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Ready=True: the object is doing what its spec asks.
    pub ready: bool,
    /// Progressing=True: the operator is still working towards the spec.
    pub progressing: bool,
    /// Degraded=True with this reason: the spec cannot be carried out as it is.
    pub degraded: bool,
    /// PascalCase reason of the Ready condition (and of Degraded when degraded).
    pub reason: String,
    /// What a person should know.
    pub message: String,
}

impl Verdict {
    pub fn ready(reason: &str, message: impl Into<String>) -> Self {
        Self {
            ready: true,
            progressing: false,
            degraded: false,
            reason: reason.into(),
            message: message.into(),
        }
    }

    pub fn progressing(reason: &str, message: impl Into<String>) -> Self {
        Self {
            ready: false,
            progressing: true,
            degraded: false,
            reason: reason.into(),
            message: message.into(),
        }
    }

    pub fn degraded(reason: &str, message: impl Into<String>) -> Self {
        Self {
            ready: false,
            progressing: false,
            degraded: true,
            reason: reason.into(),
            message: message.into(),
        }
    }

    /// The conditions after this verdict, keeping transition times of unchanged ones.
    pub fn conditions(&self, existing: &[Condition], generation: Option<i64>) -> Vec<Condition> {
        let now = Time(Timestamp::now());
        let cond = |type_: &str, on: bool, reason: &str, message: &str| Condition {
            type_: type_.into(),
            status: if on { "True" } else { "False" }.into(),
            reason: reason.into(),
            message: message.into(),
            observed_generation: generation,
            last_transition_time: now.clone(),
        };
        let mut out = existing.to_vec();
        set_condition(
            &mut out,
            cond(CONDITION_READY, self.ready, &self.reason, &self.message),
        );
        let (p_reason, p_msg) = if self.progressing {
            (self.reason.as_str(), self.message.as_str())
        } else {
            ("Idle", "")
        };
        set_condition(
            &mut out,
            cond(CONDITION_PROGRESSING, self.progressing, p_reason, p_msg),
        );
        let (d_reason, d_msg) = if self.degraded {
            (self.reason.as_str(), self.message.as_str())
        } else {
            ("AsExpected", "")
        };
        set_condition(&mut out, cond(CONDITION_DEGRADED, self.degraded, d_reason, d_msg));
        out
    }
}

/// When to look again at an object whose spec cannot be carried out yet: something on its way
/// (a dataset being set up) is checked again shortly, a reference to a dataset that may still
/// be created a little later; anything else waits for a change of the object (or, for images,
/// of the image list).
pub fn retry_invalid(verdict: &Verdict) -> Action {
    if verdict.progressing {
        Action::requeue(Duration::from_secs(5))
    } else if verdict.reason == "DatasetNotFound" {
        Action::requeue(Duration::from_secs(15))
    } else {
        Action::await_change()
    }
}

/// Wraps a kind's reconcile: unwraps the deserialize guard (a malformed object is logged and
/// waits for a change instead of stalling the controller), measures, and resets the backoff.
pub async fn guarded<K, F, Fut>(
    controller: &'static str,
    obj: Arc<DeserializeGuard<K>>,
    ctx: Arc<Context>,
    reconcile: F,
) -> Result<Action, Error>
where
    K: Resource<DynamicType = ()> + Clone + Debug,
    F: FnOnce(Arc<K>, Arc<Context>) -> Fut,
    Fut: Future<Output = Result<Action, Error>>,
{
    let obj = match &obj.0 {
        Ok(obj) => Arc::new(obj.clone()),
        Err(invalid) => {
            tracing::warn!(
                controller,
                name = invalid.metadata.name.as_deref().unwrap_or_default(),
                namespace = invalid.metadata.namespace.as_deref().unwrap_or_default(),
                error = %invalid.error,
                "skipping an object that does not match its schema"
            );
            return Ok(Action::await_change());
        }
    };
    let key = format!(
        "{controller}/{}/{}",
        obj.namespace().unwrap_or_default(),
        obj.name_any()
    );
    let start = std::time::Instant::now();
    // A stopping controller does not wait for slow reconciles: they are idempotent, and the next
    // leader starts them over. This keeps failover fast.
    let result = tokio::select! {
        r = reconcile(obj, ctx.clone()) => r,
        () = ctx.stopped() => return Ok(Action::await_change()),
    };
    ctx.metrics.reconciled(controller, start.elapsed().as_secs_f64());
    if result.is_ok() {
        ctx.succeeded(&key);
    }
    result
}

/// The error policy of every controller: transient errors retry with a growing delay; the error
/// is counted by its label and published as a Warning event on the object.
pub fn error_policy<K>(
    controller: &'static str,
    obj: Arc<DeserializeGuard<K>>,
    error: &Error,
    ctx: Arc<Context>,
) -> Action
where
    K: Resource<DynamicType = ()> + Clone + Debug + Send + Sync + 'static,
{
    ctx.metrics.failed(controller, &error.label());
    let Ok(obj) = &obj.0 else {
        return Action::await_change();
    };
    let key = format!(
        "{controller}/{}/{}",
        obj.namespace().unwrap_or_default(),
        obj.name_any()
    );
    let delay = ctx.backoff(&key);
    tracing::warn!(controller, object = %key, error = %error, retry_in = ?delay, "reconcile failed");
    let reference = obj.object_ref(&());
    let note = error.to_string();
    let reason = to_pascal(&error.label());
    tokio::spawn(async move {
        ctx.event(&reference, EventType::Warning, &reason, "Reconcile", note)
            .await
    });
    Action::requeue(delay)
}

/// snake_case → PascalCase (event reasons).
fn to_pascal(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Runs a kind's controller: every reconcile goes through [`guarded`] and every error through
/// [`error_policy`], until `shutdown` completes.
pub fn drive<K, Fut>(
    controller: kube::runtime::Controller<DeserializeGuard<K>>,
    name: &'static str,
    reconcile: fn(Arc<K>, Arc<Context>) -> Fut,
    ctx: Arc<Context>,
    shutdown: impl Future<Output = ()> + Send + Sync + 'static,
) -> impl futures::Stream<Item = ()>
where
    K: LudisKind + serde::Serialize,
    Fut: Future<Output = Result<Action, Error>> + Send + 'static,
{
    controller
        // A cap high enough that objects rarely wait behind slow calls (32 gave a p99 CR→child
        // of 91 s under a flood, unbounded 10 s) yet bounds the memory of in-flight reconciles
        // (unbounded peaked at 115 MiB for 2,000 objects, 32 at 47 MiB).
        .with_config(kube::runtime::controller::Config::default().concurrency(CONCURRENCY))
        .graceful_shutdown_on(shutdown)
        .run(
            move |obj, ctx| guarded(name, obj, ctx, reconcile),
            move |obj, err, ctx| error_policy(name, obj, err, ctx),
            ctx,
        )
        .map(|_| ())
}

/// Runs every controller until shutdown.
pub async fn run(ctx: Arc<Context>, shutdown: impl Future<Output = ()> + Send + Sync + 'static) {
    let shutdown = futures::future::FutureExt::shared(Box::pin(shutdown));
    ctx.start();
    let stopper = {
        let (ctx, shutdown) = (ctx.clone(), shutdown.clone());
        tokio::spawn(async move {
            shutdown.await;
            ctx.stop();
        })
    };
    let project = project::controller(ctx.clone(), shutdown.clone());
    let insight = insight::controller(ctx.clone(), shutdown.clone());
    let dataset = dataset::controller(ctx.clone(), shutdown.clone());
    let workflow = workflow::controller(ctx.clone(), shutdown.clone());
    let run = workflow::run::controller(ctx.clone(), shutdown.clone());
    let images = ctx.image_watch.clone().run(
        kube::Api::namespaced(ctx.client.clone(), &ctx.config.system_namespace),
        ctx.config.images_configmap.clone(),
    );
    // The image watch ends with the controllers.
    let images = async move {
        tokio::select! {
            () = images => {}
            () = shutdown => {}
        }
    };
    let _stopper = AbortOnDrop(stopper);
    futures::join!(
        images,
        project.for_each(|_| async {}),
        insight.for_each(|_| async {}),
        dataset.for_each(|_| async {}),
        workflow.for_each(|_| async {}),
        run.for_each(|_| async {})
    );
}

struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Shorthand bounds of the kinds we reconcile.
pub trait LudisKind:
    Resource<DynamicType = (), Scope = NamespaceResourceScope>
    + Clone
    + Debug
    + DeserializeOwned
    + Send
    + Sync
    + 'static
{
}
impl<K> LudisKind for K where
    K: Resource<DynamicType = (), Scope = NamespaceResourceScope>
        + Clone
        + Debug
        + DeserializeOwned
        + Send
        + Sync
        + 'static
{
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ready_verdict_sets_the_three_conditions() {
        let conds = Verdict::ready("Stopped", "no preview runs").conditions(&[], Some(3));
        let get = |t: &str| conds.iter().find(|c| c.type_ == t).unwrap();
        assert_eq!(get("Ready").status, "True");
        assert_eq!(get("Ready").reason, "Stopped");
        assert_eq!(get("Progressing").status, "False");
        assert_eq!(get("Degraded").status, "False");
        assert_eq!(get("Degraded").reason, "AsExpected");
        assert!(conds.iter().all(|c| c.observed_generation == Some(3)));
    }

    #[test]
    fn a_degraded_verdict_explains_itself() {
        let conds =
            Verdict::degraded("ImageNotAllowed", "image x is not in the list").conditions(&[], Some(1));
        let degraded = conds.iter().find(|c| c.type_ == "Degraded").unwrap();
        assert_eq!(degraded.status, "True");
        assert_eq!(degraded.reason, "ImageNotAllowed");
        assert_eq!(degraded.message, "image x is not in the list");
        assert_eq!(conds.iter().find(|c| c.type_ == "Ready").unwrap().status, "False");
    }

    #[test]
    fn labels_become_event_reasons() {
        assert_eq!(to_pascal("apply_preview_pod"), "ApplyPreviewPod");
    }
}
