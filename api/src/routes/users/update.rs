//! Updating a user (profile, role, status, organization, password) and deleting one.

use super::*;

#[derive(Deserialize, ToSchema)]
pub struct UpdateUserRequest {
    pub user: UserChanges,
}

/// Fields a user update may carry. Fields a caller may not change are refused when their value
/// differs from the stored one; 2FA, API key and other fields are not accepted here at all.
#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct UserChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub timezone: Option<String>,
    pub date_format: Option<String>,
    /// An object key returned by `GET /v1/users/presign_url`.
    pub photo_path: Option<String>,
    pub git_username: Option<String>,
    pub git_token: Option<String>,
    /// Administrators only.
    pub email: Option<String>,
    /// Administrators only (superadmin only for `superadmin`).
    #[schema(value_type = Option<Role>)]
    pub role: Option<String>,
    /// active or inactive; administrators only.
    #[schema(value_type = Option<UserStatus>)]
    pub status: Option<String>,
    /// Superadmins only.
    pub organization: Option<String>,
    pub cluster_id: Option<String>,
    /// A blank password is ignored; otherwise see the password rule.
    pub password: Option<String>,
}

pub(super) fn changed<'a>(new: &'a Option<String>, old: &str) -> Option<&'a str> {
    new.as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty() && *n != old)
}

/// Both source-control fields or neither; returns the pair to store.
pub(super) fn git_pair(username: Option<&str>, token: Option<&str>) -> Result<Option<(String, String)>> {
    let username = username.map(str::trim).unwrap_or_default();
    let token = token.map(str::trim).unwrap_or_default();
    match (username.is_empty(), token.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Ok(Some((username.to_owned(), token.to_owned()))),
        _ => Err(ApiError::bad_request("git_details_incomplete", GIT_BOTH)),
    }
}

/// Update a user: one's own profile (names, time zone, date format, photo, source control), or,
/// for administrators, their organization's users (also e-mail, role, status, password).
#[utoipa::path(put, path = "/v1/users/{id}", tag = "users", params(("id" = String, Path)), request_body = UpdateUserRequest,
    responses(
        (status = 200, description = "User Updated successfully! / Profile updated successfully!", body = UserResponse),
        (status = 400, body = ErrorBody),
        (status = 403, description = "A change the caller may not make", body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
        (status = 409, description = "A user with this email already exists", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn update_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<UpdateUserRequest>,
) -> Result<Json<UserResponse>> {
    let c = req.user;
    let target = visible_user(&state, &caller, &id).await?;
    let new_password = c.password.as_deref().filter(|p| !p.is_empty());
    let email = changed(&c.email, &target.email).map(str::to_lowercase);
    let changes = Changes {
        role: changed(&c.role, target.role.as_str()),
        organization_id: changed(&c.organization, &target.organization_id),
        status: changed(&c.status, target.status.as_str()),
        email: email.is_some(),
        password: new_password.is_some(),
    };
    policy::users::check_update(caller.person(), person(&target), changes)?;

    for (value, message, code) in [
        (&c.first_name, "First name is required", "first_name_required"),
        (&c.last_name, "Last name is required", "last_name_required"),
        (&c.timezone, "Timezone is required", "timezone_required"),
    ] {
        if let Some(v) = value {
            required(v, message, code)?;
        }
    }
    if let Some(e) = &email
        && !valid_email(e)
    {
        return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
    }
    if let Some(f) = c.date_format.as_deref().filter(|f| !f.is_empty()) {
        check_date_format(f)?;
    }
    if let Some(p) = new_password
        && p.chars().count() < MIN_PASSWORD
    {
        return Err(ApiError::bad_request("password_too_short", PASSWORD_TOO_SHORT));
    }
    let photo = c.photo_path.as_deref().map(str::trim).filter(|p| !p.is_empty());
    if let Some(p) = photo
        && (!p.starts_with(&format!("{PHOTO_PREFIX}/{}/", target.uid)) || p.contains(".."))
    {
        return Err(ApiError::bad_request("invalid_photo_path", "Invalid photo path"));
    }
    let git = if c.git_username.is_some() || c.git_token.is_some() {
        if caller.user.uid != target.uid {
            return Err(ApiError::forbidden(
                "git_details_self_only",
                "Only the user can change their source-control details",
            ));
        }
        Some(git_pair(c.git_username.as_deref(), c.git_token.as_deref())?)
    } else {
        None
    };
    let mut destination = None;
    if let Some(org_id) = changes.organization_id {
        let org = organizations::by_id(&state.db, org_id)
            .await?
            .ok_or_else(org_not_found)?;
        if target.is_active() {
            check_seat(&state, &org).await?;
        }
        destination = Some(org.id);
    }
    if changes.status == Some(UserStatus::Active.as_str()) {
        let org = organizations::by_id(&state.db, &target.organization_id)
            .await?
            .ok_or_else(org_not_found)?;
        check_seat(&state, &org).await?;
    }
    let password_hash = match new_password {
        Some(p) => Some(password::hash(p.to_owned(), state.auth.hash).await?),
        None => None,
    };

    let now = db::now();
    let pick = |new: &Option<String>, old: &str| {
        new.as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .unwrap_or(old)
            .to_owned()
    };
    let (git_username, git_token_enc) = match git {
        Some(Some((u, t))) => (Some(u), Some(state.auth.keyring.encrypt(&t))),
        Some(None) => (None, None),
        None => (target.git_username.clone(), target.git_token_enc.clone()),
    };
    let profile = users::Profile {
        first_name: pick(&c.first_name, &target.first_name),
        last_name: pick(&c.last_name, &target.last_name),
        timezone: pick(&c.timezone, &target.timezone),
        date_format: pick(&c.date_format, &target.date_format),
        photo_path: photo.map(str::to_owned).or(target.photo_path.clone()),
        git_username,
        git_token_enc,
        email: email.unwrap_or(target.email.clone()),
        role: changes.role.unwrap_or(target.role.as_str()),
        status: changes.status.unwrap_or(target.status.as_str()),
        organization_id: destination.unwrap_or(target.organization_id.clone()),
        cluster_id: c
            .cluster_id
            .as_deref()
            .map(|v| v.trim().to_owned())
            .or(target.cluster_id.clone())
            .filter(|v| !v.is_empty()),
        password_hash: password_hash.unwrap_or(target.password_hash.clone()),
    };
    users::update_profile(&state.db, &target.uid, profile, now)
        .await
        .on_unique("users_email_key", || {
            ApiError::conflict("email_taken", "A user with this email already exists")
        })?;
    if changes.password
        || changes.organization_id.is_some()
        || changes.status == Some(UserStatus::Inactive.as_str())
    {
        crate::auth::revoke_credentials(&state, &target.uid, None, "changed by an administrator").await?;
    }
    let updated = users::by_uid(&state.db, &target.uid)
        .await?
        .ok_or_else(user_not_found)?;
    Activity::on_user(&caller.user, &updated, ActivityAction::Updated)
        .record(&state.db)
        .await;
    let required = org_2fa(&state, &updated.organization_id).await?;
    let message = if caller.user.uid == target.uid {
        "Profile updated successfully!"
    } else {
        "User Updated successfully!"
    };
    Ok(Json(UserResponse {
        success: true,
        message: message.into(),
        user: view(&state, &caller, &updated, required).await,
    }))
}

/// Delete a user (administrators in their organization; superadmins anywhere; not oneself).
#[utoipa::path(delete, path = "/v1/users/{id}", tag = "users", params(("id" = String, Path)),
    responses(
        (status = 200, description = "User Deleted", body = Done),
        (status = 403, body = ErrorBody),
        (status = 404, description = "User not found", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn delete_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<Done>> {
    let target = visible_user(&state, &caller, &id).await?;
    policy::users::check_delete(caller.person(), person(&target))?;
    users::delete(&state.db, &target.uid).await?;
    Activity::on_user(&caller.user, &target, ActivityAction::Deleted)
        .record(&state.db)
        .await;
    Ok(Done::new("User Deleted"))
}
