//! What a pod's credentials reach now: read again from the pod and the one access rule at every
//! request (cached for [`TTL`]), so a revoked share, a deactivated owner or a deleted pod ends
//! the access within seconds, whatever the credentials' expiry says.
//!
//! - [`Scope::Datasets`]: each dataset the operator annotated the pod with
//!   ([`ludis_crds::ANNOTATION_DATASETS`], the workload's references), at the level the
//!   workload's owner has on it by the one access rule: view reads, edit writes too, none reaches
//!   nothing. The owner is the owner of the pod's asset — the project, insight or workflow whose
//!   id it carries ([`ludis_crds::LABEL_ID`]), else whose resource its labels name (a resource
//!   applied with kubectl or GitOps has no id label); an owner who is no longer active reaches
//!   nothing. When others ran code where the pod's identity is (an editor's terminal, a
//!   collaborator's notebook cells: [`crate::runners`]), each dataset is at the least of their
//!   levels and the owner's.
//! - [`Scope::Output`]: the one location of [`ludis_crds::ANNOTATION_OUTPUT`] (a report's
//!   rendered files), write only.
//!
//! Only the operator writes pods in organization namespaces, so their labels and annotations are
//! trusted; the datasets' locations are the API's own (the database), never the pod's.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use k8s_openapi::api::core::v1::Pod;
use kube::{Api, ResourceExt as _};

use super::session::{Scope, Session};
use crate::{
    assets,
    db::{self, datasets::DatasetRow},
    domain::{AccessLevel, AssetKind},
    runners,
    state::AppState,
};

/// How long a decision is reused: the most a revoke waits.
pub const TTL: Duration = Duration::from_secs(2);

/// What one grant allows below its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Read,
    Write,
}

/// A prefix of a bucket and what may be done below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub bucket: String,
    /// Ends with `/`.
    pub prefix: String,
    pub level: Level,
}

/// Everything a session reaches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants(pub Vec<Grant>);

impl Grants {
    /// Whether `key` of `bucket` may be used at `need`. A key with an empty, `.` or `..`
    /// segment is refused: a file-system backend could read it as a path.
    pub fn allows(&self, bucket: &str, key: &str, need: Level) -> bool {
        if key.split('/').any(|s| s == "." || s == "..") || key.contains("//") {
            return false;
        }
        self.0.iter().any(|g| {
            g.bucket == bucket && g.level >= need && key.starts_with(&g.prefix) && key.len() > g.prefix.len()
        })
    }

    /// Whether a listing of `bucket` under `prefix` stays inside a readable grant.
    pub fn allows_listing(&self, bucket: &str, prefix: &str) -> bool {
        if prefix.split('/').any(|s| s == "." || s == "..") {
            return false;
        }
        self.0
            .iter()
            .any(|g| g.bucket == bucket && prefix.starts_with(&g.prefix))
    }

    /// Whether any grant is in `bucket` (its location and existence may be asked).
    pub fn has_bucket(&self, bucket: &str) -> bool {
        self.0.iter().any(|g| g.bucket == bucket)
    }
}

/// Why a session reaches nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the pod these credentials were issued to is gone")]
    PodGone,
    #[error("no cluster is configured")]
    NoCluster,
    #[error("the cluster or the database could not be asked: {0}")]
    Unavailable(String),
}

/// Decisions of the last [`TTL`], by access key id.
#[derive(Default, Clone)]
pub struct Cache(Arc<Mutex<HashMap<String, (Instant, Grants)>>>);

impl Cache {
    /// The grants of `session`, from the cache when fresh.
    pub async fn grants(&self, state: &AppState, session: &Session) -> Result<Grants, Refused> {
        let now = Instant::now();
        if let Some((at, grants)) = self.lock().get(&session.access_key_id)
            && now.duration_since(*at) < TTL
        {
            return Ok(grants.clone());
        }
        let grants = of(state, session).await?;
        let mut map = self.lock();
        map.retain(|_, (at, _)| now.duration_since(*at) < TTL);
        map.insert(session.access_key_id.clone(), (now, grants.clone()));
        Ok(grants)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Instant, Grants)>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The pod of a session, while it is the one the session was issued to.
pub async fn live_pod(state: &AppState, session: &Session) -> Result<Pod, Refused> {
    let client = state.kube.as_ref().ok_or(Refused::NoCluster)?;
    let pod = Api::<Pod>::namespaced(client.clone(), &session.namespace)
        .get_opt(&session.pod)
        .await
        .map_err(|e| Refused::Unavailable(e.to_string()))?
        .ok_or(Refused::PodGone)?;
    if pod.uid().as_deref() != Some(session.pod_uid.as_str()) || pod.metadata.deletion_timestamp.is_some() {
        return Err(Refused::PodGone);
    }
    Ok(pod)
}

/// What `session` reaches now.
pub async fn of(state: &AppState, session: &Session) -> Result<Grants, Refused> {
    let pod = live_pod(state, session).await?;
    let annotation = |key: &str| pod.annotations().get(key).cloned().unwrap_or_default();
    match session.scope {
        Scope::Output => Ok(Grants(
            parse_location(&annotation(ludis_crds::ANNOTATION_OUTPUT))
                .map(|(bucket, prefix)| Grant {
                    bucket,
                    prefix,
                    level: Level::Write,
                })
                .into_iter()
                .collect(),
        )),
        Scope::Datasets => {
            let names = annotation(ludis_crds::ANNOTATION_DATASETS);
            async {
                let runner = runners::workload_asset(state, &session.namespace, &pod).await?;
                let others = runners::of(&pod);
                datasets(
                    state,
                    &session.namespace,
                    runner.as_ref(),
                    &others,
                    names.split(','),
                )
                .await
            }
            .await
            .map_err(|e| Refused::Unavailable(e.to_string()))
        }
    }
}

/// The datasets `names` of `namespace` at the least level that the owner of the asset `runner`
/// and each of `others` (runners who held the pod's identity) has on each.
async fn datasets(
    state: &AppState,
    namespace: &str,
    runner: Option<&db::assets::AssetRow>,
    others: &[runners::Runner],
    names: impl Iterator<Item = &str>,
) -> anyhow::Result<Grants> {
    let Some(owner) = runner.and_then(|a| a.owner_uid.as_deref()) else {
        return Ok(Grants::default());
    };
    let uids = std::iter::once(owner).chain(
        others
            .iter()
            .filter(|r| r.holds_identity())
            .map(|r| r.uid.as_str()),
    );
    // Someone without an active account reaches nothing, nor does a pod their code ran in.
    let Some(people) = runners::active_users(state, uids)
        .await?
        .into_iter()
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(Grants::default());
    };
    let mut grants = Vec::new();
    for name in names.map(str::trim).filter(|n| !n.is_empty()) {
        let Some(asset) = db::assets::by_resource(&state.db, AssetKind::Dataset, namespace, name).await?
        else {
            continue;
        };
        let mut least = AccessLevel::Edit;
        for person in &people {
            least = least.min(assets::level(state, person, &asset).await?);
        }
        let level = match least {
            AccessLevel::None => continue,
            AccessLevel::Edit => Level::Write,
            _ => Level::Read,
        };
        let Some(dataset) = db::details::by_id::<DatasetRow>(&state.db, &asset.id).await? else {
            continue;
        };
        let (bucket, prefix) = (dataset.details.bucket, dataset.details.prefix);
        if bucket.is_empty() || !prefix.ends_with('/') || prefix.len() < 2 {
            continue;
        }
        grants.push(Grant {
            bucket,
            prefix,
            level,
        });
    }
    Ok(Grants(grants))
}

/// `s3://<bucket>/<prefix>/` as (bucket, prefix); the prefix must end with `/`.
fn parse_location(location: &str) -> Option<(String, String)> {
    let (bucket, prefix) = location.strip_prefix("s3://")?.split_once('/')?;
    (!bucket.is_empty() && prefix.len() > 1 && prefix.ends_with('/'))
        .then(|| (bucket.to_owned(), prefix.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants() -> Grants {
        Grants(vec![
            Grant {
                bucket: "ludis".into(),
                prefix: "datasets/ludis-a/d1/".into(),
                level: Level::Read,
            },
            Grant {
                bucket: "ludis".into(),
                prefix: "datasets/ludis-a/d2/".into(),
                level: Level::Write,
            },
        ])
    }

    #[test]
    fn a_grant_reaches_below_its_prefix_at_its_level() {
        let g = grants();
        assert!(g.allows("ludis", "datasets/ludis-a/d1/sales.csv", Level::Read));
        assert!(!g.allows("ludis", "datasets/ludis-a/d1/sales.csv", Level::Write));
        assert!(g.allows("ludis", "datasets/ludis-a/d2/x/y.csv", Level::Write));
        // Beside, above, another bucket, the prefix itself.
        assert!(!g.allows("ludis", "datasets/ludis-a/d10/sales.csv", Level::Read));
        assert!(!g.allows("ludis", "datasets/ludis-b/d1/sales.csv", Level::Read));
        assert!(!g.allows("ludis", "logs/ludis-a/x.log", Level::Read));
        assert!(!g.allows("other", "datasets/ludis-a/d1/sales.csv", Level::Read));
        assert!(!g.allows("ludis", "datasets/ludis-a/d1/", Level::Read));
        // Path tricks.
        assert!(!g.allows("ludis", "datasets/ludis-a/d1/../../ludis-b/d/x", Level::Read));
        assert!(!g.allows("ludis", "datasets/ludis-a/d1/./x", Level::Read));
        assert!(!g.allows("ludis", "datasets/ludis-a/d1//x", Level::Read));
    }

    #[test]
    fn a_listing_stays_inside_a_grant() {
        let g = grants();
        assert!(g.allows_listing("ludis", "datasets/ludis-a/d1/"));
        assert!(g.allows_listing("ludis", "datasets/ludis-a/d1/daily/"));
        assert!(!g.allows_listing("ludis", "datasets/ludis-a/d1"));
        assert!(!g.allows_listing("ludis", "datasets/ludis-a/"));
        assert!(!g.allows_listing("ludis", ""));
        assert!(!g.allows_listing("ludis", "datasets/ludis-a/d1/../"));
        assert!(g.has_bucket("ludis") && !g.has_bucket("logs"));
    }

    #[test]
    fn an_output_location_is_a_bucket_and_a_folder() {
        assert_eq!(
            parse_location("s3://ludis/reports/ludis-a/r1/"),
            Some(("ludis".into(), "reports/ludis-a/r1/".into()))
        );
        assert_eq!(parse_location("s3://ludis/reports"), None);
        assert_eq!(parse_location("s3://ludis//"), None);
        assert_eq!(parse_location("s3:///x/"), None);
        assert_eq!(parse_location("https://ludis/x/"), None);
        assert_eq!(parse_location(""), None);
    }
}
