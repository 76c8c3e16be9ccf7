//! Who may receive a workflow's e-mail: the members of its organization (active users) and the
//! addresses its administrators allowed ([`allowed_list`]), never another address a user typed.
//! Checked twice: by the API when a workflow's recipients are saved
//! ([`check`], with a message naming the address), and by the operator before it sends (a run's
//! e-mail goes only to the addresses listed in the organization namespace's ConfigMap
//! [`MAIL_RECIPIENTS_CONFIGMAP`], which this module keeps current — so a resource applied with
//! kubectl or GitOps cannot mail strangers either, and a member who leaves stops receiving within
//! [`REFRESH_EVERY`]).

use std::{
    collections::{BTreeMap, HashMap},
    time::Duration,
};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api, Client,
    api::{ObjectMeta, Patch, PatchParams},
};
use ludis_crds::{FIELD_MANAGER_API, MAIL_RECIPIENTS_CONFIGMAP, MAIL_RECIPIENTS_KEY};

use crate::{
    cluster::organizations::{NamespaceOwner, namespace_owner},
    db,
    error::{ApiError, Result},
    state::AppState,
};

/// How often the organizations' recipient lists are compared with their members.
pub const REFRESH_EVERY: Duration = Duration::from_secs(15);

/// Pure: the message for `address`, which is no member's and not allowed.
pub fn not_a_member(address: &str) -> String {
    format!(
        "Notifications go to members of your organization only: {address} is not one of them \
         (an administrator can allow it in the admin portal's Security tab)"
    )
}

/// Pure: the first address of `list` that is not in `members` (lower-case), if any.
pub fn first_stranger<'a>(list: &'a [String], members: &[String]) -> Option<&'a str> {
    list.iter()
        .map(String::as_str)
        .find(|e| members.binary_search(&e.trim().to_lowercase()).is_err())
}

/// Who may receive organization `organization_id`'s workflow e-mail: its active members and the
/// addresses its administrators allowed, lower-case, sorted, once each.
pub async fn recipients(
    db: &sqlx::AnyPool,
    organization_id: &str,
) -> std::result::Result<Vec<String>, sqlx::Error> {
    let mut all = db::users::active_emails(db, organization_id).await?;
    all.extend(db::organizations::mail_allowlist(db, organization_id).await?);
    all.sort();
    all.dedup();
    Ok(all)
}

/// Pure: the addresses an administrator allows (trimmed, lower-case, once each, sorted), or the
/// first that is no address.
pub fn allowed_list(list: &[String]) -> std::result::Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for e in list.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
        if !crate::views::valid_email(e) {
            return Err(e.to_owned());
        }
        out.push(e.to_lowercase());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Every address of `list` may receive organization `organization_id`'s workflow e-mail (400
/// naming the first that may not).
pub async fn check(state: &AppState, organization_id: &str, list: &[String]) -> Result<()> {
    let members = recipients(&state.db, organization_id).await?;
    match first_stranger(list, &members) {
        Some(stranger) => Err(ApiError::bad_request("not_a_member", not_a_member(stranger))),
        None => Ok(()),
    }
}

/// Pure: the ConfigMap of `namespace` listing `members`.
pub fn build(namespace: &str, members: &[String]) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(MAIL_RECIPIENTS_CONFIGMAP.into()),
            namespace: Some(namespace.into()),
            labels: Some(BTreeMap::from([
                ("app.kubernetes.io/managed-by".into(), FIELD_MANAGER_API.into()),
                ("app.kubernetes.io/part-of".into(), "ludis".into()),
            ])),
            ..ObjectMeta::default()
        },
        data: Some(BTreeMap::from([(MAIL_RECIPIENTS_KEY.into(), members.join("\n"))])),
        ..ConfigMap::default()
    }
}

/// Applies `members` as the recipients of `namespace` (organization `organization_id`'s; left
/// alone when the namespace is not its own).
async fn apply(
    client: &Client,
    namespace: &str,
    organization_id: &str,
    members: &[String],
) -> anyhow::Result<()> {
    if namespace_owner(client, namespace, organization_id).await? != NamespaceOwner::This {
        return Ok(());
    }
    Api::<ConfigMap>::namespaced(client.clone(), namespace)
        .patch(
            MAIL_RECIPIENTS_CONFIGMAP,
            &PatchParams::apply(FIELD_MANAGER_API).force(),
            &Patch::Apply(&build(namespace, members)),
        )
        .await?;
    Ok(())
}

/// Keeps every organization's recipient list equal to its members and allowed addresses: all of
/// them at start, then each one whose list changed, every [`REFRESH_EVERY`]. Failures are logged
/// and retried.
pub async fn keep_current(state: AppState) {
    let Some(client) = state.kube.clone() else { return };
    // What each organization's namespace was last given (organization id → namespace, members).
    let mut applied: HashMap<String, (String, Vec<String>)> = HashMap::new();
    let mut tick = tokio::time::interval(REFRESH_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let orgs = match db::organizations::list(&state.db, None, i64::from(u32::MAX), 0).await {
            Ok((orgs, _)) => orgs,
            Err(e) => {
                tracing::warn!(error = %e, "could not list the organizations for their mail recipients");
                continue;
            }
        };
        for org in orgs {
            let namespace = ludis_crds::organization_namespace(&org.slug);
            let members = match recipients(&state.db, &org.id).await {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(organization = %org.id, error = %e, "could not list the members for the mail recipients");
                    continue;
                }
            };
            let current = (namespace, members);
            if applied.get(&org.id) == Some(&current) {
                continue;
            }
            match apply(&client, &current.0, &org.id, &current.1).await {
                Ok(()) => {
                    applied.insert(org.id, current);
                }
                Err(e) => {
                    tracing::debug!(namespace = %current.0, error = format!("{e:#}"), "the mail recipients are not applied (yet)");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_members_receive() {
        let members = vec!["ann@acme.example".to_owned(), "bob@acme.example".to_owned()];
        let list = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            first_stranger(&list(&["Ann@Acme.example", " bob@acme.example"]), &members),
            None
        );
        assert_eq!(
            first_stranger(&list(&["ann@acme.example", "eve@evil.example"]), &members),
            Some("eve@evil.example")
        );
        assert_eq!(first_stranger(&[], &members), None);
        let map = build("ludis-acme", &members);
        assert_eq!(map.metadata.name.as_deref(), Some("ludis-mail-recipients"));
        assert_eq!(
            map.data.unwrap()["recipients"],
            "ann@acme.example\nbob@acme.example"
        );
    }
}

#[cfg(test)]
mod allowed_tests {
    use super::*;

    #[test]
    fn allowed_addresses_are_cleaned_or_the_bad_one_named() {
        let list = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            allowed_list(&list(&[
                " Ops@Partner.example",
                "",
                "ops@partner.example",
                "a@b.example"
            ])),
            Ok(list(&["a@b.example", "ops@partner.example"]))
        );
        assert_eq!(allowed_list(&list(&["a@b.example", "nope"])), Err("nope".into()));
    }
}
