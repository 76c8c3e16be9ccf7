//! What a dataset looks like to its caller: owner, share icons, level, size.

use super::*;

/// A person on a dataset: the owner, or one it is shared with.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DatasetOwner {
    pub first_name: String,
    pub last_name: String,
    pub photo_path: PhotoPath,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PhotoPath {
    /// A presigned address of the photo (one hour), or null.
    #[schema(required)]
    pub original: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ShareIcon {
    pub id: String,
    pub name: String,
    /// A presigned address of the photo (one hour), or null.
    #[schema(required)]
    pub photo_path: Option<String>,
}

/// One dataset as the caller sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct DatasetView {
    pub id: String,
    pub name: String,
    pub description: String,
    /// The dataset's folder in its bucket.
    pub path: String,
    pub img_path: Option<String>,
    pub user_uid: Option<String>,
    pub user: Option<DatasetOwner>,
    /// The owner's e-mail.
    pub repo_author: Option<String>,
    #[serde(rename = "shareIcons")]
    pub share_icons: Vec<ShareIcon>,
    /// view or edit (the owner has edit).
    pub access_level: AccessLevel,
    pub is_owner: bool,
    /// A seeded sample (read-only for members).
    pub sample: bool,
    /// Applied with kubectl or GitOps: changed there, not here.
    pub managed: bool,
    pub object_count: i64,
    pub bytes: i64,
    pub deletion_policy: DeletionPolicy,
    pub status: DatasetStatus,
    pub status_message: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub(super) async fn view(
    state: &AppState,
    caller: &AuthUser,
    d: &Dataset,
    level: AccessLevel,
    people: &HashMap<String, UserRow>,
    shared: &[&str],
) -> DatasetView {
    let (a, x) = (&d.asset, &d.details);
    let owner = a.owner_uid.as_ref().and_then(|u| people.get(u));
    let user = match owner {
        Some(u) => Some(DatasetOwner {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            photo_path: PhotoPath {
                original: photo(state, u).await,
            },
        }),
        None => None,
    };
    let mut share_icons = Vec::new();
    for uid in shared {
        if let Some(u) = people.get(*uid) {
            share_icons.push(ShareIcon {
                id: u.uid.clone(),
                name: format!("{} {}", u.first_name, u.last_name).trim().to_owned(),
                photo_path: photo(state, u).await,
            });
        }
    }
    DatasetView {
        id: a.id.clone(),
        name: a.name.clone(),
        description: a.description.clone(),
        path: x.prefix.clone(),
        img_path: a.img_path.clone(),
        user_uid: a.owner_uid.clone(),
        user,
        repo_author: owner.map(|u| u.email.clone()),
        share_icons,
        access_level: level,
        is_owner: a.owner_uid.as_deref() == Some(caller.user.uid.as_str()),
        sample: x.sample.is_some(),
        managed: a.is_managed(),
        object_count: x.object_count,
        bytes: x.bytes,
        deletion_policy: x.deletion_policy,
        status: x.status,
        status_message: x.status_message.clone(),
        created_at: a.created_at,
        updated_at: a.updated_at,
    }
}

/// The views of some datasets (owners and share icons loaded together).
pub(super) async fn views(
    state: &AppState,
    caller: &AuthUser,
    items: &[(Dataset, AccessLevel)],
) -> Result<Vec<DatasetView>> {
    let ids: Vec<String> = items.iter().map(|(d, _)| d.asset.id.clone()).collect();
    let shared = datasets::shared_people(&state.db, &ids, SHARE_ICONS).await?;
    let mut uids: Vec<String> = items
        .iter()
        .filter_map(|(d, _)| d.asset.owner_uid.clone())
        .collect();
    uids.extend(shared.iter().map(|(_, u)| u.clone()));
    let people: HashMap<String, UserRow> = users::by_uids(&state.db, &uids)
        .await?
        .into_iter()
        .map(|u| (u.uid.clone(), u))
        .collect();
    let mut out = Vec::with_capacity(items.len());
    for (d, level) in items {
        let mine: Vec<&str> = shared
            .iter()
            .filter(|(a, _)| *a == d.asset.id)
            .map(|(_, u)| u.as_str())
            .collect();
        out.push(view(state, caller, d, *level, &people, &mine).await);
    }
    Ok(out)
}

pub(super) async fn one_view(
    state: &AppState,
    caller: &AuthUser,
    d: Dataset,
    level: AccessLevel,
) -> Result<DatasetView> {
    views(state, caller, &[(d, level)])
        .await?
        .pop()
        .ok_or_else(|| ApiError::internal("a dataset view went missing"))
}

// ---------------------------------------------------------------------------------------------
// The list, one dataset, create, update, delete
