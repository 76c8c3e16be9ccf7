//! The addresses outside an organization that its workflows may e-mail, set by its administrators
//! (or a superadmin): its members are always allowed ([`crate::mail_recipients`]).

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::organizations::{admin_only, visible};
use crate::{
    auth::AuthUser,
    db::organizations,
    error::{ApiError, AppJson, AppPath, ErrorBody, Result},
    mail_recipients,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_mail_recipients, set_mail_recipients))
}

/// At most this many allowed addresses per organization.
const ALLOWED_MAX: usize = 100;

#[derive(Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct MailRecipients {
    /// Addresses outside the organization its workflows may e-mail (lower-case, sorted).
    pub addresses: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct MailRecipientsAnswer {
    pub success: bool,
    pub addresses: Vec<String>,
}

/// The addresses outside the organization its workflows may e-mail (its administrators).
#[utoipa::path(get, path = "/v1/organizations/{id}/mailrecipients", tag = "organizations", params(("id" = String, Path)),
    responses((status = 200, body = MailRecipientsAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get_mail_recipients(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
) -> Result<Json<MailRecipientsAnswer>> {
    let org = visible(&state, &caller, &id).await?;
    admin_only(&caller)?;
    Ok(Json(MailRecipientsAnswer {
        success: true,
        addresses: organizations::mail_allowlist(&state.db, &org.id).await?,
    }))
}

/// Replaces the addresses outside the organization its workflows may e-mail (its
/// administrators): 'Please enter valid email' names one that is not an address.
#[utoipa::path(put, path = "/v1/organizations/{id}/mailrecipients", tag = "organizations", params(("id" = String, Path)),
    request_body = MailRecipients,
    responses((status = 200, description = "Notification addresses saved", body = MailRecipientsAnswer), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn set_mail_recipients(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(id): AppPath<String>,
    AppJson(req): AppJson<MailRecipients>,
) -> Result<Json<MailRecipientsAnswer>> {
    let org = visible(&state, &caller, &id).await?;
    admin_only(&caller)?;
    let addresses = mail_recipients::allowed_list(&req.addresses)
        .map_err(|bad| ApiError::bad_request("invalid_email", format!("Please enter valid email ({bad})")))?;
    if addresses.len() > ALLOWED_MAX {
        return Err(ApiError::bad_request(
            "too_many_emails",
            format!("At most {ALLOWED_MAX} addresses"),
        ));
    }
    organizations::set_mail_allowlist(&state.db, &org.id, &addresses).await?;
    Ok(Json(MailRecipientsAnswer {
        success: true,
        addresses,
    }))
}
