//! A project's environment variables (spec 001 §3 "Environment variable", §7
//! `/v2/projects/envvar…`): listed with view access, values only for edit; added, changed and
//! removed with edit access. Values are encrypted at rest; the project's `<name>-env` Secret
//! carries them all to the preview container, which reads them at its next start. A legacy
//! (notebook) project has none ([`NOTEBOOK_VARIABLES`]).

use std::collections::BTreeMap;

use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::load;
use crate::{
    auth::AuthUser,
    cluster,
    db::{
        self,
        projects::{self as rows, EnvVarRow, Project},
    },
    domain::AccessLevel,
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    state::AppState,
    views::Done,
};

/// The spec's message for a bad key or value.
pub const INVALID: &str = "Please add valid inputs";
/// A legacy project's notebook server runs the cells of everyone who opens it, executors
/// included, whom the API never shows a value: it holds no variables.
pub const NOTEBOOK_VARIABLES: &str =
    "Notebook projects keep no environment variables: everyone who opens a notebook runs code beside them";
const KEY_MAX: usize = 256;
const VALUE_MAX: usize = 32 * 1024;

/// Pure: a key is `[A-Za-z_][A-Za-z0-9_]*`, at most 256 bytes.
pub fn valid_key(key: &str) -> bool {
    let mut chars = key.chars();
    key.len() <= KEY_MAX
        && chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn invalid() -> ApiError {
    ApiError::bad_request("invalid_env_var", INVALID)
}

fn checked_value(value: &str) -> Result<&str> {
    if value.len() > VALUE_MAX || value.contains('\0') {
        return Err(invalid());
    }
    Ok(value)
}

/// One variable; `value` is null unless the caller has edit access.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvVar {
    pub id: String,
    pub key: String,
    #[schema(required)]
    pub value: Option<String>,
    pub project_uid: String,
}

fn view(state: &AppState, v: &EnvVarRow, level: AccessLevel) -> Result<EnvVar> {
    let value =
        if level >= AccessLevel::Edit {
            Some(state.auth.keyring.decrypt(&v.value_enc).map_err(|e| {
                ApiError::internal(format!("failed to decrypt an environment variable: {e:#}"))
            })?)
        } else {
            None
        };
    Ok(EnvVar {
        id: v.id.clone(),
        key: v.key.clone(),
        value,
        project_uid: v.project_id.clone(),
    })
}

/// Writes every variable of the project into its `<name>-env` Secret (with a cluster).
pub async fn sync_secret(state: &AppState, p: &Project) -> Result<()> {
    let Some(resource) = p.asset.resource_name.as_deref() else {
        return Ok(());
    };
    let mut data = BTreeMap::new();
    // A notebook server holds none (see [`NOTEBOOK_VARIABLES`]), even of a project from before.
    let variables = if p.details.is_notebook() {
        Vec::new()
    } else {
        rows::env_vars(&state.db, &p.asset.id).await?
    };
    for v in variables {
        let value =
            state.auth.keyring.decrypt(&v.value_enc).map_err(|e| {
                ApiError::internal(format!("failed to decrypt an environment variable: {e:#}"))
            })?;
        data.insert(v.key, value);
    }
    // A notebook server asks every request for its token (the app proxy sends it).
    if p.details.is_notebook()
        && let Some(token) = crate::projects::jupyter::token(state, &p.asset.id).await?
    {
        data.insert(crate::projects::jupyter::TOKEN_VARIABLE.to_owned(), token);
    }
    cluster::projects::write_secret(state, p, &cluster::projects::env_secret_name(resource), data)
        .await
        .map_err(ApiError::cluster)
}

/// The variable `id` and its project, with the caller's level on the project (at least `need`;
/// a variable of a project the caller cannot see does not exist).
async fn load_var(
    state: &AppState,
    caller: &AuthUser,
    id: &str,
    need: AccessLevel,
) -> Result<(EnvVarRow, Project, AccessLevel)> {
    let not_found = || ApiError::not_found("env_var_not_found", "Environment variable not found");
    let var = rows::env_var_by_id(&state.db, id.trim())
        .await?
        .ok_or_else(not_found)?;
    let (project, level) = match load(state, caller, &var.project_id, need).await {
        Err(e) if e.status() == StatusCode::NOT_FOUND => return Err(not_found()),
        other => other?,
    };
    Ok((var, project, level))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EnvVarsQuery {
    /// The project id.
    #[serde(alias = "project_uid")]
    pub id: String,
}

#[derive(Serialize, ToSchema)]
pub struct EnvVarsAnswer {
    pub success: bool,
    #[serde(rename = "envVariables")]
    pub env_variables: Vec<EnvVar>,
}

/// A project's variables (view access; values only for edit).
#[utoipa::path(get, path = "/v2/projects/envvar", tag = "projects", params(EnvVarsQuery),
    responses((status = 200, body = EnvVarsAnswer), (status = 404, description = "Project not found", body = ErrorBody)),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn list_env_vars(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<EnvVarsQuery>,
) -> Result<Json<EnvVarsAnswer>> {
    let (project, level) = load(&state, &caller, &q.id, AccessLevel::View).await?;
    let vars = rows::env_vars(&state.db, &project.asset.id).await?;
    Ok(Json(EnvVarsAnswer {
        success: true,
        env_variables: vars
            .iter()
            .map(|v| view(&state, v, level))
            .collect::<Result<_>>()?,
    }))
}

/// A new variable: `project_uid` and `key` are refused when absent or empty; an absent `value`
/// is empty.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewEnvVar {
    /// The project id.
    #[schema(required)]
    pub project_uid: String,
    #[schema(required)]
    pub key: String,
    pub value: String,
}

#[derive(Serialize, ToSchema)]
pub struct EnvVarAnswer {
    pub success: bool,
    #[serde(rename = "envVariable")]
    pub env_variable: EnvVar,
}

/// Add a variable (edit access); it reaches the container at its next start.
#[utoipa::path(post, path = "/v2/projects/envvar", tag = "projects", request_body = NewEnvVar,
    responses(
        (status = 201, body = EnvVarAnswer),
        (status = 400, description = "Please add valid inputs", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Project not found", body = ErrorBody),
        (status = 409, description = "The key exists, or the project is a notebook project", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn create_env_var(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<NewEnvVar>,
) -> Result<(StatusCode, Json<EnvVarAnswer>)> {
    let (project, level) = load(&state, &caller, &req.project_uid, AccessLevel::Edit).await?;
    if project.details.is_notebook() {
        return Err(ApiError::conflict("notebook_env_vars", NOTEBOOK_VARIABLES));
    }
    let key = req.key.trim();
    if !valid_key(key) {
        return Err(invalid());
    }
    let now = db::now();
    let var = EnvVarRow {
        id: db::new_id(),
        project_id: project.asset.id.clone(),
        key: key.to_owned(),
        value_enc: state.auth.keyring.encrypt(checked_value(&req.value)?),
        created_at: now,
        updated_at: now,
    };
    if !rows::insert_env_var(&state.db, &var).await? {
        return Err(ApiError::conflict(
            "env_var_exists",
            format!("A variable named {key} exists already"),
        ));
    }
    sync_secret(&state, &project).await?;
    Ok((
        StatusCode::CREATED,
        Json(EnvVarAnswer {
            success: true,
            env_variable: view(&state, &var, level)?,
        }),
    ))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct EnvVarValue {
    pub value: String,
}

/// Change a variable's value (edit access on its project).
#[utoipa::path(put, path = "/v2/projects/envvar/{id}", tag = "projects", request_body = EnvVarValue,
    params(("id" = String, Path, description = "Environment variable id")),
    responses(
        (status = 200, body = EnvVarAnswer),
        (status = 400, description = "Please add valid inputs", body = ErrorBody),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Environment variable not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn update_env_var(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<EnvVarValue>,
) -> Result<Json<EnvVarAnswer>> {
    let (mut var, project, level) = load_var(&state, &caller, &id, AccessLevel::Edit).await?;
    var.value_enc = state.auth.keyring.encrypt(checked_value(&req.value)?);
    var.updated_at = db::now();
    rows::update_env_var(&state.db, &var.id, &var.value_enc, var.updated_at).await?;
    sync_secret(&state, &project).await?;
    Ok(Json(EnvVarAnswer {
        success: true,
        env_variable: view(&state, &var, level)?,
    }))
}

/// Remove a variable (edit access on its project).
#[utoipa::path(delete, path = "/v2/projects/envvar/{id}", tag = "projects",
    params(("id" = String, Path, description = "Environment variable id")),
    responses(
        (status = 200, description = "Environment variable deleted", body = Done),
        (status = 403, description = "You need edit access to this project", body = ErrorBody),
        (status = 404, description = "Environment variable not found", body = ErrorBody),
    ),
    security(("bearer" = []), ("api_key" = [])))]
pub(super) async fn delete_env_var(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let (var, project, _) = load_var(&state, &caller, &id, AccessLevel::Edit).await?;
    rows::delete_env_var(&state.db, &var.id).await?;
    sync_secret(&state, &project).await?;
    Ok(Done::new("Environment variable deleted"))
}

#[cfg(test)]
mod tests {
    use super::valid_key;

    #[test]
    fn keys_are_shell_names() {
        for ok in ["A", "_x", "DATABASE_URL", "a1_b2"] {
            assert!(valid_key(ok), "{ok}");
        }
        for bad in ["", "1A", "A-B", "A B", "É", "A=B", &"x".repeat(257)] {
            assert!(!valid_key(bad), "{bad}");
        }
    }
}
