//! Projects v2 (spec 001 §2 "Project v2 detail", §7 "Projects v2"; issue 14;
//! docs/contracts/projects-v2.md): git-backed code workspaces. [`crud`]: the list (all, created by
//! me, shared with me), one project and its preview, create (a repository hosted by Ludis, or
//! "import project" from an external remote with the user's git token), update, delete, share;
//! [`files`]: a folder or file at the branch head, commit and delete a file; [`git_http`]: the
//! hosted repositories over smart HTTP for git clients; [`envvars`]: environment variables;
//! [`clusters`]: the image list and the cluster; [`run`]: run and stop the preview, and the
//! insights published from a project; the preview's log and terminal websockets are [`super::streams`].
//!
//! Every call that takes a project goes through the asset layer ([`assets::load`]): no access is
//! 404 `project_not_found`, too little is 403 'You need … access to this project'.

use axum::extract::DefaultBodyLimit;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{
    assets,
    auth::AuthUser,
    db::projects::{Project, ProjectRow},
    domain::AccessLevel,
    error::Result,
    state::AppState,
};

mod clusters;
mod crud;
mod envvars;
mod files;
pub mod git_http;
pub(crate) mod run;
pub mod view;

pub(crate) use crud::{
    create_rows, git_language, language, listed_projects, parse_filter, remove, visible_datasets,
};
pub(crate) use envvars::sync_secret;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(crud::list_projects, crud::create_project))
        .routes(routes!(
            crud::project_details,
            crud::update_project,
            crud::delete_project
        ))
        .routes(routes!(crud::check_project))
        .routes(routes!(crud::share_project))
        .routes(routes!(files::repo_contents))
        .routes(routes!(files::delete_file))
        .routes(routes!(envvars::list_env_vars, envvars::create_env_var))
        .routes(routes!(envvars::update_env_var, envvars::delete_env_var))
        .routes(routes!(run::run_project))
        .routes(routes!(run::stop_project))
        .routes(routes!(run::project_apps))
        .routes(routes!(run::project_launch))
        .routes(routes!(clusters::docker_images))
        .routes(routes!(clusters::sizes))
        .routes(routes!(clusters::clusters))
        .routes(routes!(clusters::cluster))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(files::commit_file))
                .layer(DefaultBodyLimit::max(files::COMMIT_BODY_LIMIT)),
        )
}

/// Messages (spec 001 §5, §8, and the contract).
pub const INVALID_NAME: &str =
    "Project name can only contain letters, numbers, underscores, hyphens, and periods";
pub const EMPTY_NAME: &str = "Empty project name not allowed.";
pub const MANAGED: &str =
    "This project is managed by its resource (kubectl or GitOps); change or delete it there";

/// Loads a project the caller has at least `need` on.
pub(crate) async fn load(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(Project, AccessLevel)> {
    assets::load::<ProjectRow>(state, &caller.user, id.trim(), need).await
}

#[cfg(test)]
mod tests {
    use super::{
        envvars::EnvVar,
        files::{FileContent, RepoContentItem, RepoContents, RepoContentsAnswer},
        view::{PreviewState, ProjectView},
    };
    use crate::{
        domain::{AccessLevel, Language, ProjectStatus, RepoEntryType},
        openapi::assert_sent_as_documented,
        routes::datasets::{PhotoPath, ShareIcon},
    };

    /// The console types these answers from the document: what they always send (null when
    /// empty) is required there, what they leave out is not.
    #[test]
    fn the_answers_send_what_the_document_requires() {
        assert_sent_as_documented(&ProjectView {
            id: "p".into(),
            name: "p".into(),
            description: String::new(),
            language: Language::Python,
            author: String::new(),
            repo_author: None,
            repo_url: None,
            hosted: true,
            branch: "main".into(),
            image_id: "python".into(),
            size_id: None,
            img_path: None,
            img_url: None,
            dataset_ids: Vec::new(),
            status: ProjectStatus::Stopped,
            status_message: None,
            access_level: AccessLevel::View,
            is_owner: false,
            managed: false,
            user_uid: None,
            user: None,
            share_icons: Vec::new(),
            created_at: 0,
            updated_at: 0,
        });
        assert_sent_as_documented(&PreviewState {
            running: false,
            status: ProjectStatus::Stopped,
            message: None,
            file: None,
            container_id: None,
            web_url: None,
            port: None,
            idle: None,
        });
        assert_sent_as_documented(&EnvVar {
            id: "e".into(),
            key: "K".into(),
            value: None,
            project_uid: "p".into(),
        });
        assert_sent_as_documented(&RepoContentItem {
            name: "a".into(),
            path: "a".into(),
            kind: RepoEntryType::Dir,
            sha: "0".into(),
            size: 0,
            download_url: None,
        });
        assert_sent_as_documented(&FileContent {
            name: "a".into(),
            path: "a".into(),
            kind: "file",
            sha: "0".into(),
            size: 0,
            encoding: "base64",
            content: String::new(),
        });
        assert_sent_as_documented(&RepoContentsAnswer {
            success: true,
            contents: RepoContents::Folder(Vec::new()),
            total: None,
        });
        assert_sent_as_documented(&PhotoPath { original: None });
        assert_sent_as_documented(&ShareIcon {
            id: "u".into(),
            name: "U".into(),
            photo_path: None,
        });
    }
}
