//! Asset kinds: what each kind is called in the database, the spec, messages, the activity log,
//! flighting and the cluster. A new kind is one more variant here; the compiler then names every
//! place that has to say something about it.

use super::{AccessLevel, ActivityEntity, names};

names! {
    /// A kind of shareable asset (the `assets.kind` column).
    pub enum AssetKind ("asset kind") {
        /// The git-backed project workspace (spec 001 "project v2"; the `Project` resource).
        ProjectV2 = "project",
        /// Dashboards, reports and applications (the spec's Application / Insight).
        Insight = "application",
        Workflow = "workflow",
        Dataset = "dataset",
        /// The deprecated notebook-style project (spec 000 "legacy project list").
        Project = "legacy_project",
        /// A notebook of a legacy project.
        Notebook = "notebook",
    }
}

impl AssetKind {
    /// The table of the kind's details, beside its `assets` row (`d.id = a.id`).
    pub const fn details_table(self) -> &'static str {
        match self {
            Self::Insight => "insights",
            Self::Dataset => "datasets",
            Self::ProjectV2 => "projects",
            Self::Workflow => "workflows",
            Self::Project => "legacy_projects",
            Self::Notebook => "notebooks",
        }
    }

    /// The spec's entity types of the kind (spec 000 §9), the first being the one answered;
    /// none for a notebook (shared with its project).
    pub const fn entity_types(self) -> &'static [EntityType] {
        match self {
            Self::Insight => &[EntityType::Application, EntityType::Insight],
            Self::Dataset => &[EntityType::Dataset],
            Self::ProjectV2 => &[EntityType::ProjectV2],
            Self::Workflow => &[EntityType::Workflow, EntityType::Designer],
            Self::Project => &[EntityType::Project],
            Self::Notebook => &[],
        }
    }

    /// The entity type answered for the kind.
    pub fn entity_type(self) -> Option<EntityType> {
        self.entity_types().first().copied()
    }

    /// How messages name the kind ('Application not found', 'Dataset shared!').
    pub const fn label(self) -> &'static str {
        match self {
            Self::Insight => "Application",
            Self::Dataset => "Dataset",
            Self::ProjectV2 | Self::Project => "Project",
            Self::Workflow => "Workflow",
            Self::Notebook => "Notebook",
        }
    }

    /// The code of the kind's 404 (`application_not_found`).
    pub const fn not_found_code(self) -> &'static str {
        match self {
            Self::Insight => "application_not_found",
            Self::Dataset => "dataset_not_found",
            Self::ProjectV2 | Self::Project => "project_not_found",
            Self::Workflow => "workflow_not_found",
            Self::Notebook => "notebook_not_found",
        }
    }

    /// The 403 message of an action needing `need` on an asset the caller sees.
    pub fn forbidden_message(self, need: AccessLevel) -> String {
        // Datasets have no execute level: the one thing a viewer cannot do is edit.
        if self == Self::Dataset {
            return "You need edit access".to_owned();
        }
        let what = match need {
            AccessLevel::Edit => "edit",
            AccessLevel::Execute => "execute or edit",
            _ => "view",
        };
        format!("You need {what} access to this {}", self.label().to_lowercase())
    }

    /// The activity log's and the metrics' name of the kind (`applications`).
    pub const fn activity_entity(self) -> ActivityEntity {
        match self {
            Self::Insight => ActivityEntity::Applications,
            Self::Dataset => ActivityEntity::Datasets,
            Self::ProjectV2 | Self::Project => ActivityEntity::Projects,
            Self::Workflow => ActivityEntity::Workflows,
            Self::Notebook => ActivityEntity::Notebooks,
        }
    }

    /// For logs and counts: `insight`, `dataset`, …
    pub const fn noun(self) -> &'static str {
        match self {
            Self::Insight => "insight",
            Self::Dataset => "dataset",
            Self::ProjectV2 | Self::Project => "project",
            Self::Workflow => "workflow",
            Self::Notebook => "notebook",
        }
    }

    /// `1 insight`, `3 datasets`.
    pub fn count(self, n: usize) -> String {
        format!("{n} {}{}", self.noun(), if n == 1 { "" } else { "s" })
    }

    /// The flighting feature whose switch governs the kind.
    pub const fn feature(self) -> Feature {
        match self {
            Self::Insight => Feature::Insights,
            Self::Dataset => Feature::Datasets,
            Self::ProjectV2 | Self::Project => Feature::Projects,
            Self::Workflow => Feature::Workflows,
            Self::Notebook => Feature::Notebooks,
        }
    }

    /// The kind of its custom resource (`ludis.dev/v1alpha1`), for the kinds that have one.
    pub const fn resource_kind(self) -> Option<&'static str> {
        match self {
            Self::Insight => Some("Insight"),
            Self::Dataset => Some("Dataset"),
            Self::ProjectV2 => Some("Project"),
            Self::Workflow => Some("Workflow"),
            Self::Project | Self::Notebook => None,
        }
    }

    /// The kinds with a custom resource.
    pub fn with_resources() -> impl Iterator<Item = Self> {
        Self::ALL.iter().copied().filter(|k| k.resource_kind().is_some())
    }

    /// Whether `execute` may be granted: a dataset has nothing to run.
    pub fn offers_execute(self) -> bool {
        self != Self::Dataset
    }

    /// The levels a share of this kind may grant.
    pub fn grantable(self) -> Vec<AccessLevel> {
        [AccessLevel::View, AccessLevel::Execute, AccessLevel::Edit]
            .into_iter()
            .filter(|l| *l != AccessLevel::Execute || self.offers_execute())
            .collect()
    }

    /// The kinds of an ownership move (spec 001 §9 "Migration entity types: insight/application,
    /// project, workflow, dataset"): any case, singular or plural, or a spec entity type name.
    pub fn parse_migration(s: &str) -> Option<Self> {
        match s.trim().to_lowercase().trim_end_matches('s') {
            "insight" | "application" | "app" => Some(Self::Insight),
            "project" | "project_v2" | "projectv2" => Some(Self::ProjectV2),
            "workflow" => Some(Self::Workflow),
            "dataset" => Some(Self::Dataset),
            _ => None,
        }
    }
}

names! {
    /// The spec's entity types (spec 000 §9), as the sharing calls name an asset's kind.
    pub enum EntityType ("entity type") {
        Application = "Application",
        Project = "Project",
        ProjectV2 = "Project_V2",
        Dataset = "Dataset",
        Workflow = "Workflow",
        Insight = "Insight",
        Designer = "Designer",
    }
}

impl EntityType {
    /// The kind of asset this type names.
    pub fn kind(self) -> AssetKind {
        AssetKind::ALL
            .iter()
            .copied()
            .find(|k| k.entity_types().contains(&self))
            .expect("every entity type belongs to a kind")
    }

    /// A spec name in any case, trimmed (`application`, `PROJECT_V2`).
    pub fn parse_any_case(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
    }

    /// How a share's message names the type ('Insight shared!', 'Project shared!').
    pub fn label(self) -> &'static str {
        match self {
            Self::Insight => "Insight",
            other => other.kind().label(),
        }
    }
}

names! {
    /// A flighting feature key (spec 001 §9).
    pub enum Feature ("feature key") {
        Insights = "insights",
        Projects = "projects",
        Workflows = "workflows",
        Datasets = "datasets",
        Notebooks = "notebooks",
    }
}

impl Feature {
    /// The display name (`Insights`), in messages and the flighting screen.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Insights => "Insights",
            Self::Projects => "Projects",
            Self::Workflows => "Workflows",
            Self::Datasets => "Datasets",
            Self::Notebooks => "Notebooks",
        }
    }
}

names! {
    /// Where an asset's fields come from (the `assets.origin` column).
    pub enum Origin ("asset origin") {
        /// Made in the console or through the API.
        Api = "api",
        /// Applied with kubectl or a GitOps tool: the custom resource is the source.
        Resource = "resource",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_types_name_their_kinds() {
        for (name, kind) in [
            ("Application", AssetKind::Insight),
            ("application", AssetKind::Insight),
            ("INSIGHT", AssetKind::Insight),
            ("project_v2", AssetKind::ProjectV2),
            ("Project", AssetKind::Project),
            ("Dataset", AssetKind::Dataset),
            ("designer", AssetKind::Workflow),
        ] {
            assert_eq!(
                EntityType::parse_any_case(name).map(EntityType::kind),
                Some(kind),
                "{name}"
            );
        }
        assert_eq!(EntityType::parse_any_case("notebook"), None);
        assert_eq!(EntityType::ProjectV2.label(), "Project");
        assert_eq!(EntityType::Insight.label(), "Insight");
        for kind in AssetKind::ALL {
            if let Some(t) = kind.entity_type() {
                assert_eq!(t.kind(), *kind);
            }
        }
    }

    #[test]
    fn migration_names_parse() {
        for (s, k) in [
            ("insight", Some(AssetKind::Insight)),
            ("Application", Some(AssetKind::Insight)),
            ("applications", Some(AssetKind::Insight)),
            ("project", Some(AssetKind::ProjectV2)),
            ("Project_V2", Some(AssetKind::ProjectV2)),
            ("Workflow", Some(AssetKind::Workflow)),
            ("datasets", Some(AssetKind::Dataset)),
            ("notebook", None),
            ("", None),
        ] {
            assert_eq!(AssetKind::parse_migration(s), k, "{s}");
        }
    }

    #[test]
    fn kinds_speak_of_themselves() {
        assert_eq!(
            AssetKind::Insight.forbidden_message(AccessLevel::Execute),
            "You need execute or edit access to this application"
        );
        assert_eq!(
            AssetKind::ProjectV2.forbidden_message(AccessLevel::Edit),
            "You need edit access to this project"
        );
        assert_eq!(
            AssetKind::Dataset.forbidden_message(AccessLevel::Edit),
            "You need edit access"
        );
        assert_eq!(
            AssetKind::Dataset.grantable(),
            [AccessLevel::View, AccessLevel::Edit]
        );
        assert_eq!(
            AssetKind::Workflow.grantable(),
            [AccessLevel::View, AccessLevel::Execute, AccessLevel::Edit]
        );
        assert_eq!(AssetKind::Insight.count(1), "1 insight");
        assert_eq!(AssetKind::Dataset.count(3), "3 datasets");
        assert_eq!(
            AssetKind::with_resources().collect::<Vec<_>>(),
            [
                AssetKind::ProjectV2,
                AssetKind::Insight,
                AssetKind::Workflow,
                AssetKind::Dataset
            ]
        );
    }
}
