//! The credentials pods clone a hosted project's repository with: a checkout token whose
//! SHA-256 the API keeps (the git server checks it) and which the project's git Secret carries.

use std::collections::BTreeMap;

use crate::{
    cluster, crypto,
    db::projects::{self as rows, Project},
    error::{ApiError, Result},
    state::AppState,
};

/// When a checkout token is made.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum CheckoutToken {
    /// Always: a preview starts (a new token each time).
    Rotate,
    /// Only when the project has none yet: a workflow is published, whose task pods clone with
    /// the project's git Secret as it is when they start.
    Ensure,
}

/// A checkout token for a hosted project's pods (previews and workflow tasks), written to its git
/// Secret (with a cluster and `LUDIS_GIT_URL`).
pub async fn checkout_token(state: &AppState, p: &Project, when: CheckoutToken) -> Result<()> {
    let (Some(resource), true) = (p.asset.resource_name.as_deref(), p.details.is_hosted()) else {
        return Ok(());
    };
    if state.kube.is_none() || state.settings.git_url.trim().is_empty() {
        return Ok(());
    }
    if when == CheckoutToken::Ensure && rows::checkout_token_hash(&state.db, &p.asset.id).await?.is_some() {
        return Ok(());
    }
    let token = crypto::random_token(32);
    rows::set_checkout_token_hash(&state.db, &p.asset.id, &crypto::sha256_hex(&token)).await?;
    let data = BTreeMap::from([
        ("username".to_owned(), p.asset.id.clone()),
        ("token".to_owned(), token),
    ]);
    cluster::projects::write_secret(state, p, &cluster::projects::git_secret_name(resource), data)
        .await
        .map_err(ApiError::cluster)
}
