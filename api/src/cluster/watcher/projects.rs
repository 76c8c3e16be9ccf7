//! The Project side of the watcher: every Project resource is mirrored into `assets`/`projects`
//! the way Insights are (organization, row, owner, `spec.sharing`, deletion: see the parent
//! module), with what is particular to projects:
//!
//! - **Fields**: `displayName` → name, `description`, `language`, `image` → image id,
//!   `git.url`/`git.branch` → the external remote (none: a repository hosted by Ludis),
//!   `preview.running`, `flavour`. A console row keeps its own remote, image and datasets (the API wrote
//!   them); a resource row takes the resource's.
//! - **Status** (every project, the API's too): the operator's phase → `stopped`, `starting`,
//!   `running`, `failed` (with the Stalled condition's message, or its deprecated alias
//!   Degraded's), `status.url` → where the preview answers; only when the status describes the
//!   current generation.

use kube::ResourceExt as _;
use ludis_crds::{
    Project as ProjectCr,
    common::Sharing,
    project::{ProjectPhase, ProjectStatus as CrStatus},
};

use super::mirror::{Mirror, Mirrored, Reading, resource_row, same_apart_from};
use crate::{
    db::{
        assets::AssetRow,
        projects::{self as rows, Project, ProjectRow},
    },
    domain::{AssetKind, Language, Origin, ProjectFlavour, ProjectStatus},
};

impl Mirrored for ProjectCr {
    type Details = ProjectRow;
    type Seen = Seen;

    fn id_candidates(cr: &Self) -> Vec<String> {
        cr.labels()
            .get(ludis_crds::LABEL_ID)
            .cloned()
            .into_iter()
            .collect()
    }

    async fn new_rows(
        _m: &mut Mirror,
        cr: &Self,
        seen: &Seen,
        row: AssetRow,
    ) -> anyhow::Result<Option<Project>> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        let mut project = new_project(
            seen,
            &row.id,
            &row.organization_id,
            row.owner_uid.clone(),
            &namespace,
            &name,
            row.created_at,
        );
        project.asset.origin = row.origin;
        Ok(Some(project))
    }

    async fn updated(
        _m: &mut Mirror,
        cr: &Self,
        old: &Project,
        seen: &Seen,
        owner: Option<String>,
    ) -> anyhow::Result<Project> {
        let (namespace, name) = (cr.namespace().unwrap_or_default(), cr.name_any());
        Ok(updated_project(old, seen, owner, &namespace, &name))
    }

    fn same_fields(a: &Project, b: &Project) -> bool {
        same_apart_from(a, b, |d: &mut ProjectRow| {
            d.status = ProjectStatus::default();
            d.status_message = None;
            d.upstream_url = None;
        })
    }

    async fn write_observed(db: &sqlx::AnyPool, old: &Project, new: &Project) -> anyhow::Result<()> {
        if observed(&old.details) != observed(&new.details) {
            let d = &new.details;
            rows::set_observed(
                db,
                &d.id,
                d.status,
                d.status_message.as_deref(),
                d.upstream_url.as_deref(),
            )
            .await?;
        }
        Ok(())
    }
}

/// Pure: what a Project resource says, in the database's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub name: String,
    pub description: String,
    pub language: Language,
    pub flavour: ProjectFlavour,
    pub image: String,
    pub size: Option<String>,
    /// `(url, branch)` of an external remote.
    pub git: Option<(String, String)>,
    pub running: bool,
    pub sharing: Option<ludis_crds::common::Sharing>,
    /// `(status, message, url)` when the status describes the current spec.
    pub observed: Option<(ProjectStatus, Option<String>, Option<String>)>,
}

impl Reading<ProjectCr> for Seen {
    fn sharing(&self) -> Option<&Sharing> {
        self.sharing.as_ref()
    }

    fn of(cr: &ProjectCr) -> Self {
        let spec = &cr.spec;
        let status = cr
            .status
            .as_ref()
            .filter(|s| match (s.observed_generation, cr.metadata.generation) {
                (Some(observed), Some(generation)) => observed >= generation,
                _ => true,
            });
        Self {
            name: spec.display_name.clone(),
            description: spec.description.clone(),
            language: match spec.language {
                ludis_crds::common::Language::Python => Language::Python,
                ludis_crds::common::Language::R => Language::R,
            },
            flavour: match spec.flavour {
                ludis_crds::project::ProjectFlavour::Code => ProjectFlavour::Code,
                ludis_crds::project::ProjectFlavour::Notebook => ProjectFlavour::Notebook,
            },
            image: spec.image.clone(),
            size: spec.size.clone(),
            git: spec.git.as_ref().map(|g| (g.url.clone(), g.branch.clone())),
            running: spec.preview.running,
            sharing: spec.sharing.clone(),
            observed: status.and_then(observed_of),
        }
    }
}

/// Pure: the operator's phase, failure message and url.
fn observed_of(s: &CrStatus) -> Option<(ProjectStatus, Option<String>, Option<String>)> {
    let status = match s.phase? {
        ProjectPhase::Stopped => ProjectStatus::Stopped,
        ProjectPhase::Starting => ProjectStatus::Starting,
        ProjectPhase::Running => ProjectStatus::Running,
        ProjectPhase::Failed => ProjectStatus::Failed,
    };
    // Why it failed, or what it waits for ("waiting for a node: …"); nothing once it runs or
    // stopped.
    let message = matches!(status, ProjectStatus::Failed | ProjectStatus::Starting)
        .then(|| ludis_crds::common::status_message(&s.conditions))
        .flatten();
    Some((status, message, s.url.clone()))
}

/// The repository author of an external remote (its owner path), as import derives it.
fn repo_author(url: &str) -> Option<String> {
    ludis_git::RemoteUrl::parse(url, ludis_git::UrlPolicy::AllowHttpOnLoopback)
        .ok()
        .map(|u| u.import().author)
}

/// Pure: the rows of a resource seen for the first time.
pub fn new_project(
    seen: &Seen,
    id: &str,
    organization_id: &str,
    owner_uid: Option<String>,
    namespace: &str,
    name: &str,
    now: i64,
) -> Project {
    let mut details = ProjectRow {
        id: id.to_owned(),
        branch: "main".into(),
        ..ProjectRow::default()
    };
    take_fields(&mut details, seen);
    Project {
        asset: resource_row(
            AssetKind::ProjectV2,
            (id, organization_id),
            owner_uid,
            (namespace, name),
            (&seen.name, &seen.description),
            now,
        ),
        details,
    }
}

/// The fields a resource row takes from its resource.
fn take_fields(d: &mut ProjectRow, seen: &Seen) {
    d.language = seen.language;
    d.flavour = seen.flavour;
    d.image_id = seen.image.clone();
    d.size_id = seen.size.clone();
    match &seen.git {
        Some((url, branch)) => {
            d.repo_author = repo_author(url);
            d.repo_url = Some(url.clone());
            d.branch = branch.clone();
        }
        None => {
            d.repo_url = None;
            d.repo_author = None;
            d.branch = "main".into();
        }
    }
    d.running = seen.running;
    if let Some((status, message, url)) = &seen.observed {
        d.status = *status;
        d.status_message = message.clone();
        d.upstream_url = url.clone();
    } else if !seen.running {
        d.status = ProjectStatus::Stopped;
    }
}

/// Pure: an existing row brought in line with its resource: name, description, the observed
/// status; a resource row also takes the remote, image, language and run switch (a console row
/// keeps what the API wrote). The owner rule is the insights'.
pub fn updated_project(
    old: &Project,
    seen: &Seen,
    owner_uid: Option<String>,
    namespace: &str,
    name: &str,
) -> Project {
    let mut new = old.clone();
    let (a, d) = (&mut new.asset, &mut new.details);
    a.name = seen.name.clone();
    a.description = seen.description.clone();
    a.namespace = Some(namespace.to_owned());
    a.resource_name = Some(name.to_owned());
    if owner_uid.is_some() || a.origin == Origin::Resource {
        a.owner_uid = owner_uid;
    }
    if a.origin == Origin::Resource {
        take_fields(d, seen);
    } else if let Some((status, message, url)) = &seen.observed {
        d.status = *status;
        d.status_message = message.clone();
        d.upstream_url = url.clone();
    }
    new
}

fn observed(d: &ProjectRow) -> (ProjectStatus, Option<&str>, Option<&str>) {
    (d.status, d.status_message.as_deref(), d.upstream_url.as_deref())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cr(spec: serde_json::Value, status: Option<serde_json::Value>) -> ProjectCr {
        let mut v = json!({
            "apiVersion": "ludis.dev/v1alpha1", "kind": "Project",
            "metadata": {"name": "demo", "namespace": "ludis-acme", "generation": 2},
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
            json!({"displayName": "Demo", "language": "r", "image": "r-4.4",
                   "git": {"url": "https://git.example/ada/demo.git", "branch": "dev"},
                   "preview": {"running": true}}),
            Some(
                json!({"observedGeneration": 2, "phase": "Failed", "url": "http://demo:8080",
                        "conditions": [{"type": "Degraded", "status": "True", "reason": "ImageNotAllowed",
                                        "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}),
            ),
        ));
        let p = new_project(&seen, "id1", "org", None, "ludis-acme", "demo", 5);
        assert_eq!(p.asset.origin, Origin::Resource);
        assert_eq!(p.details.language, Language::R);
        assert_eq!(
            p.details.repo_url.as_deref(),
            Some("https://git.example/ada/demo.git")
        );
        assert_eq!(p.details.repo_author.as_deref(), Some("ada"));
        assert_eq!(p.details.branch, "dev");
        assert!(p.details.running);
        assert_eq!(p.details.status, ProjectStatus::Failed);
        assert_eq!(p.details.status_message.as_deref(), Some("ImageNotAllowed"));
    }

    #[test]
    fn a_stale_status_is_not_mirrored_and_a_console_row_keeps_its_fields() {
        let seen = Seen::of(&cr(
            json!({"displayName": "Renamed", "image": "python-3.12", "preview": {"running": true}}),
            Some(json!({"observedGeneration": 1, "phase": "Running"})),
        ));
        assert_eq!(seen.observed, None);
        let mut console = new_project(&seen, "id1", "org", Some("u1".into()), "ns", "demo", 5);
        console.asset.origin = Origin::Api;
        console.details.image_id = "r-4.4".into();
        console.details.repo_url = Some("https://git.example/ada/x.git".into());
        let new = updated_project(&console, &seen, None, "ns", "demo");
        assert_eq!(new.asset.name, "Renamed");
        assert_eq!(new.asset.owner_uid.as_deref(), Some("u1"));
        assert_eq!(new.details.image_id, "r-4.4");
        assert!(new.details.repo_url.is_some());
    }
}
