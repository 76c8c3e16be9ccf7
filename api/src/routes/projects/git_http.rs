//! The repositories Ludis hosts, served to git clients over smart HTTP at
//! `/git/<namespace>/<project id>.git/…` (git's own `http-backend`, [`ludis_git::server`]), so
//! preview pods and people can clone them. People sign in with Basic credentials: their e-mail
//! and API key; the project's access rule decides: edit may push, view or execute may clone,
//! anyone else (or a project that does not exist, or whose feature is off for the user's role)
//! gets 404. A preview's checkout signs in with the project id and the project's checkout token
//! (rotated at every run, in the project's git Secret): it may clone that repository only.

use axum::{Router, http::HeaderMap};
use ludis_git::{
    RepoId,
    server::{Access, Authorize, BasicCredentials, ServerConfig},
};

use crate::{
    assets,
    auth::extract::authenticate,
    crypto, db,
    domain::{AccessLevel, AssetKind},
    projects::git::namespace_of,
    state::AppState,
};

/// Where the router is mounted.
pub const PREFIX: &str = "/git";

/// The smart-HTTP routes of the hosted repositories, to mount at [`PREFIX`] outside the JSON
/// routes' body limit and timeout (pushes are limited by the git server).
pub fn router(state: &AppState) -> Router<AppState> {
    let config = ServerConfig::new(state.git.config().hosted_root.clone());
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
        let id = repo.project().hyphenated().to_string();
        // The preview's checkout: the project id and its checkout token clone that repository.
        if credentials.username.trim() == id {
            let hash = db::projects::checkout_token_hash(&self.state.db, &id).await?;
            let given = crypto::sha256_hex(credentials.password.trim());
            // Digests of a random token: comparing them tells nothing about the token.
            return Ok(if hash.as_deref() == Some(given.as_str()) {
                Access::Read
            } else {
                Access::Unauthenticated
            });
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
        let Some(asset) = db::assets::by_id(&self.state.db, &id)
            .await?
            .filter(|a| a.kind == AssetKind::ProjectV2)
        else {
            return Ok(Access::None);
        };
        if namespace_of(&self.state, &asset.organization_id)
            .await
            .ok()
            .as_deref()
            != Some(repo.namespace())
            || assets::require_feature(&self.state, &caller.user, AssetKind::ProjectV2)
                .await
                .is_err()
        {
            return Ok(Access::None);
        }
        Ok(match assets::level(&self.state, &caller.user, &asset).await? {
            AccessLevel::Edit => Access::Write,
            AccessLevel::View | AccessLevel::Execute => Access::Read,
            AccessLevel::None => Access::None,
        })
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
