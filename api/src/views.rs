//! The JSON shapes of users and organizations the API returns. Secrets never appear: the git
//! token, TOTP secret and password hash are not fields here.

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    crypto::Keyring,
    db::{organizations::OrganizationRow, users::UserRow},
};

#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    pub uid: String,
    /// Same as `uid`.
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// developer, management, administrator or superadmin.
    pub role: String,
    /// active or inactive.
    pub status: String,
    /// Organization id.
    pub organization: String,
    pub cluster_id: Option<String>,
    pub timezone: String,
    pub date_format: String,
    /// Object key of the profile photo in the assets bucket.
    pub photo_path: Option<String>,
    /// Where the browser loads the profile photo: a presigned GET address, valid one hour
    /// (absent without a photo or object storage).
    pub photo_url: Option<String>,
    pub git_username: Option<String>,
    /// Whether a source-control token is saved (the token itself is never returned).
    pub has_git_token: bool,
    pub enabled_2fa: bool,
    pub confirmed_2fa: bool,
    /// Whether the user's organization requires 2FA.
    pub is_2fa_required: bool,
    /// The user's API key; only shown to the user themself.
    pub api_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl UserView {
    /// `show_key`: the caller is this user (the API key is shown to its owner only).
    pub fn new(u: &UserRow, org_requires_2fa: bool, keyring: &Keyring, show_key: bool) -> Self {
        let api_key = if show_key {
            u.api_key_enc.as_deref().and_then(|v| match keyring.decrypt(v) {
                Ok(k) => Some(k),
                Err(e) => {
                    tracing::error!(user = %u.uid, error = %e, "failed to decrypt an API key");
                    None
                }
            })
        } else {
            None
        };
        Self {
            uid: u.uid.clone(),
            id: u.uid.clone(),
            email: u.email.clone(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: u.role.clone(),
            status: u.status.clone(),
            organization: u.organization_id.clone(),
            cluster_id: u.cluster_id.clone(),
            timezone: u.timezone.clone(),
            date_format: u.date_format.clone(),
            photo_path: u.photo_path.clone(),
            photo_url: None,
            git_username: u.git_username.clone(),
            has_git_token: u.git_token_enc.is_some(),
            enabled_2fa: u.has_2fa(),
            confirmed_2fa: u.confirmed_2fa,
            is_2fa_required: org_requires_2fa,
            api_key,
            created_at: u.created_at,
            updated_at: u.updated_at,
        }
    }
}

impl UserView {
    /// Fills `photo_url` with a presigned GET of the photo (one hour), when there is one.
    pub async fn with_photo_url(mut self, state: &crate::app::AppState) -> Self {
        let (Some(s3), Some(key)) = (state.s3.as_ref(), self.photo_path.as_deref()) else {
            return self;
        };
        let Ok(config) =
            aws_sdk_s3::presigning::PresigningConfig::expires_in(std::time::Duration::from_secs(3600))
        else {
            return self;
        };
        match s3
            .get_object()
            .bucket(&state.settings.s3_bucket)
            .key(key)
            .presigned(config)
            .await
        {
            Ok(p) => self.photo_url = Some(p.uri().to_owned()),
            Err(e) => tracing::warn!(user = %self.uid, error = %e, "failed to presign a profile photo"),
        }
        self
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrganizationView {
    pub id: String,
    pub name: String,
    /// The organization's namespace is `ludis-<slug>`.
    pub slug: String,
    pub namespace: String,
    pub admin_email: String,
    pub description: String,
    /// paid or free.
    pub tier: String,
    pub max_seats: i64,
    pub bucket_id: Option<String>,
    pub is_2fa_required: bool,
    pub created_at: i64,
    /// Users with status active.
    pub active_users: i64,
    pub flightings: Vec<crate::policy::flags::Flag>,
}

impl OrganizationView {
    pub fn new(o: &OrganizationRow, active_users: i64, flightings: Vec<crate::policy::flags::Flag>) -> Self {
        Self {
            id: o.id.clone(),
            name: o.name.clone(),
            slug: o.slug.clone(),
            namespace: ludis_crds::organization_namespace(&o.slug),
            admin_email: o.admin_email.clone(),
            description: o.description.clone(),
            tier: o.tier.clone(),
            max_seats: o.max_seats,
            bucket_id: o.bucket_id.clone(),
            is_2fa_required: o.is_2fa_required,
            created_at: o.created_at,
            active_users,
            flightings,
        }
    }
}

/// `{"success": true, "message": …}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Done {
    pub success: bool,
    pub message: String,
}

impl Done {
    pub fn new(message: impl Into<String>) -> axum::Json<Self> {
        axum::Json(Self {
            success: true,
            message: message.into(),
        })
    }
}

/// A standard e-mail shape: one `@`, a non-empty local part, a dotted domain, no spaces.
pub fn valid_email(s: &str) -> bool {
    let s = s.trim();
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.contains('@')
        && !s
            .chars()
            .any(|c| c.is_whitespace() || c == ',' || c == ';' || c == '<' || c == '>')
        && domain.split('.').count() >= 2
        && domain.split('.').all(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::valid_email;

    #[test]
    fn email_shapes() {
        for (s, ok) in [
            ("ann@example.com", true),
            ("a.b+c@sub.example.org", true),
            ("ann@example", false),
            ("ann@@example.com", false),
            ("@example.com", false),
            ("ann example@x.com", false),
            ("ann@.com", false),
            ("", false),
        ] {
            assert_eq!(valid_email(s), ok, "{s}");
        }
    }
}
