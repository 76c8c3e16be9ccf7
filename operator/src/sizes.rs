//! The administrator's hardware sizes in the operator: the ConfigMap `ludis-sizes` of the system
//! namespace (key `sizes.json`, [`ludis_crds::sizes`]), kept in memory by a watch; without the
//! ConfigMap, the seeded list. A workload's main container takes its requests and limits from its
//! size; the containers the operator adds beside it have fixed ones ([`Helper`]).

use std::collections::BTreeMap;

use k8s_openapi::{
    api::core::v1::{ConfigMap, ResourceRequirements},
    apimachinery::pkg::api::resource::Quantity,
};
use ludis_crds::{
    common::Resources,
    sizes::{CONFIGMAP_KEY, Size, SizeError, SizeList, WorkloadKind, millicores},
};

use crate::{
    list_watch::{AdminList, ListWatch},
    verdict::{Reason, Verdict},
};

/// The size list as the operator last saw it.
#[derive(Clone, Debug, PartialEq)]
pub enum SizeCatalog {
    Listed(SizeList),
    /// The ConfigMap exists but holds no valid list: every workload is refused, saying why.
    Invalid(String),
}

impl Default for SizeCatalog {
    fn default() -> Self {
        Self::Listed(SizeList::seeded().clone())
    }
}

impl AdminList for SizeCatalog {
    const WHAT: &'static str = "size list";

    fn from_config_map(cm: Option<ConfigMap>) -> Self {
        let Some(cm) = cm else {
            return Self::default();
        };
        match cm.data.as_ref().and_then(|d| d.get(CONFIGMAP_KEY)) {
            None => Self::Invalid(format!("it has no key {CONFIGMAP_KEY}")),
            Some(json) => SizeList::parse(json).map_or_else(Self::Invalid, Self::Listed),
        }
    }
}

impl SizeCatalog {
    /// The size a workload of `kind` takes (the one it names, else the default), or why it
    /// cannot run.
    pub fn resolve(&self, named: Option<&str>, kind: WorkloadKind) -> Result<Size, SizeError> {
        match self {
            Self::Listed(list) => list.resolve(named, kind).cloned(),
            Self::Invalid(why) => Err(SizeError::InvalidList(why.clone())),
        }
    }

    /// [`Self::resolve`], refusing as a stalled verdict.
    pub fn resolve_or_refuse(&self, named: Option<&str>, kind: WorkloadKind) -> Result<Size, Verdict> {
        self.resolve(named, kind)
            .map_err(|e| Verdict::degraded(Reason::SizeNotAllowed, e.to_string()))
    }
}

/// The size list as last seen by a watch.
pub type SizeWatch = ListWatch<SizeCatalog>;

/// Requests and limits of a workload's main container: its size's, with a GitOps
/// `spec.resources` over the CPU and memory it sets aside (the CPU limit rises to a larger
/// request; memory's limit is its request).
pub fn requirements(size: &Size, overrides: &Resources) -> ResourceRequirements {
    let cpu = overrides.cpu.clone().unwrap_or_else(|| size.cpu.clone());
    let cpu_limit = match (millicores(&cpu), millicores(&size.cpu_limit)) {
        (Some(asked), Some(limit)) if asked > limit => cpu.clone(),
        _ => size.cpu_limit.clone(),
    };
    let memory = overrides.memory.clone().unwrap_or_else(|| size.memory.clone());
    quantities(
        [
            ("cpu", cpu),
            ("memory", memory.clone()),
            ("ephemeral-storage", size.ephemeral_storage.clone()),
        ],
        [
            ("cpu", cpu_limit),
            ("memory", memory),
            ("ephemeral-storage", size.ephemeral_storage_limit.clone()),
        ],
    )
}

/// A container the operator adds beside a workload's own, with requests and limits of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Helper {
    /// The preview's idle container terminals exec into.
    Shell,
    /// A git checkout (init container).
    Checkout,
    /// A report's publisher (uploads the rendered output).
    Publish,
    /// The pod that reads a DAG file.
    Parse,
    /// A workflow's schedule tick (does nothing but exist).
    Tick,
}

impl Helper {
    /// (cpu, cpu limit, memory, memory limit, ephemeral storage, its limit).
    fn amounts(self) -> [&'static str; 6] {
        match self {
            Self::Shell => ["10m", "1", "32Mi", "1Gi", "16Mi", "1Gi"],
            // It clones into its own /tmp before moving the repository into the workspace.
            Self::Checkout => ["50m", "1", "64Mi", "1Gi", "64Mi", "4Gi"],
            Self::Publish => ["100m", "1", "256Mi", "256Mi", "64Mi", "1Gi"],
            Self::Parse => ["100m", "1", "512Mi", "512Mi", "64Mi", "1Gi"],
            Self::Tick => ["10m", "100m", "16Mi", "64Mi", "16Mi", "256Mi"],
        }
    }

    /// The helper's requests and limits.
    pub fn requirements(self) -> ResourceRequirements {
        let [cpu, cpu_limit, memory, memory_limit, disk, disk_limit] = self.amounts().map(str::to_owned);
        quantities(
            [("cpu", cpu), ("memory", memory), ("ephemeral-storage", disk)],
            [
                ("cpu", cpu_limit),
                ("memory", memory_limit),
                ("ephemeral-storage", disk_limit),
            ],
        )
    }
}

fn quantities(requests: [(&str, String); 3], limits: [(&str, String); 3]) -> ResourceRequirements {
    let map = |pairs: [(&str, String); 3]| {
        Some(
            pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), Quantity(v)))
                .collect::<BTreeMap<_, _>>(),
        )
    };
    ResourceRequirements {
        requests: map(requests),
        limits: map(limits),
        ..Default::default()
    }
}

/// Panics unless every container of `spec` (init containers too) has requests and limits of
/// CPU, memory and ephemeral storage: an organization's quota counts every one.
#[cfg(test)]
pub fn assert_bounded(spec: &k8s_openapi::api::core::v1::PodSpec) {
    for c in spec.init_containers.iter().flatten().chain(&spec.containers) {
        let r = c
            .resources
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no resources", c.name));
        for (what, m) in [("requests", &r.requests), ("limits", &r.limits)] {
            for k in ["cpu", "memory", "ephemeral-storage"] {
                assert!(
                    m.as_ref().is_some_and(|m| m.contains_key(k)),
                    "{}: no {k} in its {what}",
                    c.name
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use ludis_crds::sizes::bytes;

    use super::*;

    fn cm(data: &[(&str, &str)]) -> ConfigMap {
        ConfigMap {
            data: Some(data.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()),
            ..Default::default()
        }
    }

    fn get(r: &Option<BTreeMap<String, Quantity>>, k: &str) -> String {
        r.as_ref().unwrap()[k].0.clone()
    }

    #[test]
    fn a_size_gives_requests_and_limits_of_cpu_memory_and_disk() {
        let medium = SizeCatalog::default()
            .resolve(None, WorkloadKind::Project)
            .unwrap();
        let r = requirements(&medium, &Resources::default());
        let requests: Vec<_> = ["cpu", "memory", "ephemeral-storage"]
            .map(|k| get(&r.requests, k))
            .into();
        let limits: Vec<_> = ["cpu", "memory", "ephemeral-storage"]
            .map(|k| get(&r.limits, k))
            .into();
        assert_eq!(requests, ["500m", "1Gi", "512Mi"]);
        assert_eq!(limits, ["2", "1Gi", "4Gi"]);
    }

    #[test]
    fn gitops_resources_override_what_is_set_aside_and_never_exceed_the_cpu_limit() {
        let medium = SizeCatalog::default()
            .resolve(Some("medium"), WorkloadKind::Task)
            .unwrap();
        let more = Resources {
            cpu: Some("3".into()),
            memory: Some("2Gi".into()),
        };
        let r = requirements(&medium, &more);
        assert_eq!(get(&r.requests, "cpu"), "3");
        assert_eq!(
            get(&r.limits, "cpu"),
            "3",
            "a request above the size's limit raises it"
        );
        assert_eq!(get(&r.limits, "memory"), "2Gi");
        let less = Resources {
            cpu: Some("100m".into()),
            memory: None,
        };
        assert_eq!(get(&requirements(&medium, &less).limits, "cpu"), "2");
    }

    #[test]
    fn every_helper_asks_for_no_more_than_it_may_use() {
        for helper in [
            Helper::Shell,
            Helper::Checkout,
            Helper::Publish,
            Helper::Parse,
            Helper::Tick,
        ] {
            let r = helper.requirements();
            assert!(
                millicores(&get(&r.requests, "cpu")) <= millicores(&get(&r.limits, "cpu")),
                "{helper:?}"
            );
            for k in ["memory", "ephemeral-storage"] {
                assert!(
                    bytes(&get(&r.requests, k)) <= bytes(&get(&r.limits, k)),
                    "{helper:?} {k}"
                );
            }
        }
    }

    #[test]
    fn the_configmap_is_the_list_and_a_broken_one_refuses_with_the_reason() {
        assert_eq!(SizeCatalog::from_config_map(None), SizeCatalog::default());
        let mut only_big = serde_json::to_value(SizeList::seeded()).unwrap();
        only_big["default"] = "big".into();
        only_big["defaultInsight"] = "big".into();
        only_big["sizes"] = serde_json::json!([{"id": "big", "purpose": "p", "cpu": "1", "cpuLimit": "2",
            "memory": "2Gi", "ephemeralStorage": "1Gi", "ephemeralStorageLimit": "2Gi"}]);
        let listed = SizeCatalog::from_config_map(Some(cm(&[("sizes.json", &only_big.to_string())])));
        assert_eq!(listed.resolve(None, WorkloadKind::Insight).unwrap().id, "big");
        let refused = listed
            .resolve_or_refuse(Some("medium"), WorkloadKind::Project)
            .unwrap_err();
        assert_eq!(refused.reason(), "SizeNotAllowed");
        let broken = SizeCatalog::from_config_map(Some(cm(&[("sizes.json", "{")])));
        let why = broken
            .resolve(None, WorkloadKind::Project)
            .unwrap_err()
            .to_string();
        assert!(
            why.starts_with(
                "the administrator's size list (ConfigMap ludis-sizes, key sizes.json) is not valid: "
            ),
            "{why}"
        );
        let keyless = SizeCatalog::from_config_map(Some(cm(&[("other", "x")])));
        assert!(
            keyless
                .resolve(None, WorkloadKind::Project)
                .unwrap_err()
                .to_string()
                .ends_with("it has no key sizes.json")
        );
    }
}
