//! The people a list of assets shows: each asset's owner (the creator column) and the first few
//! people it is shared with (`shareIcons`), loaded together for a page of assets.

use std::collections::HashMap;

use crate::{
    db::{
        self,
        assets::AssetRow,
        users::{self, UserRow},
    },
    error::Result,
    routes::{
        datasets::{DatasetOwner, PhotoPath, ShareIcon},
        shares::photo,
    },
    state::AppState,
};

/// People shown on a listed asset's row.
const SHARE_ICONS: usize = 5;

/// The owners and share icons of a page of assets.
pub struct People {
    users: HashMap<String, UserRow>,
    /// `(asset id, uid)` of the first people each asset is shared with.
    shared: Vec<(String, String)>,
}

/// A user's name: first and last, else their e-mail.
pub fn display_name(u: &UserRow) -> String {
    let name = format!("{} {}", u.first_name, u.last_name);
    match name.trim() {
        "" => u.email.clone(),
        n => n.to_owned(),
    }
}

impl People {
    /// Loads the owners and share icons of `assets` (two queries).
    pub async fn of<'a>(state: &AppState, assets: impl IntoIterator<Item = &'a AssetRow>) -> Result<Self> {
        let assets: Vec<&AssetRow> = assets.into_iter().collect();
        let ids: Vec<String> = assets.iter().map(|a| a.id.clone()).collect();
        let shared = db::datasets::shared_people(&state.db, &ids, SHARE_ICONS).await?;
        let mut uids: Vec<String> = assets.iter().filter_map(|a| a.owner_uid.clone()).collect();
        uids.extend(shared.iter().map(|(_, u)| u.clone()));
        let users = users::by_uids(&state.db, &uids)
            .await?
            .into_iter()
            .map(|u| (u.uid.clone(), u))
            .collect();
        Ok(Self { users, shared })
    }

    /// The asset's owner, when they still exist.
    pub fn owner_of(&self, a: &AssetRow) -> Option<&UserRow> {
        a.owner_uid.as_ref().and_then(|u| self.users.get(u))
    }

    /// The creator column: the owner's name and photo.
    pub async fn owner(&self, state: &AppState, a: &AssetRow) -> Option<DatasetOwner> {
        let u = self.owner_of(a)?;
        Some(DatasetOwner {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            photo_path: PhotoPath {
                original: photo(state, u).await,
            },
        })
    }

    /// The first people the asset is shared with.
    pub async fn share_icons(&self, state: &AppState, a: &AssetRow) -> Vec<ShareIcon> {
        let mut out = Vec::new();
        for (_, uid) in self.shared.iter().filter(|(asset, _)| *asset == a.id) {
            if let Some(u) = self.users.get(uid) {
                out.push(ShareIcon {
                    id: u.uid.clone(),
                    name: display_name(u),
                    photo_path: photo(state, u).await,
                });
            }
        }
        out
    }
}
