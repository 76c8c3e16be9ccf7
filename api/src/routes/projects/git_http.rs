//! The repositories of projects, served to git clients over smart HTTP at
//! `/git/<namespace>/<project id>.git/…` (git's own `http-backend`, [`ludis_git::server`]), so
//! pods and people can clone them: a project Ludis hosts from its repository, an imported one
//! from the API's mirror of its remote (fetched with the token of the user it is read for, which
//! never leaves the API; the mirror is read-only).
//!
//! People sign in with Basic credentials: their e-mail and API key; the project's access rule
//! decides: edit may push (to a hosted repository), view or execute may clone, anyone else (or a
//! project that does not exist, or whose feature is off for the user's role) gets 404.
//!
//! A pod's checkout signs in as [`GIT_POD_USERNAME`] with its own service-account token for
//! [`GIT_AUDIENCE`] ([`pod_identity`]): it may clone the one repository its
//! [`ANNOTATION_CHECKOUT`] names, in its own namespace, while the pod exists.

use axum::{Router, http::HeaderMap};
use ludis_crds::{ANNOTATION_CHECKOUT, GIT_AUDIENCE, GIT_POD_USERNAME};
use ludis_git::{
    RepoId, Served,
    server::{Access, Authorize, BasicCredentials, ServerConfig},
};

use crate::{
    assets,
    auth::extract::authenticate,
    cluster::pod_identity,
    db::{self, projects::Project, users::UserRow},
    domain::{AccessLevel, AssetKind},
    projects::git::{self, namespace_of},
    state::AppState,
};

/// Where the router is mounted.
pub const PREFIX: &str = "/git";

/// The smart-HTTP routes of the projects' repositories, to mount at [`PREFIX`] outside the JSON
/// routes' body limit and timeout (pushes are limited by the git server).
pub fn router(state: &AppState) -> Router<AppState> {
    let store = state.git.config();
    let config = ServerConfig {
        mirror_root: Some(store.cache_root.clone()),
        ..ServerConfig::new(store.hosted_root.clone())
    };
    Router::new().nest(
        PREFIX,
        ludis_git::server::router(config, ProjectAccess { state: state.clone() }),
    )
}

/// The access rule of projects, for git clients.
struct ProjectAccess {
    state: AppState,
}

impl ProjectAccess {
    async fn decide(&self, credentials: &BasicCredentials, repo: &RepoId) -> anyhow::Result<Access> {
        if credentials.username.trim() == GIT_POD_USERNAME {
            return self.pod(credentials, repo).await;
        }
        let mut headers = HeaderMap::new();
        let Ok(key) = credentials.password.trim().parse() else {
            return Ok(Access::Unauthenticated);
        };
        headers.insert("x-api-key", key);
        let caller = match authenticate(&self.state, &headers).await {
            Ok(Some(caller))
                if caller
                    .user
                    .email
                    .eq_ignore_ascii_case(credentials.username.trim()) =>
            {
                caller
            }
            _ => return Ok(Access::Unauthenticated),
        };
        let Some(project) = self.project(repo).await? else {
            return Ok(Access::None);
        };
        if assets::require_feature(&self.state, &caller.user, AssetKind::ProjectV2)
            .await
            .is_err()
        {
            return Ok(Access::None);
        }
        let level = assets::level(&self.state, &caller.user, &project.asset).await?;
        if level == AccessLevel::None {
            return Ok(Access::None);
        }
        Ok(match self.serve(&caller.user, &project).await? {
            Served::Hosted if level == AccessLevel::Edit => Access::Write,
            Served::Hosted => Access::Read,
            Served::Mirror => Access::ReadMirror,
        })
    }

    /// A pod's checkout: its token reviewed by the cluster, the repository its annotation names.
    async fn pod(&self, credentials: &BasicCredentials, repo: &RepoId) -> anyhow::Result<Access> {
        let Some(pod) = pod_identity::verify(&self.state, &credentials.password, &[GIT_AUDIENCE]).await?
        else {
            return Ok(Access::Unauthenticated);
        };
        let wanted = format!("{}/{}.git", repo.namespace(), repo.project().hyphenated());
        if pod.namespace != repo.namespace() || pod.annotation(ANNOTATION_CHECKOUT) != Some(wanted.as_str()) {
            return Ok(Access::None);
        }
        let Some(project) = self.project(repo).await? else {
            return Ok(Access::None);
        };
        // An imported project's remote is fetched with its owner's token, as it always was.
        let owner = match project.asset.owner_uid.as_deref() {
            Some(uid) => db::users::by_uid(&self.state.db, uid).await?,
            None => None,
        };
        let Some(owner) = owner else {
            return Ok(if project.details.is_hosted() {
                Access::Read
            } else {
                Access::None
            });
        };
        Ok(match self.serve(&owner, &project).await? {
            Served::Hosted => Access::Read,
            Served::Mirror => Access::ReadMirror,
        })
    }

    /// The project whose repository `repo` is, when it is a project of that namespace's
    /// organization.
    async fn project(&self, repo: &RepoId) -> anyhow::Result<Option<Project>> {
        let id = repo.project().hyphenated().to_string();
        let Some(project) = db::details::by_id::<db::projects::ProjectRow>(&self.state.db, &id).await? else {
            return Ok(None);
        };
        if project.asset.kind != AssetKind::ProjectV2
            || namespace_of(&self.state, &project.asset.organization_id)
                .await
                .ok()
                .as_deref()
                != Some(repo.namespace())
        {
            return Ok(None);
        }
        Ok(Some(project))
    }

    /// Readies the project's repository for git clients, read for `user` (whose git token, or
    /// the owner's, fetches an imported project's remote).
    async fn serve(&self, user: &UserRow, project: &Project) -> anyhow::Result<Served> {
        let repo = git::repo(&self.state, user, project).await?;
        Ok(self.state.git.serve(&repo).await?)
    }
}

impl Authorize for ProjectAccess {
    async fn authorize(&self, credentials: &BasicCredentials, repo: &RepoId) -> Access {
        match self.decide(credentials, repo).await {
            Ok(access) => access,
            Err(e) => {
                tracing::warn!(repo = %repo, error = format!("{e:#}"), "failed to decide a git client's access");
                Access::None
            }
        }
    }
}
