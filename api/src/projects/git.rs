//! A project's repository as the routes use it: the store ([`git_store`], under
//! `LUDIS_DATA_DIR`), which repository a project names ([`repo_id`], [`repo`]), whose git
//! credentials reach an external remote ([`credentials`]), the commit author of a user
//! ([`author`]), and what each git error answers ([`git_error`]).
//!
//! Repositories are keyed by the organization's namespace (`ludis-<slug>`) and the project id,
//! never by anything a client sends. An external remote is read and written with the caller's
//! saved git username and token, or, when the caller has none, with the project owner's (the
//! owner shared the project, so people they share it with work through the owner's token).

use axum::http::StatusCode;
use ludis_git::{
    Author, BranchName, ErrorKind, External, GitCredentials, GitStore, ProjectRepo, RemoteUrl, RepoId,
    StoreConfig, UrlPolicy,
};

use crate::{
    db::{self, projects::Project, users::UserRow},
    error::{ApiError, Result},
    settings::Settings,
    state::AppState,
};

/// The message when an external remote is named and no git credentials are saved.
pub const NO_GIT_TOKEN: &str = "Please save your Git username and personal access token first";

/// The store of every project repository: `<LUDIS_DATA_DIR>/git/hosted` and `…/git/cache`.
pub fn git_store(settings: &Settings) -> GitStore {
    let mut config = StoreConfig::under(settings.data_dir.join("git"));
    if settings.git_allow_http_loopback {
        config.outbound.policy = UrlPolicy::AllowHttpOnLoopback;
    }
    config.outbound.allowed_networks = settings.git_allowed_networks.0.clone();
    config.outbound.max_fetch_bytes = settings.git_max_fetch_mib.saturating_mul(1024 * 1024);
    config.outbound.fetch_timeout = std::time::Duration::from_secs(settings.git_fetch_timeout_seconds);
    GitStore::new(config)
}

/// The URL rule of external remotes (HTTPS; plain HTTP on loopback when the settings allow it).
pub fn url_policy(state: &AppState) -> UrlPolicy {
    state.git.config().outbound.policy
}

/// The namespace of an organization's repositories (and resources): `ludis-<slug>`.
pub async fn namespace_of(state: &AppState, organization_id: &str) -> Result<String> {
    let org = db::organizations::by_id(&state.db, organization_id)
        .await?
        .ok_or_else(|| ApiError::internal(format!("organization {organization_id} is missing")))?;
    Ok(ludis_crds::organization_namespace(&org.slug))
}

/// The repository id of project `id` of an organization.
pub async fn repo_id(state: &AppState, organization_id: &str, id: &str) -> Result<RepoId> {
    let namespace = namespace_of(state, organization_id).await?;
    let uuid = uuid::Uuid::try_parse(id)
        .map_err(|_| ApiError::internal(format!("project id {id} is not a UUID")))?;
    RepoId::new(&namespace, uuid).map_err(|e| ApiError::internal(format!("repository id of {id}: {e}")))
}

/// A user's saved git username and token, decrypted; `None` when they saved none.
pub fn credentials_of(state: &AppState, user: &UserRow) -> Result<Option<GitCredentials>> {
    let (Some(username), Some(token)) = (&user.git_username, &user.git_token_enc) else {
        return Ok(None);
    };
    let token = state
        .auth
        .keyring
        .decrypt(token)
        .map_err(|e| ApiError::internal(format!("failed to decrypt a git token: {e:#}")))?;
    GitCredentials::new(username, &token)
        .map(Some)
        .map_err(|e| ApiError::bad_request("invalid_git_details", e.to_string()))
}

/// The credentials that reach a project's external remote for `caller`: theirs, else the owner's.
pub async fn credentials(state: &AppState, caller: &UserRow, project: &Project) -> Result<GitCredentials> {
    if let Some(c) = credentials_of(state, caller)? {
        return Ok(c);
    }
    let owner = match project.asset.owner_uid.as_deref() {
        Some(uid) if uid != caller.uid => db::users::by_uid(&state.db, uid).await?,
        _ => None,
    };
    match owner {
        Some(owner) => credentials_of(state, &owner)?,
        None => None,
    }
    .ok_or_else(|| ApiError::bad_request("git_token_required", NO_GIT_TOKEN))
}

/// The repository of a project, as `caller` reaches it.
pub async fn repo(state: &AppState, caller: &UserRow, project: &Project) -> Result<ProjectRepo> {
    let id = repo_id(state, &project.asset.organization_id, &project.asset.id).await?;
    let Some(url) = &project.details.repo_url else {
        return Ok(ProjectRepo::hosted(id));
    };
    let url = RemoteUrl::parse(url, url_policy(state))
        .map_err(|e| ApiError::bad_request("invalid_repo_url", e.to_string()))?;
    let branch = BranchName::new(&project.details.branch)
        .map_err(|e| ApiError::bad_request("invalid_branch", e.to_string()))?;
    let credentials = credentials(state, caller, project).await?;
    Ok(ProjectRepo::external(id, branch, External { url, credentials }))
}

/// The commit author of a user: their name (else their e-mail) and e-mail.
pub fn author(user: &UserRow) -> Result<Author> {
    let name = format!("{} {}", user.first_name, user.last_name);
    let name = if name.trim().is_empty() {
        user.email.as_str()
    } else {
        name.trim()
    };
    Author::new(name, &user.email).map_err(|e| ApiError::bad_request("invalid_author", e.to_string()))
}

/// The answer of a git error: the crate's sentence with the status of its kind (a stale file is
/// 409 `stale_file`; a remote refusing the user's token is 400, never 401); internal errors are
/// logged and answered with the generic message.
pub fn git_error(e: ludis_git::Error) -> ApiError {
    let message = e.to_string();
    match e.kind() {
        ErrorKind::Invalid => ApiError::bad_request("invalid_request", message),
        ErrorKind::NotFound => ApiError::not_found("git_not_found", message),
        ErrorKind::Conflict => ApiError::conflict("stale_file", message),
        ErrorKind::TooLarge => ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "file_too_large", message),
        ErrorKind::RemoteCredentials => ApiError::bad_request("git_remote_refused", message),
        ErrorKind::RemoteFailed => ApiError::new(StatusCode::BAD_GATEWAY, "git_remote_failed", message),
        ErrorKind::Busy => ApiError::unavailable("git_busy", message),
        ErrorKind::Internal => ApiError::internal(format!("{:#}", anyhow::Error::new(e))),
    }
}

/// Checks that every file of `files` is a file at the head of the project's branch (a publish
/// names the driver file and the files it needs): 400 naming the first that is not.
pub async fn require_files(
    state: &AppState,
    caller: &UserRow,
    project: &Project,
    files: &[String],
) -> Result<()> {
    let repo = repo(state, caller, project).await?;
    for f in files {
        let path =
            ludis_git::RepoPath::file(f).map_err(|e| ApiError::bad_request("invalid_file", e.to_string()))?;
        match state.git.contents(&repo, &path).await {
            Ok(ludis_git::Contents::File(_)) => {}
            Ok(ludis_git::Contents::Folder(_)) | Err(ludis_git::Error::NotFound { .. }) => {
                return Err(ApiError::bad_request(
                    "file_not_in_project",
                    format!("'{f}' is not a file of the project"),
                ));
            }
            Err(e) => return Err(git_error(e)),
        }
    }
    Ok(())
}
