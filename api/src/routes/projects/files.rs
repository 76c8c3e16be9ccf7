//! A project's files, at the head of its branch (spec 001 §4 "Project file", contract
//! "repocontents / commitfile / deletefile"): a folder's entries or a file's content, a file
//! committed or deleted as the caller (author from their profile). A change names the version it
//! was made on (`sha`); one made on a stale version is refused with 409 `stale_file`, never a
//! silent overwrite, and a change beside other files' changes is applied on top of them. Paths
//! follow the git layer's rules ([`ludis_git::RepoPath`]: no `..`, no absolute paths, no `.git`);
//! files up to [`ludis_git::MAX_FILE_BYTES`].

use axum::{Json, extract::State};
use base64::Engine as _;
use ludis_git::{
    Author, CommitMessage, Contents, EntryKind, Expected, FileCommit, FileDelete, ProjectRepo, RepoPath, Sha,
};
use serde::{Deserialize, Serialize};
use utoipa::{
    ToSchema,
    openapi::schema::{Object, ObjectBuilder, Type},
};

use super::load;
use crate::{
    auth::AuthUser,
    db::{activity::Activity, projects::Project},
    domain::{AccessLevel, ActivityAction, RepoEntryType},
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    projects::git::{self, git_error},
    state::AppState,
    views::Done,
};

/// The largest commitfile body: a 10 MiB file in base64, and the rest of the request.
pub const COMMIT_BODY_LIMIT: usize = (ludis_git::MAX_FILE_BYTES as usize).div_ceil(3) * 4 + 64 * 1024;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn path_error(e: ludis_git::PathError) -> ApiError {
    ApiError::bad_request("invalid_path", e.to_string())
}

fn input_error(e: ludis_git::InputError) -> ApiError {
    ApiError::bad_request("invalid_request", e.to_string())
}

/// The document's schema of a string that is always `value` (the contract's literal types).
fn literal(value: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([value]))
        .description(Some(format!("Always `{value}`.")))
        .build()
}

fn file_literal() -> Object {
    literal("file")
}

fn base64_literal() -> Object {
    literal("base64")
}

/// One entry of a folder: a file or a folder (`sha`: its blob or tree at the head).
#[derive(Debug, Serialize, ToSchema)]
pub struct RepoContentItem {
    pub name: String,
    pub path: String,
    #[serde(rename = "type")]
    pub kind: RepoEntryType,
    pub sha: String,
    pub size: u64,
    /// Always null: files are read through this call.
    // Documented as a nullable string: openapi-fetch (the console's typed client) drops a field
    // whose only type is `null` from the answers it types.
    #[schema(value_type = Option<String>, required)]
    pub download_url: Option<()>,
}

/// A file at the head, its content in base64.
#[derive(Debug, Serialize, ToSchema)]
pub struct FileContent {
    pub name: String,
    pub path: String,
    #[serde(rename = "type")]
    #[schema(schema_with = file_literal)]
    pub kind: &'static str,
    pub sha: String,
    pub size: u64,
    #[schema(schema_with = base64_literal)]
    pub encoding: &'static str,
    pub content: String,
}

/// A folder's entries, or a file.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum RepoContents {
    Folder(Vec<RepoContentItem>),
    File(FileContent),
}

#[derive(Serialize, ToSchema)]
pub struct RepoContentsAnswer {
    pub success: bool,
    pub contents: RepoContents,
    /// How many entries the folder has when the listing is cut (at 5,000); else absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub total: Option<usize>,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct RepoContentsRequest {
    /// The project (the path's id is used; this one is accepted for the console's shape).
    pub project: Option<String>,
    /// A folder or a file from the repository's root; `''` is the root.
    pub path: String,
}

/// A change by the caller (edit access): the project, its repository as they reach it, and
/// them as the author.
async fn as_author(state: &AppState, caller: &AuthUser, id: &str) -> Result<(Project, ProjectRepo, Author)> {
    let (project, _) = load(state, caller, id, AccessLevel::Edit).await?;
    let repo = git::repo(state, &caller.user, &project).await?;
    Ok((project, repo, git::author(&caller.user)?))
}

fn name_of(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_owned()
}

/// A folder's entries or a file's content at the head of the project's branch (view access).
#[utoipa::path(post, path = "/v2/projects/repocontents/{id}", tag = "projects", request_body = RepoContentsRequest,
    params(("id" = String, Path, description = "Project id")),
    responses(
        (status = 200, body = RepoContentsAnswer),
        (status = 400, description = "A path the rules refuse; the remote refused the git token", body = ErrorBody),
        (status = 404, description = "Project not found, or no such file or folder", body = ErrorBody),
        (status = 413, description = "The file is larger than 10 MiB", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn repo_contents(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<RepoContentsRequest>,
) -> Result<Json<RepoContentsAnswer>> {
    let (project, _) = load(&state, &caller, &id, AccessLevel::View).await?;
    let path = RepoPath::parse(&req.path).map_err(path_error)?;
    let repo = git::repo(&state, &caller.user, &project).await?;
    let (contents, total) = match state.git.contents(&repo, &path).await.map_err(git_error)? {
        Contents::Folder(listing) => {
            let total = listing.is_truncated().then_some(listing.total);
            let items = listing
                .entries
                .into_iter()
                .filter_map(|e| {
                    let kind = match e.kind {
                        EntryKind::File => RepoEntryType::File,
                        EntryKind::Folder => RepoEntryType::Dir,
                        // A submodule cannot be opened here.
                        EntryKind::Submodule => return None,
                    };
                    Some(RepoContentItem {
                        name: e.name,
                        path: e.path,
                        kind,
                        sha: e.sha.as_str().to_owned(),
                        size: e.size,
                        download_url: None,
                    })
                })
                .collect();
            (RepoContents::Folder(items), total)
        }
        Contents::File(f) => (
            RepoContents::File(FileContent {
                name: name_of(&f.path),
                path: f.path,
                kind: "file",
                sha: f.sha.as_str().to_owned(),
                size: f.size,
                encoding: "base64",
                content: B64.encode(&f.bytes),
            }),
            None,
        ),
    };
    Ok(Json(RepoContentsAnswer {
        success: true,
        contents,
        total,
    }))
}

/// A new version of one file; the fields marked required are refused when absent or empty.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct CommitFileRequest {
    /// The project id.
    #[schema(required)]
    pub project: String,
    #[schema(required)]
    pub file_path: String,
    /// The file's new content, base64 (absent: an empty file).
    pub contents: String,
    #[schema(required)]
    pub message: String,
    /// The blob the editor loaded; absent for a new file that must not exist yet.
    pub sha: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CommitRef {
    pub sha: String,
}

#[derive(Serialize, ToSchema)]
pub struct CommittedContent {
    pub path: String,
    pub sha: String,
}

#[derive(Serialize, ToSchema)]
pub struct CommitAnswer {
    pub success: bool,
    pub message: String,
    /// The branch head afterwards.
    pub commit: CommitRef,
    /// The file's blob afterwards (what the editor sends with its next commit).
    pub content: CommittedContent,
}

/// Commit one file as the caller (edit access): created when `sha` is absent (refused if the
/// name is taken), else updated when the file is still the version `sha` names (409 `stale_file`
/// otherwise).
#[utoipa::path(post, path = "/v2/projects/commitfile", tag = "projects", request_body = CommitFileRequest,
    responses(
        (status = 200, description = "Commit successful", body = CommitAnswer),
        (status = 400, description = "A path the rules refuse, content not base64, an empty message", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "The file changed since you opened it; reload it to see the latest version", body = ErrorBody),
        (status = 413, description = "The file is larger than 10 MiB", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn commit_file(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CommitFileRequest>,
) -> Result<Json<CommitAnswer>> {
    let (project, repo, author) = as_author(&state, &caller, &req.project).await?;
    let path = RepoPath::file(&req.file_path).map_err(path_error)?;
    let content = B64
        .decode(req.contents.trim())
        .map_err(|_| ApiError::bad_request("invalid_content", "The file's content must be base64"))?;
    let expected = match req.sha.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(sha) => Expected::Blob(Sha::parse(sha).map_err(input_error)?),
        None => Expected::Absent,
    };
    let message = CommitMessage::new(&req.message).map_err(input_error)?;
    let commit = FileCommit {
        path: path.clone(),
        content,
        expected,
        message,
        author,
    };
    let done = state.git.commit_file(&repo, commit).await.map_err(git_error)?;
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Committed)
        .record(&state.db)
        .await;
    Ok(Json(CommitAnswer {
        success: true,
        message: "Commit successful".into(),
        commit: CommitRef {
            sha: done.commit.as_str().to_owned(),
        },
        content: CommittedContent {
            path: path.as_str().to_owned(),
            sha: done.blob.map(|b| b.as_str().to_owned()).unwrap_or_default(),
        },
    }))
}

/// The removal of one file; the fields marked required are refused when absent or empty.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default, rename_all = "camelCase")]
pub struct DeleteFileRequest {
    /// The project id.
    #[schema(required)]
    pub project: String,
    #[schema(required)]
    pub file_path: String,
    /// The blob the caller loaded (required: a file someone just changed is never deleted blind).
    #[schema(required)]
    pub sha: String,
    /// Default: 'Delete <path>'.
    pub message: Option<String>,
}

/// Delete one file in a commit by the caller (edit access), when it is still the version `sha`
/// names (409 `stale_file` otherwise).
#[utoipa::path(post, path = "/v2/projects/deletefile", tag = "projects", request_body = DeleteFileRequest,
    responses(
        (status = 200, description = "File deleted", body = Done),
        (status = 400, description = "A path the rules refuse; no sha", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project or file not found", body = ErrorBody),
        (status = 409, description = "The file changed since you opened it", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_file(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<DeleteFileRequest>,
) -> Result<Json<Done>> {
    let (project, repo, author) = as_author(&state, &caller, &req.project).await?;
    let path = RepoPath::file(&req.file_path).map_err(path_error)?;
    if req.sha.trim().is_empty() {
        return Err(ApiError::bad_request(
            "sha_required",
            "Open the file before deleting it (its sha is required)",
        ));
    }
    let expected = Sha::parse(req.sha.trim()).map_err(input_error)?;
    let message = match req.message.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(m) => m.to_owned(),
        None => format!("Delete {}", path.as_str()),
    };
    let delete = FileDelete {
        path,
        expected,
        message: CommitMessage::new(&message).map_err(input_error)?,
        author,
    };
    state.git.delete_file(&repo, delete).await.map_err(git_error)?;
    Activity::on_asset(&caller.user, &project.asset, ActivityAction::Committed)
        .record(&state.db)
        .await;
    Ok(Done::new("File deleted"))
}
