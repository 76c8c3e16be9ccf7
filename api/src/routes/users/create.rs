//! Creating a user: every field checked, the seat limit, the role rules.

use super::*;

#[derive(Deserialize, ToSchema)]
pub struct CreateUserRequest {
    pub user: NewUserFields,
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct NewUserFields {
    pub email: String,
    pub password: String,
    pub first_name: String,
    pub last_name: String,
    #[schema(value_type = Role)]
    pub role: String,
    pub timezone: String,
    /// Organization id; defaults to the caller's (only a superadmin may name another).
    pub organization: Option<String>,
    pub cluster_id: Option<String>,
    pub date_format: Option<String>,
}

pub(super) fn required(value: &str, message: &'static str, code: &'static str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(ApiError::bad_request(code, message));
    }
    Ok(())
}

pub(super) fn check_date_format(f: &str) -> Result<()> {
    if !DATE_FORMATS.contains(&f) {
        return Err(ApiError::bad_request(
            "invalid_date_format",
            format!("Date format must be one of {}", DATE_FORMATS.join(", ")),
        ));
    }
    Ok(())
}

/// Seat check for one more active user in an organization.
pub(super) async fn check_seat(state: &AppState, org: &organizations::OrganizationRow) -> Result<()> {
    let active = users::count_active(&state.db, &org.id).await?;
    if !policy::users::seat_available(org.max_seats, active) {
        return Err(ApiError::forbidden(
            "seat_limit_reached",
            format!(
                "Limit Reached: {} has {active} active users and {} seats. Remove a user or ask for more seats.",
                org.name, org.max_seats
            ),
        )
        .with("limitExceded", serde_json::Value::Bool(true)));
    }
    Ok(())
}

/// Add a user (administrators to their own organization; superadmins anywhere). Refused with
/// `limitExceded: true` when the organization has no free seat.
#[utoipa::path(post, path = "/v1/users", tag = "users", request_body = CreateUserRequest,
    responses(
        (status = 201, description = "User created successfully!", body = UserResponse),
        (status = 400, description = "A required field is missing or invalid", body = ErrorBody),
        (status = 403, description = "Not allowed, or Limit Reached (`limitExceded: true`)", body = ErrorBody),
        (status = 404, description = "Organization not found", body = ErrorBody),
        (status = 409, description = "A user with this email already exists", body = ErrorBody),
    ),
    security(("bearer" = [])))]
pub(super) async fn create_user(
    State(state): State<AppState>,
    caller: AuthUser,
    AppJson(req): AppJson<CreateUserRequest>,
) -> Result<(StatusCode, Json<UserResponse>)> {
    let u = req.user;
    required(&u.first_name, "First name is required", "first_name_required")?;
    required(&u.last_name, "Last name is required", "last_name_required")?;
    required(&u.email, "Email is required", "email_required")?;
    if !valid_email(&u.email) {
        return Err(ApiError::bad_request("invalid_email", "Email is invalid!"));
    }
    required(&u.role, "Role is required", "role_required")?;
    required(&u.timezone, "Timezone is required", "timezone_required")?;
    if u.password.is_empty() {
        return Err(ApiError::bad_request("password_required", "Password is required"));
    }
    if u.password.chars().count() < MIN_PASSWORD {
        return Err(ApiError::bad_request("password_too_short", PASSWORD_TOO_SHORT));
    }
    let date_format = u
        .date_format
        .clone()
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "MM/DD/YY".into());
    check_date_format(&date_format)?;
    let org_id = u
        .organization
        .clone()
        .filter(|o| !o.is_empty())
        .unwrap_or_else(|| caller.user.organization_id.clone());
    let role = policy::users::check_create(caller.person(), u.role.trim(), &org_id)?;
    let org = organizations::by_id(&state.db, &org_id)
        .await?
        .ok_or_else(org_not_found)?;
    check_seat(&state, &org).await?;
    let hash = password::hash(u.password.clone(), state.auth.hash).await?;
    let uid = db::new_id();
    users::insert(
        &state.db,
        &users::NewUser {
            uid: &uid,
            email: u.email.trim(),
            password_hash: &hash,
            first_name: u.first_name.trim(),
            last_name: u.last_name.trim(),
            role,
            organization_id: &org.id,
            cluster_id: u.cluster_id.as_deref().filter(|c| !c.is_empty()),
            timezone: u.timezone.trim(),
            date_format: &date_format,
        },
        db::now(),
    )
    .await
    .on_unique("users_email_key", || {
        ApiError::conflict("email_taken", "A user with this email already exists")
    })?;
    let created = users::by_uid(&state.db, &uid).await?.ok_or_else(user_not_found)?;
    Activity::on_user(&caller.user, &created, ActivityAction::Created)
        .record(&state.db)
        .await;
    Ok((
        StatusCode::CREATED,
        Json(UserResponse {
            success: true,
            message: "User created successfully!".into(),
            user: view(&state, &caller, &created, org.is_2fa_required).await,
        }),
    ))
}
