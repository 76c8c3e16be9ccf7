//! Sharing: every refusal of the rule, the e-mail list, atomic requests, organization shares
//! (members only), shares kept inside the asset's organization, unsharing and leaving, entries
//! managed by the resource, who-has-access, pending e-mail entries and ownership moves.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{InsightSeed, Person, TestApp, apps};
use ludis_api::db;
use ludis_api::domain::AssetKind;

struct World {
    org: String,
    admin: Person,
    ann: Person,
    bob: Person,
    cid: Person,
    dee: Person,
}

async fn world(app: &TestApp) -> World {
    let org = app.unique_org("Acme").await;
    World {
        admin: app.person(&org, "administrator", "Admin").await,
        ann: app.person(&org, "developer", "Ann").await,
        bob: app.person(&org, "developer", "Bob").await,
        cid: app.person(&org, "management", "Cid").await,
        dee: app.person(&org, "developer", "Dee").await,
        org,
    }
}

/// (caller, entity type, entity id, share entries, status, message)
type Case<'a> = (&'a Person, &'a str, &'a str, Vec<Value>, u16, String);

fn msg(r: &(StatusCode, Value)) -> (u16, &str) {
    (r.0.as_u16(), r.1["message"].as_str().unwrap_or_default())
}

fn entry(email: &str, level: &str) -> Value {
    json!({"share_type": "share", "email": email, "access_level": level, "to_entity_type": "User"})
}

fn unshare(email: &str) -> Value {
    json!({"share_type": "unshare", "email": email, "access_level": "view", "to_entity_type": "User"})
}

fn org_entry(share_type: &str, level: &str) -> Value {
    json!({"share_type": share_type, "email": "", "access_level": level, "to_entity_type": "Organization"})
}

fn body(entity_type: &str, id: &str, shares: Vec<Value>) -> Value {
    json!({"share": {"entity_id": id, "entity_type": entity_type, "shares": shares}})
}

async fn share(
    app: &TestApp,
    who: &Person,
    entity_type: &str,
    id: &str,
    shares: Vec<Value>,
) -> (StatusCode, Value) {
    app.post(
        "/v1/applications/share",
        Some(&who.token),
        body(entity_type, id, shares),
    )
    .await
}

/// The caller's level on an insight, or the status when they cannot see it.
async fn level_of(app: &TestApp, who: &Person, id: &str) -> String {
    let (s, b) = app.get(&format!("/v1/applications/{id}"), &who.token).await;
    if s == 200 {
        b["application"]["access_level"].as_str().unwrap().to_owned()
    } else {
        s.as_u16().to_string()
    }
}

async fn console_entries(app: &TestApp, id: &str) -> Vec<(String, String, i64)> {
    let mut rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT to_type, to_id, level FROM shares WHERE asset_id = $1 AND origin = 'console' ORDER BY to_type, to_id",
    )
    .bind(id)
    .fetch_all(&app.state.db)
    .await
    .unwrap();
    rows.sort();
    rows
}

#[tokio::test]
async fn every_refusal_of_the_sharing_rule() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Shared"))
            .await;
        app.share(&id, "user", &w.bob.uid, "edit", &w.ann.uid).await;
        app.share(&id, "user", &w.cid.uid, "execute", &w.ann.uid).await;
        app.resource_shares(&id, &[("user", &w.dee.uid, "view")]).await;
        let dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.ann.uid), "Data")
            .await;
        let stranger = app.person(&w.org, "developer", "Eve").await;
        let missing = db::new_id();
        let cases: Vec<Case<'_>> = vec![
            (&w.ann, "Application", &id, vec![entry(&w.ann.email, "view")], 400, "Cannot share to yourself!".into()),
            (&w.ann, "Application", &id, vec![entry(" ANN@x, ", "view")], 400, "Email is invalid!".into()),
            (&w.ann, "Application", &id, vec![entry("not-an-email", "view")], 400, "Email is invalid!".into()),
            (&w.ann, "Application", &id, vec![entry("", "view")], 400, "Email is invalid!".into()),
            (
                &w.ann,
                "Application",
                &id,
                vec![entry("nobody@nowhere.example", "view")],
                400,
                "No user with the e-mail nobody@nowhere.example".into(),
            ),
            // An editor cannot change the owner's entry, nor share to themselves.
            (&w.bob, "Application", &id, vec![entry(&w.ann.email, "view")], 400, "The owner's access cannot be changed".into()),
            (&w.bob, "Application", &id, vec![entry(&w.bob.email, "edit")], 400, "Cannot share to yourself!".into()),
            // Entries declared in spec.sharing are changed there.
            (
                &w.ann,
                "Application",
                &id,
                vec![entry(&w.dee.email, "edit")],
                400,
                "This access is declared in the resource's spec.sharing; change it there".into(),
            ),
            (
                &w.ann,
                "Application",
                &id,
                vec![unshare(&w.dee.email)],
                400,
                "This access is declared in the resource's spec.sharing; change it there".into(),
            ),
            // Only editors share.
            (&w.cid, "Application", &id, vec![entry(&stranger.email, "view")], 403, "Only editors can share this item".into()),
            (&w.dee, "Application", &id, vec![entry(&stranger.email, "view")], 403, "Only editors can share this item".into()),
            (&stranger, "Application", &id, vec![entry(&w.cid.email, "view")], 404, "Application not found".into()),
            // Nothing offered beyond the levels of the kind.
            (&w.ann, "Dataset", &dataset, vec![entry(&w.bob.email, "execute")], 400, "Executor access cannot be granted here".into()),
            (&w.ann, "Application", &id, vec![entry(&w.bob.email, "owner")], 400, "Unknown access level: owner (view, execute or edit)".into()),
            (
                &w.ann,
                "Application",
                &id,
                vec![json!({"share_type": "steal", "email": w.bob.email})],
                400,
                "Unknown share type: steal (share or unshare)".into(),
            ),
            (
                &w.ann,
                "Application",
                &id,
                vec![json!({"email": w.bob.email, "to_entity_type": "Team"})],
                400,
                "Unknown target: team (User or Organization)".into(),
            ),
            (&w.ann, "Application", &id, vec![], 400, "Nothing to share".into()),
            (
                &w.ann,
                "Notebook",
                &id,
                vec![entry(&w.bob.email, "view")],
                400,
                "Unknown entity type: Notebook (Application, Insight, Project, Project_V2, Dataset or Workflow)".into(),
            ),
            // The id must be of the named kind.
            (&w.ann, "Project", &id, vec![entry(&w.bob.email, "view")], 404, "Project not found".into()),
            (&w.ann, "Application", &missing, vec![entry(&w.bob.email, "view")], 404, "Application not found".into()),
        ];
        let before = console_entries(&app, &id).await;
        for (who, t, target, shares, status, message) in cases {
            let r = share(&app, who, t, target, shares.clone()).await;
            assert_eq!(msg(&r), (status, message.as_str()), "{k} {t} {shares:?}");
            assert_eq!(r.1["success"], false);
        }
        assert_eq!(console_entries(&app, &id).await, before, "{k}: nothing changed");
        let r = app
            .post(
                "/v1/applications/share",
                Some(&w.ann.token),
                json!({"share": {"entity_type": "Application", "shares": [entry(&w.bob.email, "view")]}}),
            )
            .await;
        assert_eq!(msg(&r), (400, "entity_id is required"));
    }
}

#[tokio::test]
async fn sharing_by_a_comma_separated_list_and_editors_sharing_up_to_edit() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Team app"))
            .await;
        let list = format!(
            " {} ,{},, {} ",
            w.bob.email.to_uppercase(),
            w.cid.email,
            w.bob.email
        );
        let r = share(&app, &w.ann, "Application", &id, vec![entry(&list, "execute")]).await;
        assert_eq!(msg(&r), (200, "Application shared!"), "{k}");
        assert_eq!(level_of(&app, &w.bob, &id).await, "execute");
        assert_eq!(level_of(&app, &w.cid, &id).await, "execute");
        // Default level is view; `Insight` is another name of the same kind.
        let r = share(&app, &w.ann, "insight", &id, vec![json!({"email": w.dee.email})]).await;
        assert_eq!(msg(&r), (200, "Insight shared!"), "{k}");
        assert_eq!(level_of(&app, &w.dee, &id).await, "view");
        // Bob becomes an editor and shares on, up to edit.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![entry(&w.bob.email, "edit")],
        )
        .await;
        assert_eq!(r.0, 200);
        let r = share(
            &app,
            &w.bob,
            "Application",
            &id,
            vec![entry(&w.dee.email, "edit")],
        )
        .await;
        assert_eq!(msg(&r), (200, "Application shared!"), "{k}");
        assert_eq!(level_of(&app, &w.dee, &id).await, "edit");
        // By uid instead of e-mail, and to_entity_uid of someone unknown.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![json!({"share_type": "share", "access_level": "view", "to_entity_type": "User", "to_entity_uid": w.cid.uid})],
        )
        .await;
        assert_eq!(r.0, 200);
        assert_eq!(level_of(&app, &w.cid, &id).await, "view");
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![json!({"to_entity_type": "User", "to_entity_uid": "nobody"})],
        )
        .await;
        assert_eq!(msg(&r), (400, "No user with the id nobody"));
        // Other kinds use the same call.
        let project = app
            .asset(AssetKind::ProjectV2, &w.org, Some(&w.ann.uid), "Proj")
            .await;
        let r = share(
            &app,
            &w.ann,
            "Project_V2",
            &project,
            vec![entry(&w.bob.email, "execute")],
        )
        .await;
        assert_eq!(msg(&r), (200, "Project shared!"), "{k}");
        let dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.ann.uid), "Data")
            .await;
        let r = share(
            &app,
            &w.ann,
            "Dataset",
            &dataset,
            vec![entry(&w.bob.email, "edit")],
        )
        .await;
        assert_eq!(msg(&r), (200, "Dataset shared!"), "{k}");
        // Recorded.
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM activity WHERE action = 'shared' AND entity_id = $1")
                .bind(&id)
                .fetch_one(&app.state.db)
                .await
                .unwrap();
        assert_eq!(n, 5, "{k}");
    }
}

#[tokio::test]
async fn a_share_request_is_all_or_nothing() {
    for app in apps().await {
        let w = world(&app).await;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Atomic"))
            .await;
        app.share(&id, "user", &w.cid.uid, "view", &w.ann.uid).await;
        let before = console_entries(&app, &id).await;
        // A good grant, a good revoke, then a bad e-mail: nothing happens.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![
                entry(&w.bob.email, "edit"),
                unshare(&w.cid.email),
                entry(&format!("{}, broken@", w.dee.email), "view"),
            ],
        )
        .await;
        assert_eq!(msg(&r), (400, "Email is invalid!"), "{}", app.kind);
        assert_eq!(console_entries(&app, &id).await, before);
        assert_eq!(level_of(&app, &w.bob, &id).await, "404");
        assert_eq!(level_of(&app, &w.dee, &id).await, "404");
        assert_eq!(level_of(&app, &w.cid, &id).await, "view");
        // The same request without the bad entry does all of it; later changes to one target win.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![
                entry(&w.bob.email, "edit"),
                unshare(&w.cid.email),
                entry(&w.dee.email, "view"),
                entry(&w.dee.email, "execute"),
            ],
        )
        .await;
        assert_eq!(r.0, 200);
        assert_eq!(level_of(&app, &w.bob, &id).await, "edit");
        assert_eq!(level_of(&app, &w.cid, &id).await, "404");
        assert_eq!(level_of(&app, &w.dee, &id).await, "execute");
    }
}

#[tokio::test]
async fn an_organization_share_reaches_its_members_only() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let other = app.unique_org("Other").await;
        let zed = app.person(&other, "developer", "Zed").await;
        let other_admin = app.person(&other, "administrator", "Oadmin").await;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Org wide"))
            .await;
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![org_entry("share", "execute")],
        )
        .await;
        assert_eq!(msg(&r), (200, "Application shared!"), "{k}");
        // The entry names the asset's own organization.
        assert_eq!(
            console_entries(&app, &id).await,
            [("organization".to_owned(), w.org.clone(), 2)]
        );
        for p in [&w.bob, &w.cid, &w.dee] {
            assert_eq!(level_of(&app, p, &id).await, "execute", "{k}");
        }
        assert_eq!(level_of(&app, &w.admin, &id).await, "edit");
        assert_eq!(level_of(&app, &zed, &id).await, "404", "{k}: not a member");
        assert_eq!(level_of(&app, &other_admin, &id).await, "404", "{k}");
        // The higher level wins for members.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![entry(&w.bob.email, "edit"), entry(&w.cid.email, "view")],
        )
        .await;
        assert_eq!(r.0, 200);
        assert_eq!(level_of(&app, &w.bob, &id).await, "edit");
        assert_eq!(level_of(&app, &w.cid, &id).await, "execute");
        // An editor's organization share always names the asset's organization.
        let r = share(&app, &w.bob, "Application", &id, vec![org_entry("share", "edit")]).await;
        assert_eq!(r.0, 200);
        assert_eq!(
            console_entries(&app, &id)
                .await
                .into_iter()
                .filter(|e| e.0 == "organization")
                .collect::<Vec<_>>(),
            [("organization".to_owned(), w.org.clone(), 3)]
        );
        assert_eq!(level_of(&app, &zed, &id).await, "404", "{k}");
        assert_eq!(level_of(&app, &other_admin, &id).await, "404", "{k}");
        // Unsharing the organization (deselecting it) removes the entry.
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![org_entry("unshare", "view")],
        )
        .await;
        assert_eq!(r.0, 200);
        assert_eq!(level_of(&app, &w.dee, &id).await, "404", "{k}");
        assert_eq!(level_of(&app, &w.cid, &id).await, "view");
    }
}

#[tokio::test]
async fn unsharing_revoking_an_entry_and_leaving_a_shared_app() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Leaving"))
            .await;
        let r = share(
            &app,
            &w.ann,
            "Application",
            &id,
            vec![
                entry(&w.bob.email, "view"),
                entry(&w.cid.email, "edit"),
                entry(&w.dee.email, "execute"),
            ],
        )
        .await;
        assert_eq!(r.0, 200);
        // Deselecting a member is an unshare.
        let r = share(&app, &w.ann, "Application", &id, vec![unshare(&w.dee.email)]).await;
        assert_eq!(msg(&r), (200, "Application shared!"));
        assert_eq!(level_of(&app, &w.dee, &id).await, "404", "{k}");
        // Unsharing someone with no entry changes nothing.
        let r = share(&app, &w.ann, "Application", &id, vec![unshare(&w.admin.email)]).await;
        assert_eq!(r.0, 200);

        let (_, who) = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &w.ann.token,
            )
            .await;
        let share_id = |email: &str| {
            who["shares"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["email"] == email)
                .unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        let bobs = share_id(&w.bob.email);
        let cids = share_id(&w.cid.email);
        // A viewer may not revoke others' entries; an editor may; anyone may drop their own.
        let r = app
            .delete(&format!("/v1/applications/share/{cids}"), &w.bob.token)
            .await;
        assert_eq!(msg(&r), (403, "Only editors can share this item"), "{k}");
        let r = app
            .delete(&format!("/v1/applications/share/{bobs}"), &w.cid.token)
            .await;
        assert_eq!(msg(&r), (200, "Access removed"), "{k}");
        assert_eq!(level_of(&app, &w.bob, &id).await, "404");
        let r = app
            .delete(&format!("/v1/applications/share/{cids}"), &w.cid.token)
            .await;
        assert_eq!(msg(&r), (200, "Access removed"), "{k}");
        assert_eq!(level_of(&app, &w.cid, &id).await, "404");
        // A share id of an asset the caller cannot see is not found.
        let r = app
            .delete(&format!("/v1/applications/share/{cids}"), &w.dee.token)
            .await;
        assert_eq!(r.0, 404);

        // Leaving by the application's id.
        app.share(&id, "user", &w.bob.uid, "view", &w.ann.uid).await;
        app.share(&id, "organization", &w.org, "view", &w.ann.uid).await;
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &w.bob.token)
            .await;
        assert_eq!(msg(&r), (200, "Access removed"), "{k}");
        // Bob still sees it through the organization, which he cannot remove.
        assert_eq!(level_of(&app, &w.bob, &id).await, "view");
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &w.bob.token)
            .await;
        assert_eq!(r.0, 409, "{k}: {}", r.1);
        assert!(
            r.1["message"]
                .as_str()
                .unwrap()
                .starts_with("Your access comes from your organization")
        );
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &w.admin.token)
            .await;
        assert_eq!(r.0, 409, "{k}");
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &w.ann.token)
            .await;
        assert_eq!(msg(&r), (400, "You own this application: delete it instead"));
        let other = app.unique_org("Other").await;
        let zed = app.person(&other, "developer", "Zed").await;
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &zed.token)
            .await;
        assert_eq!(msg(&r), (404, "Application not found"), "{k}");
        let r = app
            .delete(&format!("/v1/applications/share/{}", db::new_id()), &w.ann.token)
            .await;
        assert_eq!(r.0, 404);
    }
}

#[tokio::test]
async fn entries_managed_by_the_resource_are_shown_but_not_revocable_here() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("GitOps"))
            .await;
        app.resource_shares(
            &id,
            &[
                ("user", &w.bob.uid, "execute"),
                ("organization", &w.org, "view"),
                ("email", "later@people.example", "edit"),
            ],
        )
        .await;
        // A console entry beside a managed one for Cid.
        app.share(&id, "user", &w.cid.uid, "view", &w.ann.uid).await;
        assert_eq!(level_of(&app, &w.bob, &id).await, "execute");
        assert_eq!(level_of(&app, &w.dee, &id).await, "view");
        let (s, b) = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &w.ann.token,
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        let managed: Vec<(String, bool)> = b["shares"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                (
                    s["email"].as_str().unwrap().to_owned(),
                    s["managed"].as_bool().unwrap(),
                )
            })
            .collect();
        assert!(managed.contains(&(w.bob.email.clone(), true)), "{managed:?}");
        assert!(managed.contains(&(w.cid.email.clone(), false)));
        assert!(managed.contains(&("later@people.example".to_owned(), true)));
        let pending = b["shares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["email"] == "later@people.example")
            .unwrap();
        assert_eq!(
            (&pending["to_entity_id"], &pending["to_entity_uid"]),
            (&json!(""), &Value::Null)
        );
        assert_eq!(b["organization"]["access_level"], "view");
        assert_eq!(b["organization"]["managed"], true);
        let managed_message = "This access is declared in the resource's spec.sharing; change it there";
        for shares in [
            vec![unshare(&w.bob.email)],
            vec![entry(&w.bob.email, "edit")],
            vec![org_entry("unshare", "view")],
        ] {
            let r = share(&app, &w.ann, "Application", &id, shares).await;
            assert_eq!(msg(&r), (400, managed_message), "{k}");
        }
        let bobs = b["shares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["email"] == w.bob.email.as_str())
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        for who in [&w.ann, &w.bob] {
            let r = app
                .delete(&format!("/v1/applications/share/{bobs}"), &who.token)
                .await;
            assert_eq!(msg(&r), (400, managed_message), "{k}");
        }
        let r = app
            .delete(&format!("/v1/applications/share/{id}"), &w.bob.token)
            .await;
        assert_eq!(
            r.0, 409,
            "{k}: access from a managed entry is not the caller's to remove"
        );
        assert_eq!(level_of(&app, &w.bob, &id).await, "execute");
    }
}

/// Issue 12, finding 4: a share never reaches outside the asset's organization, whichever call
/// makes it, and another organization's address is answered exactly like an unknown one (no
/// account oracle). Entries that name someone outside (made before this rule, or left by a user
/// who moved to another organization) grant nothing and are not listed.
#[tokio::test]
async fn shares_stay_inside_the_assets_organization() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let other = app.unique_org("Other").await;
        let zed = app.person(&other, "developer", "Zed").await;
        let insight = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Inside"))
            .await;
        let dataset = app.dataset(&w.org, Some(&w.ann.uid), "Inside data").await;
        let unknown = "nobody@nowhere.example";
        // The same status and message (with the address in it) for both, on every share call.
        let same = |unknown_answer: &(StatusCode, Value), zed_answer: &(StatusCode, Value), what: &str| {
            let (s, m) = msg(unknown_answer);
            assert_eq!(s, 400, "{k} {what}: {}", unknown_answer.1);
            assert_eq!(
                (
                    zed_answer.0.as_u16(),
                    zed_answer.1["message"].as_str().unwrap_or_default()
                ),
                (s, m.replace(unknown, &zed.email).as_str()),
                "{k} {what}: another organization's address is answered like an unknown one"
            );
            assert_eq!(zed_answer.1["code"], unknown_answer.1["code"], "{k} {what}");
        };
        for (path, entity_type, id) in [
            ("/v1/applications/share", "Application", &insight),
            ("/v1/applications/share", "Dataset", &dataset),
            ("/v1/datasets/share", "Dataset", &dataset),
        ] {
            for level in ["view", "edit"] {
                let ask = |email: &str| {
                    app.post(
                        path,
                        Some(&w.ann.token),
                        body(entity_type, id, vec![entry(email, level)]),
                    )
                };
                let (u, z) = (ask(unknown).await, ask(&zed.email).await);
                same(&u, &z, &format!("{path} {entity_type} {level}"));
            }
            // By uid: another organization's user is no user either.
            let by_uid = |uid: &str| {
                app.post(
                    path,
                    Some(&w.ann.token),
                    body(
                        entity_type,
                        id,
                        vec![json!({"access_level": "view", "to_entity_type": "User", "to_entity_uid": uid})],
                    ),
                )
            };
            let stranger = db::new_id();
            let (u, z) = (by_uid(&stranger).await, by_uid(&zed.uid).await);
            assert_eq!(msg(&u), (400, format!("No user with the id {stranger}").as_str()));
            assert_eq!(
                msg(&z),
                (400, format!("No user with the id {}", zed.uid).as_str()),
                "{k} {path}"
            );
        }
        // The folder share answers the same for both too.
        let folder = |email: &str| {
            app.put(
                "/v1/directory/share",
                &w.ann.token,
                json!({"share": {"entity_id": dataset, "entity_type": "Dataset", "directory_id": "a/",
                    "shares": [entry(email, "view")]}}),
            )
        };
        let (u, z) = (folder(unknown).await, folder(&zed.email).await);
        assert_eq!(msg(&u), msg(&z), "{k}: /v1/directory/share");
        assert!(console_entries(&app, &insight).await.is_empty(), "{k}");
        assert!(console_entries(&app, &dataset).await.is_empty(), "{k}");
        let details = format!("/v1/datasets/getdatasetdetails/{dataset}");
        assert_eq!(level_of(&app, &zed, &insight).await, "404", "{k}");
        assert_eq!(app.post(&details, Some(&zed.token), json!({})).await.0, 404);

        // An entry naming someone outside grants nothing, in a single call or a list.
        app.share(&insight, "user", &zed.uid, "edit", &w.ann.uid).await;
        app.share(&dataset, "user", &zed.uid, "edit", &w.ann.uid).await;
        assert_eq!(level_of(&app, &zed, &insight).await, "404", "{k}: a stale entry");
        assert_eq!(app.post(&details, Some(&zed.token), json!({})).await.0, 404);
        for list in ["", "?filter=shared", "?filter=starred"] {
            let (_, b) = app
                .get(&format!("/v1/applications/insights{list}"), &zed.token)
                .await;
            assert_eq!(b["total"], 0, "{k} {list}: {b}");
        }
        let (_, b) = app
            .get("/v1/datasets/listdatasets?filter=shared", &zed.token)
            .await;
        assert_eq!(b["total"], 0, "{k}: {b}");
        let (_, b) = app
            .get(&format!("/v1/shares/sharedwith/{insight}"), &w.ann.token)
            .await;
        assert_eq!(b["shares"], json!([]), "{k}: not listed as having access");
        // A member who moves to another organization keeps no access through their shares.
        app.share(&insight, "user", &w.bob.uid, "edit", &w.ann.uid).await;
        assert_eq!(level_of(&app, &w.bob, &insight).await, "edit");
        sqlx::query("UPDATE users SET organization_id = $1 WHERE uid = $2")
            .bind(&other)
            .bind(&w.bob.uid)
            .execute(&app.state.db)
            .await
            .unwrap();
        assert_eq!(level_of(&app, &w.bob, &insight).await, "404", "{k}: moved away");
    }
}

#[tokio::test]
async fn who_has_access() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Listed"))
            .await;
        app.share(&id, "user", &w.bob.uid, "edit", &w.ann.uid).await;
        app.share(&id, "user", &w.cid.uid, "view", &w.ann.uid).await;
        let (s, b) = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &w.bob.token,
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["entity_id"], id.as_str());
        assert_eq!(b["entity_type"], "Application");
        assert_eq!(b["access_level"], "edit");
        assert_eq!(b["can_share"], true);
        assert_eq!(b["levels"], json!(["view", "execute", "edit"]));
        assert_eq!(b["owner"]["uid"], w.ann.uid.as_str());
        assert_eq!(b["owner"]["email"], w.ann.email.as_str());
        let shares = b["shares"].as_array().unwrap();
        assert_eq!(shares.len(), 2);
        let cid = shares
            .iter()
            .find(|s| s["to_entity_uid"] == w.cid.uid.as_str())
            .unwrap();
        assert_eq!(
            (
                &cid["to_entity_type"],
                &cid["to_entity_id"],
                &cid["email"],
                &cid["access_level"],
                &cid["managed"]
            ),
            (
                &json!("User"),
                &json!(w.cid.uid),
                &json!(w.cid.email),
                &json!("view"),
                &json!(false)
            )
        );
        assert_eq!(b["organization"]["id"], w.org.as_str());
        assert_eq!(b["organization"]["access_level"], Value::Null);
        // Members: Bob's organization without the owner and Bob, with their levels.
        let members: Vec<(String, Value)> = b["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["uid"].as_str().unwrap().to_owned(), m["access_level"].clone()))
            .collect();
        assert_eq!(members.len(), 3, "{members:?}");
        assert!(members.contains(&(w.cid.uid.clone(), json!("view"))));
        assert!(members.contains(&(w.dee.uid.clone(), Value::Null)));
        assert!(!members.iter().any(|m| m.0 == w.ann.uid || m.0 == w.bob.uid));
        // A viewer sees who has access but gets no members to pick from.
        let (_, b) = app
            .get(&format!("/v1/shares/sharedwith/{id}"), &w.cid.token)
            .await;
        assert_eq!(
            (&b["can_share"], &b["access_level"]),
            (&json!(false), &json!("view"))
        );
        assert_eq!(b["members"], json!([]));
        assert_eq!(b["entity_type"], "Application");
        // No access, a wrong kind, an unknown kind.
        let r = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=application"),
                &w.dee.token,
            )
            .await;
        assert_eq!(msg(&r), (404, "Application not found"), "{k}");
        let r = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=dataset"),
                &w.ann.token,
            )
            .await;
        assert_eq!(msg(&r), (404, "Dataset not found"), "{k}");
        // Without a kind, an invisible asset and a missing one look the same.
        for path in [
            format!("/v1/shares/sharedwith/{id}"),
            format!("/v1/shares/sharedwith/{}", db::new_id()),
        ] {
            let r = app.get(&path, &w.dee.token).await;
            assert_eq!(msg(&r), (404, "Item not found"), "{k}");
        }
        let r = app
            .get(
                &format!("/v1/shares/sharedwith/{id}?entityType=cake"),
                &w.ann.token,
            )
            .await;
        assert_eq!(r.0, 400);
        // A dataset offers view and edit only.
        let dataset = app
            .asset(AssetKind::Dataset, &w.org, Some(&w.ann.uid), "Data")
            .await;
        let (_, b) = app
            .get(
                &format!("/v1/shares/sharedwith/{dataset}?entityType=dataset"),
                &w.ann.token,
            )
            .await;
        assert_eq!(b["levels"], json!(["view", "edit"]), "{k}");
        assert_eq!(b["entity_type"], "Dataset");
        // An asset without a known owner: the administrators have it.
        let orphan = app.insight(&w.org, None, InsightSeed::app("Orphan")).await;
        let (_, b) = app
            .get(&format!("/v1/shares/sharedwith/{orphan}"), &w.admin.token)
            .await;
        assert_eq!(
            (&b["owner"], &b["can_share"]),
            (&Value::Null, &json!(true)),
            "{k}"
        );
        assert_eq!(level_of(&app, &w.ann, &orphan).await, "404");
    }
}

#[tokio::test]
async fn a_new_user_claims_the_entries_declared_for_their_e_mail() {
    for app in apps().await {
        let w = world(&app).await;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Waiting"))
            .await;
        app.resource_shares(&id, &[("email", "newcomer@people.example", "execute")])
            .await;
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&w.admin.token),
                json!({"user": {"email": "Newcomer@People.example", "password": "secret1", "first_name": "New",
                    "last_name": "Comer", "role": "developer", "timezone": "UTC"}}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        let (token, _) = app.login("newcomer@people.example", "secret1").await;
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &token).await;
        assert_eq!(s, 200, "{}: {b}", app.kind);
        assert_eq!(b["application"]["access_level"], "execute");
        let (_, b) = app
            .get(&format!("/v1/shares/sharedwith/{id}"), &w.ann.token)
            .await;
        let entry = &b["shares"][0];
        assert_eq!(entry["email"], "newcomer@people.example");
        assert_eq!(entry["managed"], true);
        assert_eq!(entry["to_entity_uid"], b["shares"][0]["to_entity_id"]);
    }
}

/// Issue 12, finding 5: an address declared in `spec.sharing` before it had an account is
/// claimed only by a user created in the asset's organization; a namesake elsewhere gets nothing
/// and the entry keeps waiting.
#[tokio::test]
async fn pending_e_mail_entries_are_claimed_only_in_the_assets_organization() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let other = app.unique_org("Other").await;
        let id = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("Waiting"))
            .await;
        let dataset = app.dataset(&w.org, Some(&w.ann.uid), "Waiting data").await;
        app.resource_shares(
            &id,
            &[
                ("email", "outsider@elsewhere.example", "edit"),
                ("email", "insider@people.example", "view"),
            ],
        )
        .await;
        app.resource_shares(&dataset, &[("email", "outsider@elsewhere.example", "edit")])
            .await;
        let pending = |asset: String| {
            let app = &app;
            async move {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "SELECT to_type, to_id FROM shares WHERE asset_id = $1 AND origin = 'resource' ORDER BY to_id",
                )
                .bind(asset)
                .fetch_all(&app.state.db)
                .await
                .unwrap();
                rows
            }
        };

        // Someone of another organization signs up with that address: nothing is theirs.
        let uid = app
            .user("outsider@elsewhere.example", "pass-word", "developer", &other)
            .await;
        let (token, _) = app.login("outsider@elsewhere.example", "pass-word").await;
        let outsider = Person {
            uid,
            email: "outsider@elsewhere.example".into(),
            token,
            org: other.clone(),
        };
        assert_eq!(level_of(&app, &outsider, &id).await, "404", "{k}");
        let details = format!("/v1/datasets/getdatasetdetails/{dataset}");
        assert_eq!(
            app.post(&details, Some(&outsider.token), json!({})).await.0,
            404,
            "{k}"
        );
        assert!(
            pending(id.clone())
                .await
                .contains(&("email".into(), "outsider@elsewhere.example".into())),
            "{k}: the entry still waits"
        );
        assert_eq!(
            pending(dataset.clone()).await,
            [("email".to_owned(), "outsider@elsewhere.example".to_owned())]
        );

        // A member of the asset's organization claims theirs.
        app.user("insider@people.example", "pass-word", "developer", &w.org)
            .await;
        let (token, _) = app.login("insider@people.example", "pass-word").await;
        let (s, b) = app.get(&format!("/v1/applications/{id}"), &token).await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["application"]["access_level"], "view");
    }
}

#[tokio::test]
async fn ownership_moves_only_by_the_organizations_administrators_or_a_superadmin() {
    for app in apps().await {
        let w = world(&app).await;
        let k = app.kind;
        let other = app.unique_org("Other").await;
        let other_admin = app.person(&other, "administrator", "Oadmin").await;
        let root = app.person(&other, "superadmin", "Root").await;
        let first = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::app("One"))
            .await;
        let second = app
            .insight(&w.org, Some(&w.ann.uid), InsightSeed::report("Two"))
            .await;
        let project = app
            .asset(AssetKind::ProjectV2, &w.org, Some(&w.ann.uid), "Stays")
            .await;
        let body = |t: &str, from: &Person, to: &Person| json!({"entityType": t, "sourceUserId": from.uid, "destinationUserId": to.uid});
        for (who, status) in [(&w.ann, 403), (&w.bob, 403), (&other_admin, 404)] {
            let (s, r) = app
                .post(
                    "/v1/auth/migrateEntityOwner",
                    Some(&who.token),
                    body("insight", &w.ann, &w.bob),
                )
                .await;
            assert_eq!(s.as_u16(), status, "{k}: {r}");
        }
        assert_eq!(level_of(&app, &w.bob, &first).await, "404");
        let (s, r) = app
            .post(
                "/v1/auth/migrateEntityOwner",
                Some(&w.admin.token),
                body("application", &w.ann, &w.bob),
            )
            .await;
        assert_eq!(s, 200, "{k}: {r}");
        assert_eq!(r["migrated"], 2);
        assert_eq!(r["message"], "Entities migrated successfully");
        for id in [&first, &second] {
            let (_, b) = app.get(&format!("/v1/applications/{id}"), &w.bob.token).await;
            assert_eq!(
                (&b["application"]["is_owner"], &b["application"]["user_uid"]),
                (&json!(true), &json!(w.bob.uid))
            );
            assert_eq!(
                level_of(&app, &w.ann, id).await,
                "404",
                "{k}: the old owner has no share"
            );
        }
        // Only that kind moved.
        let owner: Option<String> = sqlx::query_scalar("SELECT owner_uid FROM assets WHERE id = $1")
            .bind(&project)
            .fetch_one(&app.state.db)
            .await
            .unwrap();
        assert_eq!(owner.as_deref(), Some(w.ann.uid.as_str()));
        // A superadmin of another organization may move it back.
        let (s, r) = app
            .post(
                "/v1/auth/migrateEntityOwner",
                Some(&root.token),
                body("insight", &w.bob, &w.ann),
            )
            .await;
        assert_eq!((s.as_u16(), &r["migrated"]), (200, &json!(2)), "{k}");
        assert_eq!(level_of(&app, &w.ann, &first).await, "edit");
    }
}
