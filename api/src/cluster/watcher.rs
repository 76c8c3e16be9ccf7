//! The resource watcher: one task, started by the API when a cluster is configured, that mirrors
//! every Insight and Dataset custom resource (all namespaces) into the database, so a resource
//! applied with kubectl or a GitOps tool appears in its owner's console and the operator's
//! observations reach the rows the routes read. The kinds share everything below ([`Mirrored`]);
//! what is particular to datasets is in [`datasets`].
//!
//! - **Organization**: the namespace's `ludis.dev/organization` label (an organization id), or a
//!   namespace named `ludis-<slug>` without the label. Resources in other namespaces are skipped
//!   (logged once per namespace); when such a namespace later gets an organization (the label
//!   appears), its resources are listed and mirrored then.
//! - **Row**: found by `(namespace, name)`, else by the `ludis.dev/id` label (a row the API made,
//!   or one made without a cluster, is adopted). A new resource gets a row with `origin =
//!   resource`, the label's id when it is a free UUID (else a new one); the label is never written
//!   back (GitOps would see drift) — the mapping is kept by `(namespace, name)`. A new resource
//!   the API applied itself waits a minute for the row the API writes right after (then it is
//!   adopted with `origin = api`).
//! - **Owner**: the `ludis.dev/owner` annotation when it names a user of the organization (uid or
//!   e-mail); otherwise none (the organization's administrators have it).
//! - **Sharing**: `spec.sharing` becomes the row's resource share entries (managed: the console
//!   cannot revoke them), replaced as a whole on every change: users by e-mail (an address with no
//!   account yet is kept as an e-mail entry, claimed when the user is created) and the
//!   organization.
//! - **Status**: an insight's phase, url and output go to the observed columns (only when the
//!   status describes the current generation); a status-only change writes only those.
//! - **Deletion**: a Delete event deletes the row; after every (re)list, rows of the kind with a
//!   resource that the list did not contain are deleted too (after checking the resource is
//!   really gone, and not for rows changed since the list began).
//!
//! Errors are logged and the watch goes on (with backoff when the API server fails); a lost event
//! is repaired by the next change of the resource or the next relist.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    time::{Duration, Instant},
};

use futures::{StreamExt as _, stream};
use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client, ResourceExt as _,
    core::{DeserializeGuard, ObjectMeta, PartialObjectMeta},
    runtime::{
        WatchStreamExt as _,
        utils::Backoff,
        watcher::{self, Event},
    },
};
use ludis_crds::{
    ANNOTATION_OWNER, Dataset as DatasetCr, FIELD_MANAGER_API, Insight as InsightCr, LABEL_ID,
    LABEL_ORGANIZATION, NAMESPACE_PREFIX,
    common::AccessLevel,
    insight::{InsightPhase, InsightTemplate, InsightType},
};

use crate::{
    app::AppState,
    db::{
        self,
        assets::{self, AssetRow, KIND_APPLICATION, ORIGIN_API, ORIGIN_RESOURCE},
        insights::{self as rows, Insight, InsightRow},
        shares,
    },
    policy::sharing::Level,
};

/// How long a namespace's organization is remembered.
const ORGANIZATION_TTL: Duration = Duration::from_secs(300);
/// Rows changed this close to (or after) the start of a list are not swept by it.
const SWEEP_GRACE_SECS: i64 = 30;
/// How long a new resource of the API's waits for the row the API writes after applying it.
const ROW_GRACE_SECS: i64 = 60;

mod datasets;

/// Starts the watcher when a cluster is configured.
pub fn spawn(state: AppState) -> Option<tokio::task::JoinHandle<()>> {
    let client = state.kube.clone()?;
    Some(tokio::spawn(run(state, client)))
}

/// Exponential backoff from half a second to ten seconds, reset after two quiet minutes.
struct Retry {
    next: Duration,
    last: Option<Instant>,
}

impl Retry {
    const MIN: Duration = Duration::from_millis(500);
    const MAX: Duration = Duration::from_secs(10);
    fn new() -> Self {
        Self {
            next: Self::MIN,
            last: None,
        }
    }
}

impl Iterator for Retry {
    type Item = Duration;
    fn next(&mut self) -> Option<Duration> {
        if self
            .last
            .is_some_and(|at| at.elapsed() > Duration::from_secs(120))
        {
            self.next = Self::MIN;
        }
        self.last = Some(Instant::now());
        let d = self.next;
        self.next = (self.next * 2).min(Self::MAX);
        Some(d)
    }
}

impl Backoff for Retry {
    fn reset(&mut self) {
        self.next = Self::MIN;
    }
}

enum Input {
    Insight(Box<Event<DeserializeGuard<InsightCr>>>),
    Dataset(Box<Event<DeserializeGuard<DatasetCr>>>),
    Namespace(Box<Event<PartialObjectMeta<Namespace>>>),
}

async fn run(state: AppState, client: Client) {
    let insights = watcher::watcher(
        Api::<DeserializeGuard<InsightCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Insight(Box::new(e)))
            .map_err(|e| (InsightCr::NOUN, e))
    })
    .boxed();
    let datasets = watcher::watcher(
        Api::<DeserializeGuard<DatasetCr>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Dataset(Box::new(e)))
            .map_err(|e| (DatasetCr::NOUN, e))
    })
    .boxed();
    let namespaces = watcher::watcher(
        Api::<PartialObjectMeta<Namespace>>::all(client.clone()),
        watcher::Config::default(),
    )
    .backoff(Retry::new())
    .map(|r| {
        r.map(|e| Input::Namespace(Box::new(e)))
            .map_err(|e| ("namespace", e))
    })
    .boxed();
    let mut inputs = stream::select(stream::select(insights, datasets), namespaces);
    let mut mirror = Mirror::new(state, client);
    tracing::info!("watching Insight and Dataset resources");
    // Whether each watch is failing (one warning per failure spell).
    let mut failing: HashSet<&'static str> = HashSet::new();
    while let Some(input) = inputs.next().await {
        match input {
            Ok(Input::Insight(event)) => {
                failing.remove(InsightCr::NOUN);
                mirror.event(*event).await;
            }
            Ok(Input::Dataset(event)) => {
                failing.remove(DatasetCr::NOUN);
                mirror.event(*event).await;
            }
            Ok(Input::Namespace(event)) => mirror.namespace_event(*event).await,
            Err((what, e)) if failing.insert(what) => {
                tracing::warn!(error = %e, "the {what} watch failed; retrying with backoff");
            }
            Err((what, e)) => tracing::debug!(error = %e, "the {what} watch failed again"),
        }
    }
}

/// A kind of custom resource the watcher mirrors into `assets` and that kind's table.
trait Mirrored:
    kube::Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
    + Clone
    + serde::de::DeserializeOwned
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
    /// The `assets.kind` of its rows.
    const KIND: &'static str;
    /// For logs: `insight`, `dataset`.
    const NOUN: &'static str;
    /// Brings the database in line with one (decoded) resource.
    fn mirror(mirror: &mut Mirror, cr: &Self)
    -> impl std::future::Future<Output = anyhow::Result<()>> + Send;
}

impl Mirrored for InsightCr {
    const KIND: &'static str = KIND_APPLICATION;
    const NOUN: &'static str = "insight";
    async fn mirror(mirror: &mut Mirror, cr: &Self) -> anyhow::Result<()> {
        mirror.mirror_insight(cr).await
    }
}

/// The resources seen by a (re)list so far, and when it began.
type Listing = (HashSet<(String, String)>, i64);

/// The organization of a namespace, as far as this database knows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Owner {
    Organization(String),
    Nobody,
}

struct Mirror {
    state: AppState,
    client: Client,
    organizations: HashMap<String, (Owner, Instant)>,
    /// Namespaces whose resources were skipped for want of an organization.
    skipped: HashSet<String>,
    /// Per kind: the resources seen since the last `Init`, and when that list began.
    listing: HashMap<&'static str, Listing>,
    invalid_logged: HashSet<(&'static str, String, String)>,
    /// The usage `(objects, bytes)` last read from each Dataset's status (`(namespace, name)`):
    /// written to the row only when the operator's numbers change, so that a newer measurement
    /// by the API is not replaced by a repeat of older ones on an unrelated event.
    dataset_usage: HashMap<(String, String), (i64, i64)>,
}

impl Mirror {
    fn new(state: AppState, client: Client) -> Self {
        Self {
            state,
            client,
            organizations: HashMap::new(),
            skipped: HashSet::new(),
            listing: HashMap::new(),
            invalid_logged: HashSet::new(),
            dataset_usage: HashMap::new(),
        }
    }

    async fn event<K: Mirrored>(&mut self, event: Event<DeserializeGuard<K>>) {
        match event {
            Event::Init => {
                self.listing.insert(K::KIND, (HashSet::new(), db::now()));
            }
            Event::InitApply(obj) => {
                if let Some((seen, _)) = self.listing.get_mut(K::KIND) {
                    seen.insert(key(meta(&obj)));
                }
                self.applied(obj).await;
            }
            Event::Apply(obj) => self.applied(obj).await,
            Event::Delete(obj) => {
                let (namespace, name) = key(meta(&obj));
                if let Err(e) = self.deleted::<K>(&namespace, &name).await {
                    tracing::warn!(%namespace, %name, error = format!("{e:#}"), "failed to remove a deleted {}", K::NOUN);
                }
            }
            Event::InitDone => {
                if let Some((seen, started)) = self.listing.remove(K::KIND)
                    && let Err(e) = self.sweep::<K>(&seen, started).await
                {
                    tracing::warn!(
                        error = format!("{e:#}"),
                        "failed to sweep {}s whose resource is gone",
                        K::NOUN
                    );
                }
            }
        }
    }

    async fn applied<K: Mirrored>(&mut self, obj: DeserializeGuard<K>) {
        let (namespace, name) = key(meta(&obj));
        match obj.0 {
            Ok(cr) => {
                self.invalid_logged
                    .remove(&(K::KIND, namespace.clone(), name.clone()));
                if let Err(e) = K::mirror(self, &cr).await {
                    tracing::warn!(%namespace, %name, error = format!("{e:#}"), "failed to mirror a {}", K::NOUN);
                }
            }
            Err(invalid) => {
                if self
                    .invalid_logged
                    .insert((K::KIND, namespace.clone(), name.clone()))
                {
                    tracing::warn!(%namespace, %name, error = %invalid.error, "a {} resource does not decode; not mirrored", K::NOUN);
                }
            }
        }
    }

    async fn namespace_event(&mut self, event: Event<PartialObjectMeta<Namespace>>) {
        let ns = match event {
            Event::Apply(ns) | Event::InitApply(ns) => ns,
            Event::Delete(ns) => {
                self.organizations.remove(&ns.name_any());
                self.skipped.remove(&ns.name_any());
                return;
            }
            Event::Init | Event::InitDone => return,
        };
        let name = ns.name_any();
        if !self.skipped.contains(&name) {
            // Only a namespace whose resources were skipped needs a second look; for the others
            // the label is read again when the remembered organization expires.
            self.organizations.remove(&name);
            return;
        }
        match self.resolve(&name, Some(&ns.metadata)).await {
            Ok(Owner::Organization(org)) => {
                tracing::info!(namespace = %name, organization = %org, "the namespace now belongs to an organization; mirroring its resources");
                self.skipped.remove(&name);
                let listed = self.relist::<InsightCr>(&name).await;
                let listed = self.relist::<DatasetCr>(&name).await && listed;
                if !listed {
                    self.skipped.insert(name);
                }
            }
            Ok(Owner::Nobody) => {}
            Err(e) => {
                tracing::warn!(namespace = %name, error = format!("{e:#}"), "failed to resolve a namespace's organization")
            }
        }
    }

    /// Mirrors every resource of a kind in a namespace; false when they could not be listed.
    async fn relist<K: Mirrored>(&mut self, namespace: &str) -> bool {
        match Api::<DeserializeGuard<K>>::namespaced(self.client.clone(), namespace)
            .list(&Default::default())
            .await
        {
            Ok(list) => {
                for obj in list.items {
                    self.applied(obj).await;
                }
                true
            }
            Err(e) => {
                tracing::warn!(%namespace, error = %e, "failed to list the namespace's {}s", K::NOUN);
                false
            }
        }
    }

    /// The organization of a namespace (remembered for a while).
    async fn organization(&mut self, namespace: &str) -> anyhow::Result<Owner> {
        if let Some((owner, at)) = self.organizations.get(namespace)
            && at.elapsed() < ORGANIZATION_TTL
        {
            return Ok(owner.clone());
        }
        let ns = Api::<Namespace>::all(self.client.clone())
            .get_metadata_opt(namespace)
            .await?;
        let owner = self.resolve(namespace, ns.as_ref().map(|n| &n.metadata)).await?;
        if owner == Owner::Nobody && self.skipped.insert(namespace.to_owned()) {
            tracing::info!(%namespace, "resources in this namespace are not mirrored: it belongs to no organization");
        }
        Ok(owner)
    }

    async fn resolve(&mut self, namespace: &str, meta: Option<&ObjectMeta>) -> anyhow::Result<Owner> {
        let label = meta
            .and_then(|m| m.labels.as_ref())
            .and_then(|l| l.get(LABEL_ORGANIZATION));
        let org = match (label, namespace.strip_prefix(NAMESPACE_PREFIX)) {
            (Some(id), _) => db::organizations::by_id(&self.state.db, id).await?.map(|o| o.id),
            (None, Some(slug)) => organization_by_slug(&self.state.db, slug).await?,
            (None, None) => None,
        };
        let owner = org.map_or(Owner::Nobody, Owner::Organization);
        self.organizations
            .insert(namespace.to_owned(), (owner.clone(), Instant::now()));
        Ok(owner)
    }

    /// The row a resource is mirrored by: by `(namespace, name)`, else the row of its
    /// `ludis.dev/id` label when that row mirrors no resource yet (a row made without a
    /// cluster, or the API's row of a resource being created), of the same kind and organization.
    async fn row_of<K: Mirrored>(&self, cr: &K, org: &str) -> anyhow::Result<Option<AssetRow>> {
        let db = &self.state.db;
        let meta = cr.meta();
        let (namespace, name) = key(meta);
        if let Some(a) = assets::by_resource(db, K::KIND, &namespace, &name).await? {
            return Ok(Some(a));
        }
        let Some(id) = label_id(meta) else {
            return Ok(None);
        };
        Ok(assets::by_id(db, id).await?.filter(|a| {
            a.kind == K::KIND
                && a.organization_id == org
                && a.namespace.is_none()
                && a.resource_name.is_none()
        }))
    }

    async fn mirror_insight(&mut self, cr: &InsightCr) -> anyhow::Result<()> {
        let namespace = cr.namespace().unwrap_or_default();
        let name = cr.name_any();
        let Owner::Organization(org) = self.organization(&namespace).await? else {
            return Ok(());
        };
        let db = &self.state.db;
        let existing = match self.row_of(cr, &org).await? {
            Some(a) => rows::by_id(db, &a.id).await?,
            None => None,
        };
        let seen = Seen::of(cr);
        let ignored_report = |row: &InsightRow| {
            if let Some(key) = &seen.report_object
                && row.report_object.is_none()
            {
                tracing::warn!(%namespace, %name, %key, "spec.reportObject is not in the insight's own report folder; ignored");
            }
        };
        let owner = self.owner(&cr.metadata, &org).await?;
        let shares = resource_shares(db, &org, &seen.sharing, owner.as_deref(), level_of).await?;
        let now = db::now();

        let Some(old) = existing else {
            // The API applies a new insight's resource before it writes the row: a young resource
            // of the API's is left to that row (an old one whose row never came is adopted).
            let by_api = applied_by_api(&cr.metadata);
            if by_api && age_secs(&cr.metadata).is_some_and(|age| age < ROW_GRACE_SECS) {
                tracing::debug!(%namespace, %name, "a new resource of the API's; its row is on its way");
                return Ok(());
            }
            let id = match label_id(&cr.metadata) {
                Some(id) if assets::by_id(db, id).await?.is_none() => id.to_lowercase(),
                _ => db::new_id(),
            };
            let mut insight = new_insight(
                &seen,
                &id,
                &org,
                owner,
                &namespace,
                &name,
                now,
                self.lookups(&seen, &namespace).await?,
            );
            if by_api {
                insight.asset.origin = ORIGIN_API.into();
            }
            ignored_report(&insight.details);
            rows::upsert_with_resource_shares(db, &insight, false, &entries(&shares), now).await?;
            tracing::info!(%namespace, %name, id = %insight.asset.id, "a new insight resource is mirrored");
            return Ok(());
        };

        let lookups = if old.asset.origin == ORIGIN_RESOURCE {
            Some(self.lookups(&seen, &namespace).await?)
        } else {
            None
        };
        let new = updated_insight(&old, &seen, owner, &namespace, &name, lookups);
        ignored_report(&new.details);
        let old_shares = managed_shares(db, &old.asset.id).await?;
        if !same_fields(&old, &new) || old_shares != shares {
            let mut new = new;
            if !same_fields(&old, &new) {
                new.asset.updated_at = now;
            }
            rows::upsert_with_resource_shares(db, &new, true, &entries(&shares), now).await?;
        } else if observed(&old.details) != observed(&new.details) {
            let d = &new.details;
            rows::set_observed(
                db,
                &d.id,
                &d.status,
                d.upstream_url.as_deref(),
                d.output.as_deref(),
            )
            .await?;
        }
        Ok(())
    }

    /// The owner named by the annotation: a uid or an e-mail of a user of the organization.
    async fn owner(&self, meta: &ObjectMeta, org: &str) -> anyhow::Result<Option<String>> {
        let Some(value) = meta
            .annotations
            .as_ref()
            .and_then(|a| a.get(ANNOTATION_OWNER))
            .map(|v| v.trim())
        else {
            return Ok(None);
        };
        let user = if value.contains('@') {
            db::users::by_email(&self.state.db, value).await?
        } else {
            db::users::by_uid(&self.state.db, value).await?
        };
        Ok(user.filter(|u| u.organization_id == org).map(|u| u.uid))
    }

    /// The ids of the source project and datasets, by their resource names in the namespace.
    async fn lookups(&self, seen: &Seen, namespace: &str) -> anyhow::Result<Lookups> {
        let db = &self.state.db;
        let project_id = match &seen.project {
            Some(p) => assets::by_resource(db, assets::KIND_PROJECT, namespace, p)
                .await?
                .map(|a| a.id),
            None => None,
        };
        let mut dataset_ids = Vec::new();
        for d in &seen.datasets {
            if let Some(a) = assets::by_resource(db, assets::KIND_DATASET, namespace, d).await? {
                dataset_ids.push(a.id);
            }
        }
        Ok(Lookups {
            project_id,
            dataset_ids,
        })
    }

    async fn deleted<K: Mirrored>(&mut self, namespace: &str, name: &str) -> anyhow::Result<()> {
        self.dataset_usage
            .remove(&(namespace.to_owned(), name.to_owned()));
        if let Some(a) = assets::by_resource(&self.state.db, K::KIND, namespace, name).await? {
            assets::delete(&self.state.db, &a.id).await?;
            tracing::info!(%namespace, %name, id = %a.id, "a {} resource was deleted; its row is removed", K::NOUN);
        }
        Ok(())
    }

    /// After a (re)list: rows whose resource was not listed are deleted, once the resource is
    /// confirmed gone and unless the row changed since the list began (it may be on its way).
    async fn sweep<K: Mirrored>(&self, seen: &HashSet<(String, String)>, started: i64) -> anyhow::Result<()> {
        for a in assets::with_resources(&self.state.db, K::KIND).await? {
            let (Some(namespace), Some(name)) = (&a.namespace, &a.resource_name) else {
                continue;
            };
            if seen.contains(&(namespace.clone(), name.clone())) || a.updated_at >= started - SWEEP_GRACE_SECS
            {
                continue;
            }
            let gone = match Api::<K>::namespaced(self.client.clone(), namespace)
                .get_metadata_opt(name)
                .await
            {
                Ok(found) => found.is_none(),
                Err(kube::Error::Api(e)) if e.code == 404 => true,
                Err(e) => return Err(e.into()),
            };
            if gone {
                assets::delete(&self.state.db, &a.id).await?;
                tracing::info!(%namespace, %name, id = %a.id, "a {}'s resource is gone; its row is removed", K::NOUN);
            }
        }
        Ok(())
    }
}

async fn organization_by_slug(db: &sqlx::AnyPool, slug: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM organizations WHERE slug = $1")
        .bind(slug)
        .fetch_optional(db)
        .await
}

fn meta<K: Mirrored>(obj: &DeserializeGuard<K>) -> &ObjectMeta {
    match &obj.0 {
        Ok(cr) => cr.meta(),
        Err(invalid) => &invalid.metadata,
    }
}

fn key(meta: &ObjectMeta) -> (String, String) {
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

/// Whether the API applied (part of) the resource: it made it.
fn applied_by_api(meta: &ObjectMeta) -> bool {
    meta.managed_fields
        .iter()
        .flatten()
        .any(|m| m.manager.as_deref() == Some(FIELD_MANAGER_API) && m.operation.as_deref() == Some("Apply"))
}

/// Seconds since the resource was created (by the API server's clock).
fn age_secs(meta: &ObjectMeta) -> Option<i64> {
    let created = meta.creation_timestamp.as_ref()?;
    Some(db::now() - created.0.as_second())
}

/// The resource's `ludis.dev/id` label, when it is a UUID.
fn label_id(meta: &ObjectMeta) -> Option<&str> {
    meta.labels
        .as_ref()?
        .get(LABEL_ID)
        .map(String::as_str)
        .filter(|id| is_uuid(id))
}

fn is_uuid(s: &str) -> bool {
    uuid::Uuid::try_parse(s).is_ok()
}

/// Pure: what a resource says, in the database's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub name: String,
    pub description: String,
    pub app_type: String,
    pub app_url: Option<String>,
    pub template: Option<String>,
    pub language: String,
    pub report_object: Option<String>,
    pub project: Option<String>,
    pub files: Vec<String>,
    pub datasets: Vec<String>,
    pub running: bool,
    /// The observed status, when the resource's status describes its current spec.
    pub status: Option<String>,
    pub upstream_url: Option<String>,
    pub output: Option<String>,
    pub sharing: Option<ludis_crds::common::Sharing>,
}

impl Seen {
    pub fn of(cr: &InsightCr) -> Self {
        let spec = &cr.spec;
        let status = cr.status.as_ref();
        let current = status.is_some_and(|s| match (s.observed_generation, cr.metadata.generation) {
            (Some(observed), Some(generation)) => observed >= generation,
            _ => true,
        });
        let phase = status.filter(|_| current).and_then(|s| s.phase);
        let external = spec.app_url.is_some();
        Self {
            name: spec.display_name.clone(),
            description: spec.description.clone(),
            app_type: match spec.type_ {
                InsightType::Application => rows::APPLICATION,
                InsightType::Report => rows::REPORT,
                InsightType::UserReport => rows::USER_REPORT,
            }
            .to_owned(),
            app_url: spec.app_url.clone(),
            template: spec.template.map(|t| {
                match t {
                    InsightTemplate::Cluster => "cluster",
                    InsightTemplate::SliceAndDice => "slice-and-dice",
                    InsightTemplate::Campaign => "campaign",
                }
                .to_owned()
            }),
            language: match spec.language {
                ludis_crds::common::Language::Python => "python",
                ludis_crds::common::Language::R => "r",
            }
            .to_owned(),
            report_object: spec.report_object.clone(),
            project: spec.source.as_ref().map(|s| s.project.clone()),
            files: spec.source.as_ref().map(|s| s.files.clone()).unwrap_or_default(),
            datasets: spec.datasets.iter().map(|d| d.name.clone()).collect(),
            running: spec.running,
            status: phase.map(|p| status_of(p).to_owned()),
            // External apps are redirected to, never proxied.
            upstream_url: status
                .filter(|_| current && !external)
                .and_then(|s| s.url.clone()),
            output: status.filter(|_| current).and_then(|s| s.output.clone()),
            sharing: spec.sharing.clone(),
        }
    }

    /// The status of a new row before the operator reports.
    fn initial_status(&self) -> &'static str {
        match self.app_type.as_str() {
            rows::USER_REPORT => rows::UPLOADED,
            rows::REPORT => rows::RENDERING,
            _ if self.app_url.is_some() => rows::EXTERNAL,
            _ if self.running => rows::STARTING,
            _ => rows::STOPPED,
        }
    }
}

/// Pure: the database status of an operator phase.
pub fn status_of(phase: InsightPhase) -> &'static str {
    match phase {
        InsightPhase::Running => rows::RUNNING,
        InsightPhase::Stopped => rows::STOPPED,
        InsightPhase::Starting => rows::STARTING,
        InsightPhase::Rendering => rows::RENDERING,
        InsightPhase::Rendered => rows::RENDERED,
        InsightPhase::External => rows::EXTERNAL,
        InsightPhase::Uploaded => rows::UPLOADED,
        InsightPhase::Failed => rows::FAILED,
    }
}

/// Ids of what a resource refers to.
#[derive(Debug, Clone, Default)]
pub struct Lookups {
    pub project_id: Option<String>,
    pub dataset_ids: Vec<String>,
}

/// A default picture for an insight that came without one: one of the 15 defaults, by id.
fn default_image(id: &str) -> String {
    let n = id
        .bytes()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
        % 15
        + 1;
    format!("/v1/images/defaults/insight-{n:02}.svg")
}

/// Pure: the rows of a resource seen for the first time.
#[allow(clippy::too_many_arguments)]
pub fn new_insight(
    seen: &Seen,
    id: &str,
    organization_id: &str,
    owner_uid: Option<String>,
    namespace: &str,
    name: &str,
    now: i64,
    lookups: Lookups,
) -> Insight {
    let in_cluster = seen.app_type == rows::APPLICATION && seen.app_url.is_none();
    Insight {
        asset: AssetRow {
            id: id.to_owned(),
            kind: KIND_APPLICATION.into(),
            organization_id: organization_id.to_owned(),
            owner_uid,
            name: seen.name.clone(),
            description: seen.description.clone(),
            img_path: Some(default_image(id)),
            namespace: Some(namespace.to_owned()),
            resource_name: Some(name.to_owned()),
            origin: ORIGIN_RESOURCE.into(),
            views: 0,
            created_at: now,
            updated_at: now,
        },
        details: InsightRow {
            id: id.to_owned(),
            app_type: seen.app_type.clone(),
            status: seen
                .status
                .clone()
                .unwrap_or_else(|| seen.initial_status().to_owned()),
            app_url: seen.app_url.clone(),
            container_name: in_cluster.then(|| name.to_owned()),
            template: seen.template.clone(),
            is_template: false,
            language: seen.language.clone(),
            report_object: own_report_object(seen, id),
            project_id: lookups.project_id,
            publish_filenames: seen.files.clone(),
            dataset_ids: lookups.dataset_ids,
            upstream_url: seen.upstream_url.clone(),
            output: seen.output.clone(),
        },
    }
}

/// Pure: an existing row brought in line with its resource. The resource's fields replace the
/// row's; for a row made in the console (`lookups` is None) the project, files and datasets stay
/// the console's. An owner annotation that names nobody keeps the console's owner, and takes
/// the owner away from a resource row.
pub fn updated_insight(
    old: &Insight,
    seen: &Seen,
    owner_uid: Option<String>,
    namespace: &str,
    name: &str,
    lookups: Option<Lookups>,
) -> Insight {
    let mut new = old.clone();
    let (a, d) = (&mut new.asset, &mut new.details);
    a.name = seen.name.clone();
    a.description = seen.description.clone();
    a.namespace = Some(namespace.to_owned());
    a.resource_name = Some(name.to_owned());
    if owner_uid.is_some() || a.origin == ORIGIN_RESOURCE {
        a.owner_uid = owner_uid;
    }
    d.app_type = seen.app_type.clone();
    d.app_url = seen.app_url.clone();
    d.template = seen.template.clone();
    d.language = seen.language.clone();
    d.report_object = own_report_object(seen, &old.asset.id);
    if let Some(l) = lookups {
        d.project_id = l.project_id;
        d.dataset_ids = l.dataset_ids;
        d.publish_filenames = seen.files.clone();
        let in_cluster = seen.app_type == rows::APPLICATION && seen.app_url.is_none();
        d.container_name = in_cluster.then(|| name.to_owned());
    }
    if let Some(status) = &seen.status {
        d.status = status.clone();
        d.upstream_url = seen.upstream_url.clone();
        d.output = seen.output.clone();
    } else if old.asset.origin == ORIGIN_API && seen.app_url.is_some() {
        // An app the console made external: no workload, nothing to wait for.
        d.status = rows::EXTERNAL.into();
    }
    new
}

/// Pure: the resource's `spec.reportObject` when it names a file of the insight's own report
/// folder (`reports/<insight id>/…`), else nothing: it is presigned for every viewer, so a
/// resource may not point at another insight's, or another organization's, object.
fn own_report_object(seen: &Seen, insight_id: &str) -> Option<String> {
    seen.report_object
        .clone()
        .filter(|key| rows::is_own_report_object(insight_id, key))
}

/// Pure: whether the fields a resource decides are the same (the observed ones aside).
fn same_fields(a: &Insight, b: &Insight) -> bool {
    let strip = |i: &Insight| {
        let mut i = i.clone();
        i.details.status.clear();
        i.details.upstream_url = None;
        i.details.output = None;
        i.asset.updated_at = 0;
        format!("{:?}|{:?}", i.asset, i.details)
    };
    strip(a) == strip(b)
}

fn observed(d: &InsightRow) -> (&str, Option<&str>, Option<&str>) {
    (&d.status, d.upstream_url.as_deref(), d.output.as_deref())
}

fn level_of(level: AccessLevel) -> Level {
    match level {
        AccessLevel::View => Level::View,
        AccessLevel::Execute => Level::Execute,
        AccessLevel::Edit => Level::Edit,
    }
}

/// The resource share entries of `spec.sharing`: `(to_type, to_id) → level` (the highest when an
/// address repeats). Users of the organization by uid, unknown addresses by lowercased e-mail,
/// users of other organizations skipped, the owner skipped (they have edit).
/// `level_of` maps a declared level to the kind's (datasets have no execute).
async fn resource_shares(
    db: &sqlx::AnyPool,
    organization_id: &str,
    sharing: &Option<ludis_crds::common::Sharing>,
    owner_uid: Option<&str>,
    level_of: fn(AccessLevel) -> Level,
) -> anyhow::Result<BTreeMap<(String, String), Level>> {
    let mut out: BTreeMap<(String, String), Level> = BTreeMap::new();
    let Some(sharing) = sharing else {
        return Ok(out);
    };
    let mut add = |to_type: &str, to_id: String, level: Level| {
        let e = out.entry((to_type.to_owned(), to_id)).or_insert(level);
        *e = (*e).max(level);
    };
    for u in &sharing.users {
        let email = u.email.trim().to_lowercase();
        match db::users::by_email(db, &email).await? {
            Some(user) if user.organization_id == organization_id => {
                if Some(user.uid.as_str()) != owner_uid {
                    add(shares::TO_USER, user.uid, level_of(u.level));
                }
            }
            Some(_) => {
                tracing::info!(%email, "spec.sharing names a user of another organization; skipped");
            }
            None => add(shares::TO_EMAIL, email, level_of(u.level)),
        }
    }
    if let Some(level) = sharing.organization {
        add(
            shares::TO_ORGANIZATION,
            organization_id.to_owned(),
            level_of(level),
        );
    }
    Ok(out)
}

/// The row's resource (managed) share entries, in [`resource_shares`]'s shape.
async fn managed_shares(
    db: &sqlx::AnyPool,
    asset_id: &str,
) -> anyhow::Result<BTreeMap<(String, String), Level>> {
    Ok(shares::for_asset(db, asset_id)
        .await?
        .into_iter()
        .filter(|s| s.is_managed())
        .map(|s| ((s.to_type, s.to_id), s.level))
        .collect())
}

fn entries(shares: &BTreeMap<(String, String), Level>) -> Vec<shares::Entry<'_>> {
    shares
        .iter()
        .map(|((to_type, to_id), level)| shares::Entry {
            to_type,
            to_id,
            level: *level,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cr(spec: serde_json::Value, status: Option<serde_json::Value>) -> InsightCr {
        let mut v = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Insight",
            "metadata": {"name": "sales", "namespace": "ludis-acme", "generation": 2},
            "spec": spec,
        });
        if let Some(s) = status {
            v["status"] = s;
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_resource_reads_in_the_databases_words() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["d.py"]},
                   "template": "slice-and-dice", "language": "r", "datasets": [{"name": "s"}]}),
            Some(
                json!({"observedGeneration": 2, "phase": "Running", "url": "http://sales.ludis-acme.svc:8000"}),
            ),
        ));
        assert_eq!(seen.app_type, "application");
        assert_eq!(seen.template.as_deref(), Some("slice-and-dice"));
        assert_eq!(seen.language, "r");
        assert_eq!(seen.status.as_deref(), Some("running"));
        assert_eq!(
            seen.upstream_url.as_deref(),
            Some("http://sales.ludis-acme.svc:8000")
        );
        assert_eq!(seen.project.as_deref(), Some("demo"));
        assert_eq!(seen.datasets, ["s"]);
    }

    #[test]
    fn a_stale_status_is_not_mirrored() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Sales", "type": "application", "source": {"project": "demo", "files": ["d.py"]}, "running": false}),
            Some(json!({"observedGeneration": 1, "phase": "Running", "url": "http://x"})),
        ));
        assert_eq!(seen.status, None);
        assert_eq!(seen.upstream_url, None);
        assert_eq!(seen.initial_status(), rows::STOPPED);
    }

    #[test]
    fn an_external_app_is_never_proxied() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Ext", "type": "application", "appUrl": "https://x.example"}),
            Some(json!({"observedGeneration": 2, "phase": "External", "url": "https://x.example"})),
        ));
        assert_eq!(seen.status.as_deref(), Some("external"));
        assert_eq!(seen.upstream_url, None);
        let new = new_insight(&seen, "id-1", "org", None, "ns", "ext", 5, Lookups::default());
        assert_eq!(new.asset.origin, ORIGIN_RESOURCE);
        assert_eq!(new.details.container_name, None);
        assert!(
            new.asset
                .img_path
                .unwrap()
                .starts_with("/v1/images/defaults/insight-")
        );
    }

    #[test]
    fn a_report_object_outside_the_insights_own_folder_is_not_mirrored() {
        let report = |key: &str| {
            Seen::of(&cr(
                json!({"displayName": "Q3", "type": "user_report", "reportObject": key}),
                None,
            ))
        };
        let own = report("reports/id-1/q3.pdf");
        let new = new_insight(&own, "id-1", "org", None, "ns", "q3", 5, Lookups::default());
        assert_eq!(new.details.report_object.as_deref(), Some("reports/id-1/q3.pdf"));
        for key in [
            "reports/id-2/q3.pdf",
            "datasets/ludis-other/id-1/q3.pdf",
            "reports/id-1/../id-2/q3.pdf",
        ] {
            let foreign = report(key);
            let created = new_insight(&foreign, "id-1", "org", None, "ns", "q3", 5, Lookups::default());
            assert_eq!(created.details.report_object, None, "{key}");
            let updated = updated_insight(&new, &foreign, None, "ns", "q3", None);
            assert_eq!(updated.details.report_object, None, "{key}: replaces the old key");
        }
    }

    #[test]
    fn a_console_row_keeps_its_own_fields_and_owner() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Renamed", "type": "application", "source": {"project": "demo", "files": ["x.py"]}}),
            None,
        ));
        let mut old = new_insight(
            &seen,
            "id-1",
            "org",
            Some("u1".into()),
            "ns",
            "sales",
            5,
            Lookups::default(),
        );
        old.asset.origin = ORIGIN_API.into();
        old.asset.name = "Old".into();
        old.details.publish_filenames = vec!["console.py".into()];
        old.details.status = rows::RUNNING.into();
        let new = updated_insight(&old, &seen, None, "ns", "sales", None);
        assert_eq!(new.asset.name, "Renamed");
        assert_eq!(new.asset.owner_uid.as_deref(), Some("u1"));
        assert_eq!(new.details.publish_filenames, ["console.py"]);
        assert_eq!(
            new.details.status,
            rows::RUNNING,
            "no status yet: the row's stays"
        );
        assert!(!same_fields(&old, &new));
        // A resource row loses an owner the annotation no longer names.
        old.asset.origin = ORIGIN_RESOURCE.into();
        let new = updated_insight(&old, &seen, None, "ns", "sales", Some(Lookups::default()));
        assert_eq!(new.asset.owner_uid, None);
        assert_eq!(new.details.publish_filenames, ["x.py"]);
    }

    #[test]
    fn status_only_changes_are_told_apart() {
        let seen = Seen::of(&cr(
            json!({"displayName": "S", "type": "application", "appUrl": "https://x.example"}),
            None,
        ));
        let old = new_insight(&seen, "id", "org", None, "ns", "s", 5, Lookups::default());
        let mut new = old.clone();
        new.details.status = rows::FAILED.into();
        new.details.upstream_url = Some("http://x".into());
        assert!(same_fields(&old, &new));
        assert_ne!(observed(&old.details), observed(&new.details));
    }

    #[test]
    fn the_backoff_doubles_up_to_ten_seconds() {
        let mut r = Retry::new();
        let d: Vec<_> = (0..7).map(|_| r.next().unwrap().as_millis()).collect();
        assert_eq!(d, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
        r.reset();
        assert_eq!(r.next().unwrap().as_millis(), 500);
    }
}
