//! What every reconcile receives: the client, the event recorder, metrics and configuration.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use k8s_openapi::api::core::v1::{ConfigMap, ObjectReference};
use kube::{
    Api, Client, Resource,
    runtime::events::{Event, EventType, Recorder, Reporter},
};

use crate::{
    images::{ImageCatalog, ImageWatch},
    k8s::{
        children::{Children, FullApplies},
        stores::Caches,
    },
    metrics::Metrics,
    sizes::{SizeCatalog, SizeWatch},
};

/// The longest note the API server accepts on an event (events.k8s.io/v1: 1 kB).
pub const EVENT_NOTE_LIMIT: usize = 1024;

/// Pure: `note` cut to [`EVENT_NOTE_LIMIT`] bytes at a character boundary, ending with `…` when
/// cut (an import error's traceback can be longer; the whole of it is in the object's status).
pub fn clip_note(mut note: String) -> String {
    if note.len() <= EVENT_NOTE_LIMIT {
        return note;
    }
    let mut end = EVENT_NOTE_LIMIT - '…'.len_utf8();
    while !note.is_char_boundary(end) {
        end -= 1;
    }
    note.truncate(end);
    note.push('…');
    note
}

/// Operator configuration (from flags and environment, see `main.rs`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Namespace of the operator's own objects (the image list, the leader Lease).
    pub system_namespace: String,
    /// Name of the ConfigMap holding the administrator's image list: data `<image id>: <image ref>`.
    pub images_configmap: String,
    /// Name of the size list ConfigMap in the system namespace (`ludis-sizes`).
    pub sizes_configmap: String,
    /// Image of the init container that checks out a project's git repository.
    pub git_image: String,
    /// Where the API serves git to pods (`LUDIS_GIT_URL`, the API's own setting): repositories
    /// under it are cloned with the pod's identity token ([`crate::controllers::checkout`]).
    pub git_url: Option<String>,
    /// Where pods reach the API's storage gateway (`LUDIS_STORAGE_URL`: S3 and STS on one
    /// endpoint), exchanging their identity token for short-lived credentials to the datasets
    /// they reference ([`crate::controllers::storage_identity`]). None: pods cannot reach datasets.
    pub storage_url: Option<String>,
    /// Image of the workflow tick pods (they only mark a tick; the run's tasks are separate pods).
    pub tick_image: String,
    /// Image of dataset upload tasks and report publishing (copies files to object storage with
    /// the AWS CLI).
    pub upload_image: String,
    /// Keys of the `NoSchedule` taints every workload pod tolerates (nodes set aside for Ludis).
    pub workload_tolerations: Vec<String>,
    /// Default bucket of organizations whose namespace has no `ludis.dev/bucket` annotation.
    pub default_bucket: String,
    /// Storage class of workspace volumes (None: the cluster default).
    pub storage_class: Option<String>,
    /// Object storage of datasets (None: datasets report StorageNotConfigured).
    pub s3: Option<ludis_storage::S3Settings>,
    /// The SMTP server for workflow notifications (None: none are sent; an event says so).
    pub smtp: Option<crate::notify::SmtpSettings>,
    /// Deliveries (messages × recipients) of workflow e-mail each organization may make per hour.
    pub mail_per_hour: u32,
}

impl Config {
    pub fn for_tests(system_namespace: &str) -> Self {
        Self {
            system_namespace: system_namespace.to_owned(),
            images_configmap: "ludis-images".into(),
            sizes_configmap: ludis_crds::sizes::CONFIGMAP.into(),
            git_image: "localhost/ludis/git:test".into(),
            git_url: None,
            storage_url: None,
            tick_image: "localhost/ludis/git:test".into(),
            upload_image: "localhost/ludis/python:test".into(),
            workload_tolerations: vec![crate::controllers::pods::WORKLOAD_TAINT.into()],
            default_bucket: "ludis".into(),
            storage_class: None,
            s3: std::env::var("LUDIS_S3_ENDPOINT")
                .ok()
                .map(|endpoint| ludis_storage::S3Settings {
                    endpoint,
                    region: "us-east-1".into(),
                    access_key: std::env::var("LUDIS_S3_ACCESS_KEY").unwrap_or_default(),
                    secret_key: std::env::var("LUDIS_S3_SECRET_KEY").unwrap_or_default(),
                }),
            smtp: std::env::var("LUDIS_TEST_SMTP_PORT")
                .ok()
                .and_then(|p| p.parse().ok())
                .map(|port| crate::notify::SmtpSettings {
                    host: "127.0.0.1".into(),
                    port,
                    from: "ludis@localhost".into(),
                }),
            mail_per_hour: crate::mail_policy::DEFAULT_PER_HOUR,
        }
    }
}

/// Shared state of all controllers.
#[derive(Clone)]
pub struct Context {
    pub client: Client,
    pub config: Arc<Config>,
    pub metrics: Arc<Metrics>,
    pub recorder: Recorder,
    /// Client of the datasets' object storage, when configured.
    pub s3: Option<aws_sdk_s3::Client>,
    /// Caches of children and of projects.
    pub caches: Arc<Caches>,
    /// The administrator's image list, kept current by a watch.
    pub image_watch: ImageWatch,
    /// The administrator's size list, kept current by a watch.
    pub size_watch: SizeWatch,
    /// The workflow e-mail each organization sent in the last hour.
    pub mail_budget: Arc<Mutex<crate::mail_policy::MailBudget>>,
    /// Consecutive failures per object, for the retry backoff.
    failures: Arc<Mutex<HashMap<String, u32>>>,
    /// When each object's children were last applied unconditionally.
    full_applies: Arc<FullApplies>,
    /// Set when the controllers are stopping: reconciles still running are abandoned.
    stopping: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Context {
    pub fn new(client: Client, config: Config, metrics: Arc<Metrics>, instance: Option<String>) -> Self {
        let reporter = Reporter {
            controller: "ludis-operator".into(),
            instance,
        };
        Self {
            recorder: Recorder::new(client.clone(), reporter),
            s3: config.s3.as_ref().map(ludis_storage::client),
            mail_budget: Arc::new(Mutex::new(crate::mail_policy::MailBudget::new(
                config.mail_per_hour,
            ))),
            client,
            config: Arc::new(config),
            metrics,
            caches: Arc::default(),
            image_watch: ImageWatch::default(),
            size_watch: SizeWatch::default(),
            failures: Arc::default(),
            full_applies: Arc::default(),
            stopping: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }

    /// This context for a new term of leadership: the same clients and settings, new caches (the
    /// watches that filled the last term's caches ended with it).
    pub fn for_new_term(&self) -> Self {
        Self {
            caches: Arc::default(),
            ..self.clone()
        }
    }

    /// The administrator's image list (empty when the ConfigMap does not exist): from the watch
    /// once it has listed, read from the API server before that.
    pub async fn images(&self) -> kube::Result<ImageCatalog> {
        self.image_watch
            .current_or_read(self.system_config_maps(), &self.config.images_configmap)
            .await
    }

    /// The administrator's size list (the seeded one when the ConfigMap does not exist), as
    /// [`Self::images`] reads the image list.
    pub async fn sizes(&self) -> kube::Result<SizeCatalog> {
        self.size_watch
            .current_or_read(self.system_config_maps(), &self.config.sizes_configmap)
            .await
    }

    /// Fires whenever the image list or the size list changes (after their first listing):
    /// objects refused an image or a size are looked at again.
    pub fn list_changes(&self) -> impl futures::Stream<Item = ()> + Send + 'static {
        futures::stream::select(self.image_watch.changes(), self.size_watch.changes())
    }

    /// The ConfigMaps of the system namespace (the administrator's lists).
    pub fn system_config_maps(&self) -> Api<ConfigMap> {
        Api::namespaced(self.client.clone(), &self.config.system_namespace)
    }

    /// The children of `owner` for one reconcile by `controller`.
    pub fn children<O: Resource<DynamicType = ()>>(&self, controller: &str, owner: &O) -> Children<'_> {
        Children::new(&self.client, &self.full_applies, controller, owner)
    }

    /// Marks the controllers as running (again, after a lost and regained leadership).
    pub fn start(&self) {
        self.stopping.send_replace(false);
    }

    /// Tells running reconciles that the controllers are stopping.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Completes once the controllers are stopping.
    pub async fn stopped(&self) {
        let mut rx = self.stopping.subscribe();
        let _ = rx.wait_for(|s| *s).await;
    }

    /// Publishes an event about `reference` (its note cut to the API server's limit); failures
    /// are logged, never fatal.
    pub async fn event(
        &self,
        reference: &ObjectReference,
        type_: EventType,
        reason: &str,
        action: &str,
        note: String,
    ) {
        let ev = Event {
            type_,
            reason: reason.into(),
            note: Some(clip_note(note)),
            action: action.into(),
            secondary: None,
        };
        if let Err(e) = self.recorder.publish(&ev, reference).await {
            tracing::warn!(error = %e, reason, "failed to publish an event");
        }
    }

    /// Records a failed reconcile of `key`; returns the delay before the next try
    /// (1 s doubling up to 5 min).
    pub fn backoff(&self, key: &str) -> Duration {
        let mut failures = self.failures.lock().expect("not poisoned");
        let n = failures.entry(key.to_owned()).or_insert(0);
        *n = n.saturating_add(1);
        Duration::from_secs(1u64 << (*n - 1).min(8)).min(Duration::from_secs(300))
    }

    /// Forgets the failures of `key` after a successful reconcile.
    pub fn succeeded(&self, key: &str) {
        self.failures.lock().expect("not poisoned").remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_event_notes_are_cut_at_a_character_boundary() {
        assert_eq!(clip_note("short".into()), "short");
        let exact = "a".repeat(EVENT_NOTE_LIMIT);
        assert_eq!(clip_note(exact.clone()), exact);
        let long = "é".repeat(EVENT_NOTE_LIMIT);
        let clipped = clip_note(long);
        assert!(clipped.len() <= EVENT_NOTE_LIMIT, "{}", clipped.len());
        assert!(clipped.ends_with("é…"));
    }
}
