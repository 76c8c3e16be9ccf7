//! Hardware sizes: the administrator's list of what a workload's pod may take (CPU, memory,
//! ephemeral storage), like the image list. It is the ConfigMap `ludis-sizes` of the system
//! namespace (key `sizes.json`), made by the chart from `seeds/ludis-sizes.json`; without the
//! ConfigMap, the seeded list itself. A Project, Insight, Workflow or workflow task names a size
//! by id (`spec.size`); the operator refuses an id outside the list, as it refuses an image.

use std::{collections::BTreeMap, sync::LazyLock};

use serde::{Deserialize, Serialize};

/// The ConfigMap of the size list, in the system namespace.
pub const CONFIGMAP: &str = "ludis-sizes";
/// The ConfigMap's key holding the list (JSON, the seeds file's shape).
pub const CONFIGMAP_KEY: &str = "sizes.json";

/// The administrator's sizes, with the default of each kind of workload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SizeList {
    /// What the list is (the seeds file's note; optional in a ConfigMap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The size of projects, notebooks and workflow tasks that name none.
    pub default: String,
    /// The size of apps and reports that name none.
    pub default_insight: String,
    pub sizes: Vec<Size>,
    /// What an organization's namespace may hold in all, by the organization's tier (`free`,
    /// `paid`): its ResourceQuota. A tier without one has no quota.
    #[serde(default)]
    pub quotas: BTreeMap<String, Quota>,
}

/// An organization's quota: the most its pods may set aside together, and how many pods and
/// volumes it may have.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Quota {
    /// CPU set aside by all its pods (`4`).
    pub cpu: String,
    /// Memory set aside by all its pods.
    pub memory: String,
    /// Local disk set aside by all its pods.
    pub ephemeral_storage: String,
    /// Pods that run (finished ones do not count).
    pub pods: u32,
    /// Volumes (project workspaces).
    pub persistent_volume_claims: u32,
    /// Storage of all its volumes.
    pub storage: String,
}

/// The tiers of organizations (spec 001 §3: tier), each with its quota in the list.
pub const TIERS: [&str; 2] = ["free", "paid"];

/// One size. Requests are what the scheduler sets aside; limits the most the pod may use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Size {
    /// The id objects name (a DNS label).
    pub id: String,
    /// What the size is for, as the console shows it.
    pub purpose: String,
    /// CPU set aside (`250m`, `1.5`).
    pub cpu: String,
    /// The most CPU the pod may use (throttled above).
    pub cpu_limit: String,
    /// Memory set aside, and the most the pod may use (killed above).
    pub memory: String,
    /// Local disk set aside (logs, the container's own files).
    pub ephemeral_storage: String,
    /// The most local disk the pod's containers may write (evicted above).
    pub ephemeral_storage_limit: String,
}

/// What a workload is, for its default size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkloadKind {
    /// A project's preview or notebook server.
    Project,
    /// An app or a report.
    Insight,
    /// A workflow task.
    Task,
}

/// Why a size cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeError {
    /// The object names an id the list does not have.
    NotAllowed { id: String, allowed: Vec<String> },
    /// The administrator's ConfigMap does not hold a valid list.
    InvalidList(String),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAllowed { id, allowed } => write!(
                f,
                "size {id:?} is not in the administrator's size list ({})",
                allowed.join(", ")
            ),
            Self::InvalidList(why) => write!(
                f,
                "the administrator's size list (ConfigMap {CONFIGMAP}, key {CONFIGMAP_KEY}) is not valid: {why}"
            ),
        }
    }
}

impl std::error::Error for SizeError {}

impl SizeList {
    /// The seeded list (`seeds/ludis-sizes.json`, embedded).
    pub fn seeded() -> &'static Self {
        static LIST: LazyLock<SizeList> = LazyLock::new(|| {
            SizeList::parse(include_str!("../../seeds/ludis-sizes.json"))
                .expect("seeds/ludis-sizes.json is a valid size list")
        });
        &LIST
    }

    /// A list from its JSON, checked: ids unique DNS labels, quantities Kubernetes accepts,
    /// requests within limits, defaults in the list.
    pub fn parse(json: &str) -> Result<Self, String> {
        let list: Self = serde_json::from_str(json).map_err(|e| e.to_string())?;
        list.check()?;
        Ok(list)
    }

    fn check(&self) -> Result<(), String> {
        if self.sizes.is_empty() {
            return Err("it has no sizes".into());
        }
        for (i, size) in self.sizes.iter().enumerate() {
            size.check()?;
            if self.sizes[..i].iter().any(|s| s.id == size.id) {
                return Err(format!("size {:?} appears twice", size.id));
            }
        }
        for default in [&self.default, &self.default_insight] {
            if self.get(default).is_none() {
                return Err(format!("the default {default:?} is not one of its sizes"));
            }
        }
        for (tier, quota) in &self.quotas {
            if !TIERS.contains(&tier.as_str()) {
                return Err(format!("quota {tier:?}: there is no such tier (free, paid)"));
            }
            quota.check(tier)?;
        }
        Ok(())
    }

    /// The quota of organizations of `tier` (`None`: a tier the list does not know).
    pub fn quota(&self, tier: &str) -> Option<&Quota> {
        self.quotas.get(tier)
    }

    /// The size of an id.
    pub fn get(&self, id: &str) -> Option<&Size> {
        self.sizes.iter().find(|s| s.id == id)
    }

    /// The id a workload of `kind` takes when it names none.
    pub fn default_id(&self, kind: WorkloadKind) -> &str {
        match kind {
            WorkloadKind::Project | WorkloadKind::Task => &self.default,
            WorkloadKind::Insight => &self.default_insight,
        }
    }

    /// The size a workload of `kind` takes: the one it names, else its kind's default.
    pub fn resolve(&self, named: Option<&str>, kind: WorkloadKind) -> Result<&Size, SizeError> {
        let id = named.unwrap_or_else(|| self.default_id(kind));
        self.get(id).ok_or_else(|| SizeError::NotAllowed {
            id: id.to_owned(),
            allowed: self.sizes.iter().map(|s| s.id.clone()).collect(),
        })
    }
}

impl Size {
    fn check(&self) -> Result<(), String> {
        if !valid_id(&self.id) {
            return Err(format!(
                "size id {:?} is not a DNS label (lowercase letters, digits and '-', at most 63)",
                self.id
            ));
        }
        let cpu = |field: &str, q: &str| {
            millicores(q).ok_or_else(|| {
                format!(
                    "size {:?}: {field} {q:?} is not a CPU quantity (e.g. 250m, 2)",
                    self.id
                )
            })
        };
        let bytes_of = |field: &str, q: &str| {
            bytes(q).ok_or_else(|| {
                format!(
                    "size {:?}: {field} {q:?} is not a quantity of bytes (e.g. 512Mi, 2Gi)",
                    self.id
                )
            })
        };
        if cpu("cpu", &self.cpu)? > cpu("cpuLimit", &self.cpu_limit)? {
            return Err(format!("size {:?}: cpu is above cpuLimit", self.id));
        }
        bytes_of("memory", &self.memory)?;
        if bytes_of("ephemeralStorage", &self.ephemeral_storage)?
            > bytes_of("ephemeralStorageLimit", &self.ephemeral_storage_limit)?
        {
            return Err(format!(
                "size {:?}: ephemeralStorage is above ephemeralStorageLimit",
                self.id
            ));
        }
        Ok(())
    }
}

impl Quota {
    fn check(&self, tier: &str) -> Result<(), String> {
        if millicores(&self.cpu).is_none() {
            return Err(format!(
                "quota {tier:?}: cpu {:?} is not a CPU quantity",
                self.cpu
            ));
        }
        for (field, q) in [
            ("memory", &self.memory),
            ("ephemeralStorage", &self.ephemeral_storage),
            ("storage", &self.storage),
        ] {
            if bytes(q).is_none() {
                return Err(format!(
                    "quota {tier:?}: {field} {q:?} is not a quantity of bytes"
                ));
            }
        }
        Ok(())
    }
}

/// Whether `id` can name a size: a DNS label.
pub fn valid_id(id: &str) -> bool {
    static RE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$").expect("a valid pattern")
    });
    RE.is_match(id)
}

/// Millicores of a CPU quantity in the forms sizes and `spec.resources` use (`250m`, `2`, `1.5`).
pub fn millicores(q: &str) -> Option<u64> {
    if let Some(m) = q.strip_suffix('m') {
        return digits(m)?.parse().ok();
    }
    let (whole, fraction) = match q.split_once('.') {
        Some((whole, fraction)) => (whole, digits(fraction).filter(|f| f.len() <= 3)?),
        None => (q, ""),
    };
    let whole: u64 = digits(whole)?.parse().ok()?;
    let fraction: u64 = format!("{fraction:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(fraction)
}

/// Bytes of a memory or storage quantity in the forms sizes use (`512Mi`, `2Gi`, `1000`).
pub fn bytes(q: &str) -> Option<u64> {
    let (number, unit) = q.split_at(q.find(|c: char| !c.is_ascii_digit()).unwrap_or(q.len()));
    let factor: u64 = match unit {
        "" => 1,
        "Ki" => 1 << 10,
        "Mi" => 1 << 20,
        "Gi" => 1 << 30,
        "Ti" => 1 << 40,
        _ => return None,
    };
    digits(number)?.parse::<u64>().ok()?.checked_mul(factor)
}

fn digits(s: &str) -> Option<&str> {
    (!s.is_empty() && s.len() <= 12 && s.bytes().all(|b| b.is_ascii_digit())).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeded_list_is_valid_and_keeps_todays_defaults() {
        let list = SizeList::seeded();
        let project = list.resolve(None, WorkloadKind::Project).unwrap();
        assert_eq!((project.cpu.as_str(), project.memory.as_str()), ("500m", "1Gi"));
        let insight = list.resolve(None, WorkloadKind::Insight).unwrap();
        assert_eq!((insight.cpu.as_str(), insight.memory.as_str()), ("250m", "512Mi"));
        assert_eq!(list.resolve(None, WorkloadKind::Task).unwrap().id, "medium");
        // Every tier has a quota; a free organization may run its default project and app at
        // once, and more.
        assert!(TIERS.iter().all(|t| list.quota(t).is_some()));
        let free = list.quota("free").unwrap();
        assert!(
            millicores(&free.cpu).unwrap()
                >= millicores(&project.cpu).unwrap() + millicores(&insight.cpu).unwrap()
        );
        for size in &list.sizes {
            assert!(!size.purpose.trim().is_empty(), "{}: say what it is for", size.id);
        }
    }

    #[test]
    fn an_unknown_size_names_the_allowed_ones() {
        let err = SizeList::seeded()
            .resolve(Some("huge"), WorkloadKind::Project)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "size \"huge\" is not in the administrator's size list (small, medium, large)"
        );
    }

    #[test]
    fn a_list_that_breaks_a_rule_says_which() {
        let mut v: serde_json::Value =
            serde_json::from_str(include_str!("../../seeds/ludis-sizes.json")).unwrap();
        let with = |edit: &dyn Fn(&mut serde_json::Value)| {
            let mut v = v.clone();
            edit(&mut v);
            SizeList::parse(&v.to_string()).unwrap_err()
        };
        assert!(with(&|v| v["default"] = "xl".into()).contains("the default \"xl\""));
        assert!(with(&|v| v["sizes"][0]["cpu"] = "2".into()).contains("cpu is above cpuLimit"));
        assert!(with(&|v| v["sizes"][0]["memory"] = "lots".into()).contains("memory \"lots\""));
        assert!(with(&|v| v["sizes"][1]["id"] = "small".into()).contains("appears twice"));
        assert!(with(&|v| v["sizes"][0]["id"] = "Small!".into()).contains("not a DNS label"));
        assert!(with(&|v| v["sizes"][0]["gpu"] = "1".into()).contains("unknown field"));
        assert_eq!(
            with(&|v| v["quotas"]["paid"]["memory"] = "8GB".into()),
            "quota \"paid\": memory \"8GB\" is not a quantity of bytes"
        );
        assert_eq!(
            with(&|v| v["quotas"]["gold"] = v["quotas"]["paid"].clone()),
            "quota \"gold\": there is no such tier (free, paid)"
        );
        v["sizes"] = serde_json::json!([]);
        assert_eq!(SizeList::parse(&v.to_string()).unwrap_err(), "it has no sizes");
    }

    #[test]
    fn quantities_read_as_kubernetes_reads_them() {
        assert_eq!(millicores("250m"), Some(250));
        assert_eq!(millicores("2"), Some(2000));
        assert_eq!(millicores("1.5"), Some(1500));
        assert_eq!(millicores("0.125"), Some(125));
        for bad in ["", "m", "1.2345", "-1", "1e3", "2 ", "1.", ".5"] {
            assert_eq!(millicores(bad), None, "{bad:?}");
        }
        assert_eq!(bytes("512Mi"), Some(512 << 20));
        assert_eq!(bytes("2Gi"), Some(2 << 30));
        assert_eq!(bytes("1000"), Some(1000));
        for bad in ["", "Gi", "1G", "1.5Gi", "-1Mi"] {
            assert_eq!(bytes(bad), None, "{bad:?}");
        }
    }
}
