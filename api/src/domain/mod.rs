//! The platform's vocabulary as types: asset kinds and the spec's entity types, access levels,
//! roles, feature keys, and the fixed sets of values of insights, datasets, shares and workflows. Each is
//! stored and sent under exactly one name (its serde name, which is also what
//! [`as_str`](AssetKind::as_str) gives and what the OpenAPI document lists), so no module maps
//! strings of its own.

mod access;
mod datasets;
mod insights;
mod kinds;
mod metrics;
mod projects;
mod roles;
mod sharing;
mod web3;
mod workflows;

pub use access::AccessLevel;
pub use datasets::{DatasetStatus, DeletionPolicy};
pub use insights::{AppType, InsightStatus, Language, Template};
pub use kinds::{AssetKind, EntityType, Feature, Origin};
pub use metrics::{ActivityAction, ActivityEntity, Figure, LoginSeriesKind, Period};
pub use projects::{ProjectFlavour, ProjectStatus, RepoEntryType};
pub use roles::{Role, UserStatus};
pub use sharing::{ShareOrigin, ShareTarget, ShareType, StoredTarget};
pub use web3::{BubbleGroup, Chain, CollectionStatus, ContractType, WalletClass};
pub use workflows::{EmailOn, MarkState, NodeTaskType, RunState, RunTrigger, TaskState, WorkflowStatus};

/// A value of a fixed set that a stored or sent text did not name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what}: {value:?}")]
pub struct Unknown {
    pub what: &'static str,
    pub value: String,
}

/// An enum of wire names: each variant with the one text it is stored and sent as. Generates the
/// type (with serde and OpenAPI names from that text), `ALL`, `as_str`, `FromStr` (exact names),
/// `Display` and equality with a name.
macro_rules! names {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $text:tt ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The stored and sent name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Self::$variant => $text),+
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::domain::Unknown;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok(Self::$variant),)+
                    _ => Err($crate::domain::Unknown { what: $what, value: s.to_owned() }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        /// A value equals its name (`status == "running"`).
        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }
    };
}
pub(crate) use names;

#[cfg(test)]
mod tests {
    use super::*;

    /// The serde name, the stored name and the parsed name of every value are one.
    fn round_trips<T>(all: &[T])
    where
        T: Copy + std::fmt::Debug + PartialEq + serde::Serialize + std::str::FromStr + std::fmt::Display,
        <T as std::str::FromStr>::Err: std::fmt::Debug,
    {
        for v in all {
            let text = v.to_string();
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(text), "{v:?}");
            assert_eq!(text.parse::<T>().unwrap(), *v);
        }
    }

    #[test]
    fn every_name_round_trips() {
        round_trips(AssetKind::ALL);
        round_trips(EntityType::ALL);
        round_trips(Feature::ALL);
        round_trips(Origin::ALL);
        round_trips(AccessLevel::ALL);
        round_trips(Role::ALL);
        round_trips(UserStatus::ALL);
        round_trips(AppType::ALL);
        round_trips(InsightStatus::ALL);
        round_trips(Language::ALL);
        round_trips(Template::ALL);
        round_trips(DatasetStatus::ALL);
        round_trips(DeletionPolicy::ALL);
        round_trips(ShareTarget::ALL);
        round_trips(StoredTarget::ALL);
        round_trips(ShareType::ALL);
        round_trips(ShareOrigin::ALL);
        round_trips(ProjectStatus::ALL);
        round_trips(ProjectFlavour::ALL);
        round_trips(ActivityEntity::ALL);
        round_trips(ActivityAction::ALL);
        round_trips(Figure::ALL);
        round_trips(LoginSeriesKind::ALL);
        round_trips(Period::ALL);
        round_trips(WorkflowStatus::ALL);
        round_trips(EmailOn::ALL);
        round_trips(RunState::ALL);
        round_trips(RunTrigger::ALL);
        round_trips(TaskState::ALL);
        round_trips(MarkState::ALL);
        round_trips(NodeTaskType::ALL);
        round_trips(Chain::ALL);
        round_trips(ContractType::ALL);
        round_trips(CollectionStatus::ALL);
        round_trips(WalletClass::ALL);
        round_trips(BubbleGroup::ALL);
        assert_eq!(
            "nope".parse::<Role>(),
            Err(Unknown {
                what: "role",
                value: "nope".into()
            })
        );
    }
}
