//! An organization's quota: the ResourceQuota and LimitRange `ludis-quota` of its namespace, from
//! its tier's quota in the administrator's size list ([`ludis_crds::sizes::Quota`]). They are
//! applied with server-side apply when the namespace is (`organizations::ensure_namespace_of`: an
//! organization made, its tier changed) and at start to every organization's namespace.
//!
//! - The **ResourceQuota** caps what the organization's pods set aside together (CPU, memory,
//!   local disk), how many run, and its volumes (count and storage). The API server refuses a pod
//!   beyond it; the API refuses a start that would not fit before anything is made
//!   ([`check_room`]), saying which resource and who can raise it.
//! - The **LimitRange** gives a container that names no resources the default size's, and caps
//!   any container at the largest size's limits (a pod applied around the API included).
//!
//! [`build`] and [`shortfall`] are pure.

use std::collections::BTreeMap;

use anyhow::Context as _;
use k8s_openapi::{
    api::core::v1::{LimitRange, LimitRangeItem, LimitRangeSpec, ResourceQuota, ResourceQuotaSpec},
    apimachinery::pkg::api::resource::Quantity,
};
use kube::{
    Api, Client,
    api::{ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{
    FIELD_MANAGER_API,
    sizes::{Quota, Size, SizeList, WorkloadKind, bytes, millicores},
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    error::{ApiError, Result},
    state::AppState,
};

/// The name of both objects.
pub const NAME: &str = "ludis-quota";

/// What a quota counts, as the admin portal names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuotaResource {
    Cpu,
    Memory,
    EphemeralStorage,
    Pods,
    PersistentVolumeClaims,
    Storage,
}

impl QuotaResource {
    pub const ALL: [Self; 6] = [
        Self::Cpu,
        Self::Memory,
        Self::EphemeralStorage,
        Self::Pods,
        Self::PersistentVolumeClaims,
        Self::Storage,
    ];

    /// Its key in a ResourceQuota.
    pub fn key(self) -> &'static str {
        match self {
            Self::Cpu => "requests.cpu",
            Self::Memory => "requests.memory",
            Self::EphemeralStorage => "requests.ephemeral-storage",
            Self::Pods => "pods",
            Self::PersistentVolumeClaims => "persistentvolumeclaims",
            Self::Storage => "requests.storage",
        }
    }

    /// Its name in a sentence.
    pub fn label(self) -> &'static str {
        match self {
            Self::Cpu => "CPU",
            Self::Memory => "memory",
            Self::EphemeralStorage => "local disk",
            Self::Pods => "running pods",
            Self::PersistentVolumeClaims => "volumes",
            Self::Storage => "volume storage",
        }
    }

    /// A quantity of it as a number to compare (millicores, bytes, a count).
    fn amount(self, q: &str) -> Option<u64> {
        match self {
            Self::Cpu => millicores(q),
            Self::Pods | Self::PersistentVolumeClaims => q.parse().ok(),
            Self::Memory | Self::EphemeralStorage | Self::Storage => bytes(q),
        }
    }
}

fn quantities(pairs: impl IntoIterator<Item = (&'static str, String)>) -> BTreeMap<String, Quantity> {
    pairs
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Quantity(v)))
        .collect()
}

fn metadata(namespace: &str) -> ObjectMeta {
    ObjectMeta {
        name: Some(NAME.to_owned()),
        namespace: Some(namespace.to_owned()),
        labels: Some(BTreeMap::from([
            (
                "app.kubernetes.io/managed-by".to_owned(),
                FIELD_MANAGER_API.to_owned(),
            ),
            ("app.kubernetes.io/part-of".to_owned(), "ludis".to_owned()),
        ])),
        ..ObjectMeta::default()
    }
}

/// Pure: the ResourceQuota and LimitRange of a namespace with `quota`, the sizes of `list`.
pub fn build(namespace: &str, quota: &Quota, list: &SizeList) -> (ResourceQuota, LimitRange) {
    let hard = quantities([
        (QuotaResource::Cpu.key(), quota.cpu.clone()),
        (QuotaResource::Memory.key(), quota.memory.clone()),
        (
            QuotaResource::EphemeralStorage.key(),
            quota.ephemeral_storage.clone(),
        ),
        (QuotaResource::Pods.key(), quota.pods.to_string()),
        (
            QuotaResource::PersistentVolumeClaims.key(),
            quota.persistent_volume_claims.to_string(),
        ),
        (QuotaResource::Storage.key(), quota.storage.clone()),
    ]);
    let resource_quota = ResourceQuota {
        metadata: metadata(namespace),
        spec: Some(ResourceQuotaSpec {
            hard: Some(hard),
            ..Default::default()
        }),
        status: None,
    };
    let default = list
        .resolve(None, WorkloadKind::Project)
        .expect("a checked list has its default");
    let largest = |amount: fn(&Size) -> &String, parse: fn(&str) -> Option<u64>| {
        list.sizes
            .iter()
            .map(amount)
            .max_by_key(|q| parse(q).unwrap_or(0))
            .cloned()
            .unwrap_or_default()
    };
    let limit_range = LimitRange {
        metadata: metadata(namespace),
        spec: Some(LimitRangeSpec {
            limits: vec![LimitRangeItem {
                type_: "Container".into(),
                default: Some(quantities([
                    ("cpu", default.cpu_limit.clone()),
                    ("memory", default.memory.clone()),
                    ("ephemeral-storage", default.ephemeral_storage_limit.clone()),
                ])),
                default_request: Some(quantities([
                    ("cpu", default.cpu.clone()),
                    ("memory", default.memory.clone()),
                    ("ephemeral-storage", default.ephemeral_storage.clone()),
                ])),
                max: Some(quantities([
                    ("cpu", largest(|s| &s.cpu_limit, millicores)),
                    ("memory", largest(|s| &s.memory, bytes)),
                    (
                        "ephemeral-storage",
                        largest(|s| &s.ephemeral_storage_limit, bytes),
                    ),
                ])),
                ..Default::default()
            }],
        }),
    };
    (resource_quota, limit_range)
}

/// Applies the quota of organizations of `tier` to `namespace` (none when the administrator's
/// list has no quota for the tier).
pub async fn ensure(state: &AppState, client: &Client, namespace: &str, tier: &str) -> anyhow::Result<()> {
    let list = crate::projects::sizes::current(state)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let Some(quota) = list.quota(tier) else {
        tracing::warn!(%namespace, tier, "the size list has no quota for this tier: none is applied");
        return Ok(());
    };
    let (resource_quota, limit_range) = build(namespace, quota, &list);
    let params = PatchParams::apply(FIELD_MANAGER_API).force();
    Api::<ResourceQuota>::namespaced(client.clone(), namespace)
        .patch(NAME, &params, &Patch::Apply(&resource_quota))
        .await
        .with_context(|| format!("failed to apply the ResourceQuota {NAME} in {namespace}"))?;
    Api::<LimitRange>::namespaced(client.clone(), namespace)
        .patch(NAME, &params, &Patch::Apply(&limit_range))
        .await
        .with_context(|| format!("failed to apply the LimitRange {NAME} in {namespace}"))?;
    Ok(())
}

/// At start: every organization's namespace gets its tier's quota (the list or a tier may have
/// changed). Failures are logged.
pub async fn ensure_all(state: AppState) {
    let Some(client) = state.kube.clone() else {
        return;
    };
    let orgs = match crate::db::organizations::list(&state.db, None, i64::from(u32::MAX), 0).await {
        Ok((orgs, _)) => orgs,
        Err(e) => {
            tracing::warn!(error = %e, "failed to list organizations for their quotas");
            return;
        }
    };
    for org in orgs {
        let namespace = ludis_crds::organization_namespace(&org.slug);
        let own = super::organizations::namespace_owner(&client, &namespace, &org.id).await;
        if !matches!(own, Ok(super::organizations::NamespaceOwner::This)) {
            continue;
        }
        if let Err(e) = ensure(&state, &client, &namespace, &org.tier).await {
            tracing::warn!(%namespace, error = format!("{e:#}"), "the organization's quota is not applied");
        }
    }
}

/// One resource of a quota: what is used of what is allowed (Kubernetes quantities).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct QuotaLine {
    pub resource: QuotaResource,
    pub used: String,
    pub hard: String,
}

/// What `namespace`'s quota allows and what is used (`None`: it has no quota yet).
pub async fn usage(client: &Client, namespace: &str) -> anyhow::Result<Option<Vec<QuotaLine>>> {
    let quota = Api::<ResourceQuota>::namespaced(client.clone(), namespace)
        .get_opt(NAME)
        .await
        .with_context(|| format!("failed to read the ResourceQuota {NAME} of {namespace}"))?;
    Ok(quota.map(|q| lines(&q)))
}

/// Pure: the lines of a ResourceQuota: what its spec allows (its status follows a moment after
/// a change), what its status counts as used.
pub fn lines(q: &ResourceQuota) -> Vec<QuotaLine> {
    let status = q.status.clone().unwrap_or_default();
    let hard = q
        .spec
        .as_ref()
        .and_then(|s| s.hard.clone())
        .or(status.hard)
        .unwrap_or_default();
    let used = status.used.unwrap_or_default();
    QuotaResource::ALL
        .into_iter()
        .filter_map(|r| {
            Some(QuotaLine {
                resource: r,
                hard: hard.get(r.key())?.0.clone(),
                used: used.get(r.key()).map_or_else(|| "0".to_owned(), |q| q.0.clone()),
            })
        })
        .collect()
}

/// Pure: the first resource for which `need` (of a new pod of `size`) does not fit what is left
/// of `lines`, with a sentence saying so and who can raise it.
pub fn shortfall(lines: &[QuotaLine], size: &Size) -> Option<String> {
    let need = |r: QuotaResource| match r {
        QuotaResource::Cpu => Some(size.cpu.as_str()),
        QuotaResource::Memory => Some(size.memory.as_str()),
        QuotaResource::EphemeralStorage => Some(size.ephemeral_storage.as_str()),
        QuotaResource::Pods => Some("1"),
        QuotaResource::PersistentVolumeClaims | QuotaResource::Storage => None,
    };
    lines.iter().find_map(|line| {
        let r = line.resource;
        let (needed, used, hard) = (r.amount(need(r)?)?, r.amount(&line.used)?, r.amount(&line.hard)?);
        (used.saturating_add(needed) > hard).then(|| {
            format!(
                "Your organization's quota of {} is used up: {} of {} is in use and this needs {} more. \
                 Stop something it runs, or ask a Ludis administrator (superadmin) to raise the quota \
                 (it follows the organization's tier).",
                r.label(),
                line.used,
                line.hard,
                need(r).unwrap_or_default()
            )
        })
    })
}

/// Refuses (409 `quota_exceeded`) a start of a pod of `size` in `namespace` that its
/// organization's quota has no room for; without a cluster or a quota, or when the quota cannot
/// be read, the API server decides.
pub async fn check_room(state: &AppState, namespace: Option<&str>, size: &Size) -> Result<()> {
    let (Some(client), Some(namespace)) = (state.kube.as_ref(), namespace) else {
        return Ok(());
    };
    let lines = match usage(client, namespace).await {
        Ok(Some(lines)) => lines,
        Ok(None) => return Ok(()),
        Err(e) => {
            tracing::warn!(error = format!("{e:#}"), "the quota was not checked");
            return Ok(());
        }
    };
    match shortfall(&lines, size) {
        Some(message) => Err(ApiError::conflict("quota_exceeded", message)),
        None => Ok(()),
    }
}

/// The size a workload of `kind` naming `size_id` takes now (the list's default when it names
/// none or one the list no longer has: the operator then refuses it, saying why).
pub async fn size_of(state: &AppState, size_id: Option<&str>, kind: WorkloadKind) -> Result<Size> {
    let list = crate::projects::sizes::current(state).await?;
    let size = list
        .resolve(size_id, kind)
        .or_else(|_| list.resolve(None, kind))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    Ok(size.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(resource: QuotaResource, used: &str, hard: &str) -> QuotaLine {
        QuotaLine {
            resource,
            used: used.into(),
            hard: hard.into(),
        }
    }

    #[test]
    fn the_quota_comes_from_the_tier_and_the_limit_range_from_the_sizes() {
        let list = SizeList::seeded();
        let (q, l) = build("ludis-acme", list.quota("free").unwrap(), list);
        let hard = q.spec.unwrap().hard.unwrap();
        assert_eq!(hard["requests.cpu"].0, "4");
        assert_eq!(hard["pods"].0, "50");
        assert_eq!(hard["requests.storage"].0, "200Gi");
        let item = &l.spec.unwrap().limits[0];
        assert_eq!(item.default_request.as_ref().unwrap()["cpu"].0, "500m");
        assert_eq!(item.max.as_ref().unwrap()["memory"].0, "4Gi");
        assert_eq!(item.max.as_ref().unwrap()["ephemeral-storage"].0, "8Gi");
    }

    #[test]
    fn a_start_that_does_not_fit_names_the_resource_and_who_can_raise_it() {
        let medium = SizeList::seeded().get("medium").unwrap();
        let roomy = [
            line(QuotaResource::Cpu, "1", "2"),
            line(QuotaResource::Memory, "1Gi", "8Gi"),
            line(QuotaResource::Pods, "3", "50"),
        ];
        assert_eq!(shortfall(&roomy, medium), None);
        let full = [
            line(QuotaResource::Cpu, "1750m", "2"),
            line(QuotaResource::Memory, "1Gi", "8Gi"),
        ];
        assert_eq!(
            shortfall(&full, medium).unwrap(),
            "Your organization's quota of CPU is used up: 1750m of 2 is in use and this needs 500m more. \
             Stop something it runs, or ask a Ludis administrator (superadmin) to raise the quota \
             (it follows the organization's tier)."
        );
        let pods = [line(QuotaResource::Pods, "50", "50")];
        assert!(
            shortfall(&pods, medium)
                .unwrap()
                .contains("quota of running pods")
        );
        // A quantity it cannot read is left to the API server.
        assert_eq!(shortfall(&[line(QuotaResource::Cpu, "1.5e3", "2")], medium), None);
    }
}
