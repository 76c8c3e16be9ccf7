//! A legacy project's notebook files in its repository, through the git layer: add one (a new
//! file, committed by the caller), read one at the branch head, commit a new version on the
//! base it was opened from, delete one.

use ludis_git::{CommitMessage, Expected, FileCommit, FileDelete, ProjectRepo, RepoPath, Sha};

use crate::{
    auth::AuthUser,
    db::{
        self,
        notebooks::{self as rows, ACTIVE, NotebookRow},
        projects::Project,
    },
    error::{ApiError, Result},
    notebooks::ipynb,
    projects::git::{self, git_error},
    state::AppState,
};

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(format!("a notebook path or message was refused: {e}"))
}

/// The project's repository as the caller reaches it.
pub async fn repo(state: &AppState, caller: &AuthUser, project: &Project) -> Result<ProjectRepo> {
    git::repo(state, &caller.user, project).await
}

/// Adds notebook `name` with `content` (checked to be a notebook) to `project`: a new file named
/// after `file` (a name made safe and unique, `ipynb::file_name`), committed by the caller, and
/// its row.
pub async fn add(
    state: &AppState,
    caller: &AuthUser,
    project: &Project,
    (name, description): (&str, &str),
    file: &str,
    content: &str,
) -> Result<NotebookRow> {
    ipynb::parse(content).map_err(|e| ApiError::bad_request("invalid_notebook", e.to_string()))?;
    let repo = repo(state, caller, project).await?;
    let listing = state
        .git
        .list(&repo, &RepoPath::root())
        .await
        .map_err(git_error)?;
    let mut taken: Vec<String> = listing.entries.into_iter().map(|e| e.name).collect();
    taken.extend(
        rows::of_projects(&state.db, std::slice::from_ref(&project.asset.id))
            .await?
            .into_iter()
            .map(|n| n.path),
    );
    let path = ipynb::file_name(file, &taken);
    let commit = FileCommit {
        path: RepoPath::file(&path).map_err(internal)?,
        content: content.as_bytes().to_vec(),
        expected: Expected::Absent,
        message: CommitMessage::new(&format!("Add notebook {path}")).map_err(internal)?,
        author: git::author(&caller.user)?,
    };
    let done = state.git.commit_file(&repo, commit).await.map_err(git_error)?;
    let now = db::now();
    let row = NotebookRow {
        id: db::new_id(),
        project_id: project.asset.id.clone(),
        name: name.to_owned(),
        description: description.to_owned(),
        path,
        status: ACTIVE.to_owned(),
        base_sha: done.blob.map(|b| b.as_str().to_owned()),
        created_at: now,
        updated_at: now,
    };
    if !rows::insert(&state.db, &row).await? {
        return Err(ApiError::conflict(
            "notebook_exists",
            "A notebook with this file exists already; try again",
        ));
    }
    Ok(row)
}

/// Notebook `n`'s file at the head of its project's branch (404 when it is gone from git).
pub async fn read(
    state: &AppState,
    caller: &AuthUser,
    project: &Project,
    n: &NotebookRow,
) -> Result<ludis_git::File> {
    let repo = repo(state, caller, project).await?;
    state
        .git
        .read(&repo, &RepoPath::file(&n.path).map_err(internal)?)
        .await
        .map_err(git_error)
}

/// Commits `content` as notebook `n`'s file, on the version it was opened from (`n.base_sha`; a
/// file changed in git meanwhile is refused, never overwritten). `None` when it is unchanged.
pub async fn commit(
    state: &AppState,
    caller: &AuthUser,
    project: &Project,
    n: &NotebookRow,
    content: Vec<u8>,
    message: &str,
) -> Result<Option<Sha>> {
    let repo = repo(state, caller, project).await?;
    let expected = match &n.base_sha {
        Some(sha) => Expected::Blob(Sha::parse(sha).map_err(internal)?),
        None => Expected::Absent,
    };
    let commit = FileCommit {
        path: RepoPath::file(&n.path).map_err(internal)?,
        content,
        expected,
        message: CommitMessage::new(message)
            .map_err(|e| ApiError::bad_request("invalid_message", e.to_string()))?,
        author: git::author(&caller.user)?,
    };
    let done = state.git.commit_file(&repo, commit).await.map_err(git_error)?;
    let blob = done.blob.as_ref().map(|b| b.as_str().to_owned());
    rows::set_base(&state.db, &n.id, blob.as_deref(), db::now()).await?;
    Ok(done.changed.then_some(done.commit))
}

/// Deletes notebook `n`'s file (when it is still in git) and its row.
pub async fn remove(state: &AppState, caller: &AuthUser, project: &Project, n: &NotebookRow) -> Result<()> {
    let repo = repo(state, caller, project).await?;
    let path = RepoPath::file(&n.path).map_err(internal)?;
    match state.git.read(&repo, &path).await {
        Ok(file) => {
            let delete = FileDelete {
                path,
                expected: file.sha,
                message: CommitMessage::new(&format!("Delete notebook {}", n.path)).map_err(internal)?,
                author: git::author(&caller.user)?,
            };
            state.git.delete_file(&repo, delete).await.map_err(git_error)?;
        }
        Err(e) if e.kind() == ludis_git::ErrorKind::NotFound => {}
        Err(e) => return Err(git_error(e)),
    }
    rows::delete(&state.db, &n.id).await?;
    Ok(())
}
