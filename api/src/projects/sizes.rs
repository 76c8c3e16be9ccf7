//! The administrator's hardware sizes ([`ludis_crds::sizes`]): what a project's preview, an app or
//! a report may take. The ConfigMap `ludis-sizes` of the system namespace (key `sizes.json`, made
//! by the chart from `seeds/ludis-sizes.json`); without a cluster, or before the ConfigMap
//! exists, the seeded list itself. The operator refuses a size outside the list; the API refuses
//! it first, with the ids there are.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Api;
use ludis_crds::sizes::{CONFIGMAP, CONFIGMAP_KEY, Size, SizeError, SizeList};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    error::{ApiError, Result},
    state::AppState,
};

/// A size as the console offers it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct HardwareSize {
    pub id: String,
    pub purpose: String,
    /// CPU set aside (`500m`).
    pub cpu: String,
    /// The most CPU it may use.
    pub cpu_limit: String,
    /// Memory set aside, and the most it may use.
    pub memory: String,
    /// Local disk set aside.
    pub ephemeral_storage: String,
    /// The most local disk it may write.
    pub ephemeral_storage_limit: String,
}

impl From<&Size> for HardwareSize {
    fn from(s: &Size) -> Self {
        Self {
            id: s.id.clone(),
            purpose: s.purpose.clone(),
            cpu: s.cpu.clone(),
            cpu_limit: s.cpu_limit.clone(),
            memory: s.memory.clone(),
            ephemeral_storage: s.ephemeral_storage.clone(),
            ephemeral_storage_limit: s.ephemeral_storage_limit.clone(),
        }
    }
}

/// The list now: the ConfigMap's with a cluster (when it exists), else the seeded one; 503 when
/// the ConfigMap holds no valid list (the operator refuses every workload then too).
pub async fn current(state: &AppState) -> Result<SizeList> {
    let Some(client) = state.kube.clone() else {
        return Ok(SizeList::seeded().clone());
    };
    let cm = Api::<ConfigMap>::namespaced(client, &state.settings.system_namespace)
        .get_opt(CONFIGMAP)
        .await;
    let json = match cm {
        Ok(Some(cm)) => cm
            .data
            .and_then(|mut d| d.remove(CONFIGMAP_KEY))
            .unwrap_or_default(),
        Ok(None) => return Ok(SizeList::seeded().clone()),
        Err(e) => {
            tracing::warn!(error = %e, "failed to read the size list; using the seeded one");
            return Ok(SizeList::seeded().clone());
        }
    };
    SizeList::parse(&json)
        .map_err(|why| ApiError::unavailable("invalid_size_list", SizeError::InvalidList(why).to_string()))
}

/// A size a workload may name: empty is the default (`None`); an id outside the list is 400,
/// naming the ids there are.
pub async fn chosen(state: &AppState, value: &str) -> Result<Option<String>> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    let list = current(state).await?;
    check(&list, value).map(|()| Some(value.to_owned()))
}

/// Pure: whether `id` is in `list` (400 `invalid_size` otherwise).
fn check(list: &SizeList, id: &str) -> Result<()> {
    match list.get(id) {
        Some(_) => Ok(()),
        None => {
            let ids: Vec<&str> = list.sizes.iter().map(|s| s.id.as_str()).collect();
            Err(ApiError::bad_request(
                "invalid_size",
                format!("Unknown size: {id} (one of {})", ids.join(", ")),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_size_is_refused_naming_the_sizes() {
        let list = SizeList::seeded();
        assert!(check(list, "large").is_ok());
        let err = check(list, "huge").unwrap_err();
        assert_eq!(err.status(), axum::http::StatusCode::BAD_REQUEST);
        assert!(
            format!("{err:?}").contains("Unknown size: huge (one of small, medium, large)"),
            "{err:?}"
        );
    }
}
