//! The JSON shapes of users, organizations, insights and comments the API returns. Secrets never
//! appear: the git token, TOTP secret and password hash are not fields here.

use std::time::Duration;

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    crypto::Keyring,
    db::{self, insights::Insight, organizations::OrganizationRow, users::UserRow},
    domain::{AccessLevel, AppType, InsightStatus, Language, Role, Template, UserStatus},
    state::AppState,
};

#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    pub uid: String,
    /// Same as `uid`.
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub status: UserStatus,
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
    /// The user's API key; only shown to the user themself, in a fully authenticated session.
    pub api_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl UserView {
    /// A user as anyone who may see them sees them: no API key.
    pub fn new(u: &UserRow, org_requires_2fa: bool) -> Self {
        Self {
            uid: u.uid.clone(),
            id: u.uid.clone(),
            email: u.email.clone(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: u.role,
            status: u.status,
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
            api_key: None,
            created_at: u.created_at,
            updated_at: u.updated_at,
        }
    }

    /// The user as they see themself in a fully authenticated session (password, and the 2FA
    /// code where enabled): with their API key. Never for a pending-2FA answer or an API-key
    /// caller (docs/design.md "Security decisions").
    pub fn own(u: &UserRow, org_requires_2fa: bool, keyring: &Keyring) -> Self {
        let api_key = u.api_key_enc.as_deref().and_then(|v| match keyring.decrypt(v) {
            Ok(k) => Some(k),
            Err(e) => {
                tracing::error!(user = %u.uid, error = %e, "failed to decrypt an API key");
                None
            }
        });
        Self {
            api_key,
            ..Self::new(u, org_requires_2fa)
        }
    }
}

impl UserView {
    /// Fills `photo_url` with a presigned GET of the photo (one hour), when there is one.
    pub async fn with_photo_url(mut self, state: &AppState) -> Self {
        if let Some(key) = self.photo_path.as_deref() {
            self.photo_url = presign_get(state, key).await;
        }
        self
    }
}

/// How long a presigned download address is valid (docs/design.md "Security decisions").
pub const DOWNLOAD_URL_TTL: Duration = Duration::from_secs(3600);

/// A presigned GET of one object of the assets bucket, valid one hour; `None` without object
/// storage (or when presigning fails, which is logged).
pub async fn presign_get(state: &AppState, key: &str) -> Option<String> {
    let s3 = state.s3.as_ref()?;
    let config = aws_sdk_s3::presigning::PresigningConfig::expires_in(DOWNLOAD_URL_TTL).ok()?;
    match s3
        .get_object()
        .bucket(&state.settings.s3_bucket)
        .key(key)
        .presigned(config)
        .await
    {
        Ok(p) => Some(p.uri().to_owned()),
        Err(e) => {
            tracing::warn!(key, error = %e, "failed to presign a download");
            None
        }
    }
}

/// Where `<img src>` loads an image saved as `img_path`: a URL as it is (the default images are
/// `/v1/images/defaults/…`), an object key through a presigned GET.
pub async fn image_url(state: &AppState, img_path: Option<&str>) -> Option<String> {
    let path = img_path.filter(|p| !p.is_empty())?;
    if path.starts_with('/') || path.starts_with("http://") || path.starts_with("https://") {
        return Some(path.to_owned());
    }
    presign_get(state, path).await
}

/// A person as the sharing and insight views show them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OwnerName {
    pub first_name: String,
    pub last_name: String,
}

/// The organization an item belongs to, as lists name it where a caller sees several.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OrganizationName {
    pub id: String,
    /// Empty only in the moment an organization is deleted under a listing.
    pub name: String,
}

/// What every insight call returns (issue 5 contract "InsightView").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InsightView {
    pub id: String,
    pub name: String,
    pub description: String,
    pub app_type: AppType,
    pub status: InsightStatus,
    /// Why it failed or what it waits for, as the operator says ("the program ended with an
    /// error (exit code 1, restarted 3 times)", "waiting for a node: …"); null otherwise.
    #[schema(required)]
    pub status_message: Option<String>,
    /// The commit it was published at (null: an insight not published from a project's commit).
    #[schema(required)]
    pub revision: Option<String>,
    /// The hardware size of its pod (an id of `GET /v2/cluster/sizes/list`); null: the list's
    /// default for apps and reports.
    #[schema(required)]
    pub size_id: Option<String>,
    /// Pinned always on by its owner (never scaled to zero when idle, where the organization
    /// allows pins).
    pub always_on: bool,
    /// When the running app scales to zero if nobody uses it (its organization's idle time);
    /// null in lists, while it does not run, when pinned always on, and without an idle time.
    #[schema(required)]
    pub idle: Option<crate::idle::Shutdown>,
    /// What is saved: a default image URL (`/v1/images/defaults/…`) or an object key.
    pub img_path: Option<String>,
    /// What `<img src>` uses: the default image URL, or a presigned GET of the key (one hour).
    pub img_url: Option<String>,
    /// An external application's URL.
    pub app_url: Option<String>,
    /// The workload's name, for applications that run in the cluster (null otherwise).
    pub container_name: Option<String>,
    /// Hosted by Ludis (false for an external application).
    #[serde(rename = "isLudis")]
    pub is_ludis: bool,
    /// For template apps.
    pub template: Option<Template>,
    pub is_template: bool,
    pub language: Language,
    /// The view count.
    #[serde(rename = "userMetrics")]
    pub user_metrics: i64,
    /// The owner's uid (null: no known owner; the organization's administrators have it).
    pub user_uid: Option<String>,
    /// The owner's name.
    pub user: Option<OwnerName>,
    /// Pinned by the caller.
    pub pinned: bool,
    /// The caller's level: view, execute or edit.
    pub access_level: AccessLevel,
    pub is_owner: bool,
    /// Applied with kubectl or GitOps: the custom resource is the source.
    pub managed: bool,
    /// Whose insight it is (a superadmin sees every organization's).
    pub organization: OrganizationName,
    pub created_at: i64,
    pub updated_at: i64,
}

impl InsightView {
    /// `img_url` is left empty; fill it with [`InsightView::with_img_url`].
    pub fn new(
        i: &Insight,
        level: AccessLevel,
        pinned: bool,
        caller_uid: &str,
        owner: Option<&UserRow>,
        organization_name: &str,
    ) -> Self {
        let (a, d) = (&i.asset, &i.details);
        Self {
            id: a.id.clone(),
            name: a.name.clone(),
            description: a.description.clone(),
            app_type: d.app_type,
            status: d.status,
            status_message: d.status_message.clone(),
            revision: d.revision.clone(),
            size_id: d.size_id.clone(),
            always_on: d.always_on,
            idle: None,
            img_path: a.img_path.clone(),
            img_url: None,
            app_url: d.app_url.clone(),
            container_name: d.container_name.clone(),
            is_ludis: d.status != InsightStatus::External,
            template: d.template,
            is_template: d.is_template,
            language: d.language,
            user_metrics: a.views,
            user_uid: a.owner_uid.clone(),
            user: owner.map(|u| OwnerName {
                first_name: u.first_name.clone(),
                last_name: u.last_name.clone(),
            }),
            pinned,
            access_level: level,
            is_owner: a.owner_uid.as_deref() == Some(caller_uid),
            managed: a.is_managed(),
            organization: OrganizationName {
                id: a.organization_id.clone(),
                name: organization_name.to_owned(),
            },
            created_at: a.created_at,
            updated_at: a.updated_at,
        }
    }

    pub async fn with_img_url(mut self, state: &AppState) -> Self {
        self.img_url = image_url(state, self.img_path.as_deref()).await;
        self
    }
}

/// One comment of a conversation.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CommentView {
    pub id: String,
    pub content: String,
    /// The asset the comment is about.
    pub reference_id: String,
    pub author_uid: Option<String>,
    pub author_display_name: String,
    pub created_at: i64,
}

impl From<&db::comments::CommentRow> for CommentView {
    fn from(c: &db::comments::CommentRow) -> Self {
        Self {
            id: c.id.clone(),
            content: c.content.clone(),
            reference_id: c.asset_id.clone(),
            author_uid: c.author_uid.clone(),
            author_display_name: c.author_display_name.clone(),
            created_at: c.created_at,
        }
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
    /// Running previews, notebook servers and apps stop after this many minutes without use
    /// (0: never).
    pub idle_minutes: i64,
    /// Whether an app's owner may pin it always on.
    pub allow_always_on: bool,
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
            idle_minutes: o.idle_minutes,
            allow_always_on: o.allow_always_on,
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
