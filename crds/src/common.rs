//! Fragments shared by several kinds: references, resources, conditions.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
use kube::KubeSchema;
use serde::{Deserialize, Serialize};

/// Condition type: the resource is doing what its spec asks (`kubectl wait --for=condition=Ready`).
pub const CONDITION_READY: &str = "Ready";
/// Condition type (kstatus): the operator is still working towards the spec. True means
/// InProgress to kstatus, Flux and Argo CD.
pub const CONDITION_RECONCILING: &str = "Reconciling";
/// Condition type (kstatus): the spec cannot be carried out as it is, or the object failed for
/// good (the reason says why). True means Failed to kstatus and Flux, Degraded to Argo CD.
pub const CONDITION_STALLED: &str = "Stalled";
/// Condition type: the same as [`CONDITION_RECONCILING`]. Deprecated alias, written for one more
/// release for the readers of the first one.
pub const CONDITION_PROGRESSING: &str = "Progressing";
/// Condition type: the same as [`CONDITION_STALLED`]. Deprecated alias, written for one more
/// release for the readers of the first one.
pub const CONDITION_DEGRADED: &str = "Degraded";

/// The programming language of a project or insight.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Python.
    #[default]
    Python,
    /// R.
    R,
}

/// A reference to a Secret in the same namespace.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecretRef {
    /// Name of the Secret.
    #[schemars(length(min = 1, max = 253))]
    pub name: String,
}

/// A reference to another Ludis resource in the same namespace, by name.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocalRef {
    /// Name of the referenced resource.
    #[schemars(length(min = 1, max = 253))]
    pub name: String,
}

/// CPU and memory for a workload; both must stay within the administrator's limits.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct Resources {
    /// CPU, as a Kubernetes quantity (e.g. `500m`, `2`). Unset: the administrator's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^([0-9]+m|[0-9]+(\.[0-9]{1,3})?)$"))]
    pub cpu: Option<String>,
    /// Memory, as a Kubernetes quantity (e.g. `512Mi`, `2Gi`). Unset: the administrator's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^[0-9]+(Ki|Mi|Gi|Ti)?$"))]
    pub memory: Option<String>,
}

/// Sharing declared with the resource (for GitOps); merged with shares made in the console.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Default, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct Sharing {
    /// Colleagues, by e-mail, with their access level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 500))]
    pub users: Vec<UserShare>,
    /// Access level of everyone in the organization; unset means no organization share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization: Option<AccessLevel>,
}

/// One colleague's share.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, KubeSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserShare {
    /// The colleague's e-mail address.
    #[schemars(length(min = 3, max = 254))]
    pub email: String,
    /// What the colleague may do.
    pub level: AccessLevel,
}

/// Access levels, ordered: view < execute < edit.
#[derive(
    Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum AccessLevel {
    /// Read only.
    View,
    /// Run, logs, terminal, web view.
    Execute,
    /// Everything, including share and delete.
    Edit,
}

/// The condition that says the object is stuck until someone acts — `Stalled=True`, or, from an
/// operator older than the kstatus conditions, its alias `Degraded=True` — for its reason and
/// message.
pub fn stalled_condition(conditions: &[Condition]) -> Option<&Condition> {
    let true_of = |type_: &str| conditions.iter().find(|c| c.type_ == type_ && c.status == "True");
    true_of(CONDITION_STALLED).or_else(|| true_of(CONDITION_DEGRADED))
}

/// What a person should read of an object's state: the message of its stuck condition
/// ([`stalled_condition`]; its reason when it has no message), else of `Reconciling=True` (what it
/// waits for, e.g. "waiting for a node: 0/2 nodes are available: 1 Insufficient cpu.").
pub fn status_message(conditions: &[Condition]) -> Option<String> {
    let said = |c: &Condition| {
        if c.message.trim().is_empty() {
            c.reason.clone()
        } else {
            c.message.clone()
        }
    };
    stalled_condition(conditions).map(said).or_else(|| {
        conditions
            .iter()
            .find(|c| c.type_ == CONDITION_RECONCILING && c.status == "True" && !c.message.trim().is_empty())
            .map(said)
    })
}

/// Sets (adds or updates) a condition. `lastTransitionTime` changes only when the status flips,
/// so a steady state does not churn the object.
pub fn set_condition(conditions: &mut Vec<Condition>, mut new: Condition) {
    match conditions.iter_mut().find(|c| c.type_ == new.type_) {
        Some(existing) => {
            if existing.status == new.status {
                new.last_transition_time = existing.last_transition_time.clone();
            }
            *existing = new;
        }
        None => conditions.push(new),
    }
    conditions.sort_by(|a, b| a.type_.cmp(&b.type_));
}

/// Condition with this type, if present.
pub fn find_condition<'a>(conditions: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == type_)
}

#[cfg(test)]
mod tests {
    use k8s_openapi::{apimachinery::pkg::apis::meta::v1::Time, jiff::Timestamp};

    use super::*;

    #[test]
    fn stalled_is_read_before_its_deprecated_alias() {
        let c = |type_: &str, status: &str, reason: &str| Condition {
            type_: type_.into(),
            status: status.into(),
            reason: reason.into(),
            ..cond(CONDITION_READY, "True", 1)
        };
        assert_eq!(stalled_condition(&[c(CONDITION_READY, "True", "Running")]), None);
        let old = [c(CONDITION_DEGRADED, "True", "ImageNotAllowed")];
        assert_eq!(
            stalled_condition(&old).map(|c| c.reason.as_str()),
            Some("ImageNotAllowed")
        );
        let both = [
            c(CONDITION_DEGRADED, "True", "Old"),
            c(CONDITION_STALLED, "True", "DatasetNotFound"),
        ];
        assert_eq!(
            stalled_condition(&both).map(|c| c.reason.as_str()),
            Some("DatasetNotFound")
        );
        let recovered = [c(CONDITION_STALLED, "False", "AsExpected")];
        assert_eq!(stalled_condition(&recovered), None);
    }

    fn cond(type_: &str, status: &str, at: i64) -> Condition {
        Condition {
            type_: type_.into(),
            status: status.into(),
            reason: "Because".into(),
            message: String::new(),
            observed_generation: Some(1),
            last_transition_time: Time(Timestamp::from_second(at).unwrap()),
        }
    }

    #[test]
    fn a_steady_condition_keeps_its_transition_time() {
        let mut conds = vec![cond(CONDITION_READY, "True", 100)];
        set_condition(&mut conds, cond(CONDITION_READY, "True", 200));
        assert_eq!(conds[0].last_transition_time.0.as_second(), 100);
    }

    #[test]
    fn a_flipped_condition_takes_the_new_transition_time() {
        let mut conds = vec![cond(CONDITION_READY, "True", 100)];
        set_condition(&mut conds, cond(CONDITION_READY, "False", 200));
        assert_eq!(conds[0].last_transition_time.0.as_second(), 200);
        assert_eq!(conds[0].status, "False");
    }

    #[test]
    fn conditions_are_added_and_kept_sorted() {
        let mut conds = vec![cond(CONDITION_READY, "True", 100)];
        set_condition(&mut conds, cond(CONDITION_DEGRADED, "False", 100));
        let types: Vec<_> = conds.iter().map(|c| c.type_.as_str()).collect();
        assert_eq!(types, [CONDITION_DEGRADED, CONDITION_READY]);
        assert!(find_condition(&conds, CONDITION_DEGRADED).is_some());
    }
}
