//! The mirroring every kind shares: the events of a kind's watch, a namespace's organization, the
//! row a resource is mirrored by, its owner, the writes, deletion and the sweep after a (re)list.
//! What a kind decides (its rows, its fields, what it observed) is its [`Mirrored`] impl.

use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api, Client, ResourceExt as _,
    core::{DeserializeGuard, ObjectMeta, PartialObjectMeta},
    runtime::watcher::Event,
};
use ludis_crds::{
    ANNOTATION_OWNER, Dataset as DatasetCr, FIELD_MANAGER_API, Insight as InsightCr, LABEL_ID,
    LABEL_ORGANIZATION, NAMESPACE_PREFIX,
    common::{AccessLevel as DeclaredLevel, Sharing},
};

use super::shares::{entries, managed_shares, resource_shares};
use crate::{
    db::{
        self,
        assets::{self, AssetRow},
        details::{self, Details, WithDetails},
    },
    domain::{AccessLevel, AssetKind, Origin},
    state::AppState,
};

/// How long a namespace's organization is remembered.
const ORGANIZATION_TTL: Duration = Duration::from_secs(300);
/// Rows changed this close to (or after) the start of a list are not swept by it.
const SWEEP_GRACE_SECS: i64 = 30;
/// How long a new resource of the API's waits for the row the API writes after applying it.
const ROW_GRACE_SECS: i64 = 60;

/// What a resource of `K` says, in the database's words.
pub(super) trait Reading<K>: Sized + Send + Sync {
    fn of(cr: &K) -> Self;
    /// Its `spec.sharing`.
    fn sharing(&self) -> Option<&Sharing>;
}

/// A kind of custom resource the watcher mirrors into `assets` and the kind's details table: what
/// the kind decides; [`Mirror::mirror`] does the rest.
pub(super) trait Mirrored:
    kube::Resource<DynamicType = (), Scope = k8s_openapi::NamespaceResourceScope>
    + Clone
    + serde::de::DeserializeOwned
    + std::fmt::Debug
    + Send
    + Sync
    + 'static
{
    /// The kind's rows.
    type Details: Details;
    /// What a resource says, in the database's words.
    type Seen: Reading<Self>;
    /// The kind of its rows.
    const KIND: AssetKind = <Self::Details as Details>::KIND;

    /// A level declared in `spec.sharing`, in the kind's levels (each its own by default).
    fn level_of(level: DeclaredLevel) -> AccessLevel {
        match level {
            DeclaredLevel::View => AccessLevel::View,
            DeclaredLevel::Execute => AccessLevel::Execute,
            DeclaredLevel::Edit => AccessLevel::Edit,
        }
    }
    /// The ids a new row takes, first choice first (each when it is a free UUID).
    fn id_candidates(cr: &Self) -> Vec<String>;
    /// The rows of a resource seen for the first time; `None` when it is not mirrored.
    fn new_rows(
        m: &mut Mirror,
        cr: &Self,
        seen: &Self::Seen,
        row: AssetRow,
    ) -> impl Future<Output = anyhow::Result<Option<WithDetails<Self::Details>>>> + Send;
    /// An existing row brought in line with its resource (`owner`: the annotation's user, if any).
    fn updated(
        m: &mut Mirror,
        cr: &Self,
        old: &WithDetails<Self::Details>,
        seen: &Self::Seen,
        owner: Option<String>,
    ) -> impl Future<Output = anyhow::Result<WithDetails<Self::Details>>> + Send;
    /// Whether the fields a resource decides are the same (what the operator observed aside).
    fn same_fields(a: &WithDetails<Self::Details>, b: &WithDetails<Self::Details>) -> bool;
    /// Writes what the operator observed, when that alone changed.
    fn write_observed(
        db: &sqlx::AnyPool,
        old: &WithDetails<Self::Details>,
        new: &WithDetails<Self::Details>,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;
    /// The kind's own handling of a resource before anything else (a dataset being deleted);
    /// true when that was all.
    fn handled(
        _m: &mut Mirror,
        _cr: &Self,
        _existing: Option<&WithDetails<Self::Details>>,
    ) -> impl Future<Output = anyhow::Result<bool>> + Send {
        async { Ok(false) }
    }
    /// Whether a row may be this resource's (a sample dataset's never is).
    fn adoptable(_row: &WithDetails<Self::Details>) -> bool {
        true
    }
    /// Forgets what is remembered of a resource `(namespace, name)` (after a failure or a delete).
    fn forget(_m: &mut Mirror, _key: &(String, String)) {}
}

/// The resources seen by a (re)list so far, and when it began.
type Listing = (HashSet<(String, String)>, i64);

/// The organization of a namespace, as far as this database knows.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Owner {
    Organization(String),
    Nobody,
}

pub(super) struct Mirror {
    pub(super) state: AppState,
    client: Client,
    organizations: HashMap<String, (Owner, Instant)>,
    /// Namespaces whose resources were skipped for want of an organization.
    skipped: HashSet<String>,
    /// Per kind: the resources seen since the last `Init`, and when that list began.
    listing: HashMap<AssetKind, Listing>,
    invalid_logged: HashSet<(AssetKind, String, String)>,
    /// The usage `(objects, bytes)` last read from each Dataset's status (`(namespace, name)`):
    /// written to the row only when the operator's numbers change, so that a newer measurement
    /// by the API is not replaced by a repeat of older ones on an unrelated event.
    pub(super) dataset_usage: HashMap<(String, String), (i64, i64)>,
}

impl Mirror {
    pub(super) fn new(state: AppState, client: Client) -> Self {
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

    pub(super) async fn event<K: Mirrored>(&mut self, event: Event<DeserializeGuard<K>>) {
        match event {
            Event::Init => {
                self.listing.insert(K::KIND, (HashSet::new(), db::now()));
            }
            Event::InitApply(obj) => {
                if let Some((seen, _)) = self.listing.get_mut(&K::KIND) {
                    seen.insert(key(meta(&obj)));
                }
                self.applied(obj).await;
            }
            Event::Apply(obj) => self.applied(obj).await,
            Event::Delete(obj) => {
                let (namespace, name) = key(meta(&obj));
                K::forget(self, &(namespace.clone(), name.clone()));
                if let Err(e) = self.deleted::<K>(&namespace, &name).await {
                    tracing::warn!(%namespace, %name, error = format!("{e:#}"), "failed to remove a deleted {}", K::KIND.noun());
                }
            }
            Event::InitDone => {
                if let Some((seen, started)) = self.listing.remove(&K::KIND)
                    && let Err(e) = self.sweep::<K>(&seen, started).await
                {
                    tracing::warn!(
                        error = format!("{e:#}"),
                        "failed to sweep {}s whose resource is gone",
                        K::KIND.noun()
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
                if let Err(e) = self.mirror(&cr).await {
                    K::forget(self, &(namespace.clone(), name.clone()));
                    tracing::warn!(%namespace, %name, error = format!("{e:#}"), "failed to mirror a {}", K::KIND.noun());
                }
            }
            Err(invalid) => {
                if self
                    .invalid_logged
                    .insert((K::KIND, namespace.clone(), name.clone()))
                {
                    tracing::warn!(%namespace, %name, error = %invalid.error, "a {} resource does not decode; not mirrored", K::KIND.noun());
                }
            }
        }
    }

    pub(super) async fn namespace_event(&mut self, event: Event<PartialObjectMeta<Namespace>>) {
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
                let listed = self.relist::<ludis_crds::Project>(&name).await && listed;
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
                tracing::warn!(%namespace, error = %e, "failed to list the namespace's {}s", K::KIND.noun());
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
            (None, Some(slug)) => db::organizations::id_by_slug(&self.state.db, slug).await?,
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

    /// Brings the database in line with one resource.
    async fn mirror<K: Mirrored>(&mut self, cr: &K) -> anyhow::Result<()> {
        let (namespace, _) = key(cr.meta());
        let Owner::Organization(org) = self.organization(&namespace).await? else {
            return Ok(());
        };
        let existing = match self.row_of(cr, &org).await? {
            Some(a) => details::by_id::<K::Details>(&self.state.db, &a.id)
                .await?
                .filter(K::adoptable),
            None => None,
        };
        if K::handled(self, cr, existing.as_ref()).await? {
            return Ok(());
        }
        let seen = K::Seen::of(cr);
        let owner = self.owner(cr.meta(), &org).await?;
        let shares = resource_shares(
            &self.state.db,
            &org,
            seen.sharing(),
            owner.as_deref(),
            K::level_of,
        )
        .await?;
        let now = db::now();
        let Some(old) = existing else {
            return self.mirror_new(cr, &seen, org, owner, &shares, now).await;
        };
        let mut new = K::updated(self, cr, &old, &seen, owner).await?;
        let db = &self.state.db;
        let same = K::same_fields(&old, &new);
        if !same || managed_shares(db, &old.asset.id).await? != shares {
            if !same {
                new.asset.updated_at = now;
            }
            if !details::upsert_with_resource_shares(
                db,
                &new,
                true,
                &entries(&shares),
                now,
                version(cr.meta()),
            )
            .await?
            {
                let (namespace, name) = key(cr.meta());
                tracing::debug!(%namespace, %name, "a newer version of this {} is already in its row; this older one is not mirrored", K::KIND.noun());
            }
        } else {
            K::write_observed(db, &old, &new).await?;
        }
        Ok(())
    }

    /// A resource without a row gets one, with `origin = resource` (`api` for one the API applied).
    async fn mirror_new<K: Mirrored>(
        &mut self,
        cr: &K,
        seen: &K::Seen,
        org: String,
        owner: Option<String>,
        shares: &super::shares::Declared,
        now: i64,
    ) -> anyhow::Result<()> {
        let (namespace, name) = key(cr.meta());
        // The API applies a new asset's resource before it writes the row: a young resource of the
        // API's is left to that row (an old one whose row never came is adopted).
        let by_api = applied_by_api(cr.meta());
        if by_api && age_secs(cr.meta()).is_some_and(|age| age < ROW_GRACE_SECS) {
            tracing::debug!(%namespace, %name, "a new {} resource of the API's; its row is on its way", K::KIND.noun());
            return Ok(());
        }
        let mut id = db::new_id();
        for candidate in K::id_candidates(cr).iter().filter(|c| is_uuid(c)) {
            if assets::by_id(&self.state.db, candidate).await?.is_none() {
                id = candidate.to_lowercase();
                break;
            }
        }
        let row = AssetRow {
            owner_uid: owner,
            origin: if by_api { Origin::Api } else { Origin::Resource },
            ..AssetRow::new(K::KIND, id, org, String::new(), now)
        }
        .placed(Some((namespace.clone(), name.clone())));
        let Some(rows) = K::new_rows(self, cr, seen, row).await? else {
            return Ok(());
        };
        details::upsert_with_resource_shares(
            &self.state.db,
            &rows,
            false,
            &entries(shares),
            now,
            version(cr.meta()),
        )
        .await?;
        tracing::info!(%namespace, %name, id = %rows.asset.id, "a new {} resource is mirrored", K::KIND.noun());
        Ok(())
    }

    /// The owner named by the annotation: a uid or an e-mail of a user of the organization.
    pub(super) async fn owner(&self, meta: &ObjectMeta, org: &str) -> anyhow::Result<Option<String>> {
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

    async fn deleted<K: Mirrored>(&mut self, namespace: &str, name: &str) -> anyhow::Result<()> {
        if let Some(a) = assets::by_resource(&self.state.db, K::KIND, namespace, name).await? {
            assets::delete(&self.state.db, &a.id).await?;
            tracing::info!(%namespace, %name, id = %a.id, "a {} resource was deleted; its row is removed", K::KIND.noun());
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
                tracing::info!(%namespace, %name, id = %a.id, "a {}'s resource is gone; its row is removed", K::KIND.noun());
            }
        }
        Ok(())
    }
}

fn meta<K: Mirrored>(obj: &DeserializeGuard<K>) -> &ObjectMeta {
    match &obj.0 {
        Ok(cr) => cr.meta(),
        Err(invalid) => &invalid.metadata,
    }
}

/// Pure: the version of a resource its row records (uid, `metadata.generation`).
fn version(meta: &ObjectMeta) -> (&str, i64) {
    (
        meta.uid.as_deref().unwrap_or_default(),
        meta.generation.unwrap_or_default(),
    )
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

/// Pure: the asset row of a resource seen for the first time: `origin = resource`, at `(namespace,
/// name)`, with its display name and description.
pub(super) fn resource_row(
    kind: AssetKind,
    (id, organization_id): (&str, &str),
    owner_uid: Option<String>,
    (namespace, name): (&str, &str),
    (display_name, description): (&str, &str),
    now: i64,
) -> AssetRow {
    AssetRow {
        owner_uid,
        description: description.to_owned(),
        origin: Origin::Resource,
        ..AssetRow::new(
            kind,
            id.to_owned(),
            organization_id.to_owned(),
            display_name.to_owned(),
            now,
        )
    }
    .placed(Some((namespace.to_owned(), name.to_owned())))
}

/// Pure: existing rows following their resource: the asset's display name, description and place
/// (the details as they were, for the kind to bring in line). An owner annotation that names
/// nobody keeps a console row's owner, and takes a resource row's away.
pub(super) fn follow<D: Clone>(
    old: &WithDetails<D>,
    (display_name, description): (&str, &str),
    owner_uid: Option<String>,
    (namespace, name): (&str, &str),
) -> WithDetails<D> {
    let keeps_owner = owner_uid.is_none() && old.asset.origin != Origin::Resource;
    WithDetails {
        asset: AssetRow {
            name: display_name.to_owned(),
            description: description.to_owned(),
            owner_uid: if keeps_owner {
                old.asset.owner_uid.clone()
            } else {
                owner_uid
            },
            ..old.asset.clone()
        }
        .placed(Some((namespace.to_owned(), name.to_owned()))),
        details: old.details.clone(),
    }
}

/// Pure: whether two versions of a row are the same apart from `updated_at` and what the operator
/// observed (`clear` resets it).
pub(super) fn same_apart_from<D: Clone + std::fmt::Debug>(
    a: &WithDetails<D>,
    b: &WithDetails<D>,
    clear: fn(&mut D),
) -> bool {
    let strip = |x: &WithDetails<D>| {
        let mut x = x.clone();
        clear(&mut x.details);
        x.asset.updated_at = 0;
        format!("{:?}|{:?}", x.asset, x.details)
    };
    strip(a) == strip(b)
}
