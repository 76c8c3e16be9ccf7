//! What a project's Run or Publish will run, shown before it runs: the launch rule
//! (`ludis_crds::launch`, which the operator's pods apply too) over the entry file's text at the
//! repository's head, and the commit a publication pins.

use ludis_crds::launch::{self, Launch, Purpose, Runner};
use ludis_git::{Contents, RepoPath};
use serde::Serialize;
use utoipa::ToSchema;

use super::git::{git_error, repo};
use crate::{
    db::{projects::Project, users::UserRow},
    error::{ApiError, Result},
    state::AppState,
};

/// The most of an entry file read to decide what runs it (imports are at the top).
const READ_AT_MOST: usize = 256 * 1024;

/// What runs, as the console shows it beside Run and Publish.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LaunchView {
    /// The entry file; null when the project has none to run (its files are served).
    #[schema(required)]
    pub file: Option<String>,
    /// What runs it: streamlit, panel, gradio, dash, fastapi, flask, python, shiny, r,
    /// rmarkdown, notebook, jupyterlab or files.
    #[schema(value_type = String)]
    pub runner: Runner,
    /// Its name as people know it (`Streamlit`, `FastAPI`, `R Markdown`, …).
    pub framework: String,
    /// The command as a person would type it (`streamlit run app.py`).
    pub command: String,
    /// Whether it serves a web page (else a program that prints and ends).
    pub serves: bool,
    /// The files the launch rule tries, in order, when none is chosen.
    pub candidates: Vec<String>,
}

impl From<Launch> for LaunchView {
    fn from(l: Launch) -> Self {
        Self {
            framework: l.runner.label().to_owned(),
            serves: l.runner.serves(),
            runner: l.runner,
            file: l.file,
            command: l.command,
            candidates: launch::candidates().iter().map(|c| (*c).to_owned()).collect(),
        }
    }
}

/// A file name the caller sent as an entry file, checked (the operator checks it again).
pub fn entry_file(file: &str) -> Result<String> {
    let file = file.trim();
    if !launch::valid_entry(file) {
        return Err(ApiError::bad_request(
            "invalid_entry_file",
            "The file to run must be a .py, .R, .Rmd or .ipynb file of the project",
        ));
    }
    Ok(file.to_owned())
}

/// The text of `file` at the head, or `None` when it is no file of the project.
async fn text(state: &AppState, caller: &UserRow, project: &Project, file: &str) -> Result<Option<String>> {
    let repo = repo(state, caller, project).await?;
    let path =
        RepoPath::file(file).map_err(|e| ApiError::bad_request("invalid_entry_file", e.to_string()))?;
    match state.git.contents(&repo, &path).await {
        Ok(Contents::File(f)) => {
            let end = f.bytes.len().min(READ_AT_MOST);
            Ok(Some(String::from_utf8_lossy(&f.bytes[..end]).into_owned()))
        }
        Ok(Contents::Folder(_)) | Err(ludis_git::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(git_error(e)),
    }
}

/// What runs `project` for `purpose`: the chosen `file` (it must exist), else the first of the
/// rule's candidates that exists, else its files served; a notebook project runs JupyterLab.
pub async fn what_runs(
    state: &AppState,
    caller: &UserRow,
    project: &Project,
    purpose: Purpose,
    file: Option<&str>,
) -> Result<LaunchView> {
    if project.details.is_notebook() && file.is_none() {
        return Ok(LaunchView::from(Launch {
            runner: Runner::JupyterLab,
            file: None,
            command: "jupyter lab".into(),
        }));
    }
    if let Some(file) = file {
        let file = entry_file(file)?;
        let text = text(state, caller, project, &file).await?.ok_or_else(|| {
            ApiError::bad_request(
                "file_not_in_project",
                format!("'{file}' is not a file of the project"),
            )
        })?;
        return Ok(launch::decide(purpose, &file, &text).into());
    }
    for candidate in launch::candidates() {
        if let Some(text) = text(state, caller, project, candidate).await? {
            return Ok(launch::decide(purpose, candidate, &text).into());
        }
    }
    Ok(launch::nothing_to_run().into())
}

/// The commit at the head of the project's branch, which a publication pins (`None`: an empty
/// repository).
pub async fn head(state: &AppState, caller: &UserRow, project: &Project) -> Result<Option<String>> {
    let repo = repo(state, caller, project).await?;
    Ok(state
        .git
        .head(&repo)
        .await
        .map_err(git_error)?
        .map(|sha| sha.to_string()))
}
