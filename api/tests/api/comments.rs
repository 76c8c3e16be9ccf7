//! Comments: on any asset the caller can view, in order, checked; one 404 for everything else.

use serde_json::{Value, json};

use crate::helpers::{InsightSeed, apps};
use ludis_api::db;
use ludis_api::domain::AssetKind;

#[tokio::test]
async fn comments_on_assets_the_caller_can_view() {
    for app in apps().await {
        let k = app.kind;
        let org = app.unique_org("Acme").await;
        let ann = app.person(&org, "developer", "Ann").await;
        let bob = app.person(&org, "developer", "Bob").await;
        let eve = app.person(&org, "developer", "Eve").await;
        let id = app
            .insight(&org, Some(&ann.uid), InsightSeed::app("Talked"))
            .await;
        app.share(&id, "user", &bob.uid, "view", &ann.uid).await;
        let create = |token: &str, content: &str, reference: &str| {
            let app = &app;
            let token = token.to_owned();
            let body = json!({"comment": {"content": content, "reference_id": reference}});
            async move { app.post("/v1/comment/createComment", Some(&token), body).await }
        };
        let list = |token: &str, reference: &str| {
            let app = &app;
            let token = token.to_owned();
            let body = json!({"comments": {"reference_id": reference}});
            async move { app.post("/v1/comment/list", Some(&token), body).await }
        };
        // Empty at first.
        let (s, b) = list(&bob.token, &id).await;
        assert_eq!((s.as_u16(), &b["conversation"]), (200, &json!([])), "{k}");
        for (content, message) in [
            ("   ", "Empty comment not allowed"),
            ("", "Empty comment not allowed"),
        ] {
            let (s, b) = create(&bob.token, content, &id).await;
            assert_eq!((s.as_u16(), b["message"].as_str()), (400, Some(message)), "{k}");
        }
        let long = "x".repeat(5001);
        let (s, b) = create(&bob.token, &long, &id).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (400, Some("A comment can have at most 5000 characters")),
            "{k}"
        );
        let (s, _) = create(&bob.token, &"y".repeat(5000), &id).await;
        assert_eq!(s, 201);
        // A viewer comments; the owner answers; order is kept within one second.
        let (s, b) = create(&bob.token, "  First!  ", &id).await;
        assert_eq!(s, 201, "{k}: {b}");
        let c = &b["comment"];
        assert_eq!(c["content"], "First!");
        assert_eq!(c["reference_id"], id.as_str());
        assert_eq!(c["author_uid"], bob.uid.as_str());
        assert_eq!(c["author_display_name"], "Test developer");
        assert!(c["created_at"].as_i64().unwrap() > 1_700_000_000);
        for i in 0..5 {
            let (s, _) = create(&ann.token, &format!("reply {i}"), &id).await;
            assert_eq!(s, 201);
        }
        let (_, b) = list(&ann.token, &id).await;
        let contents: Vec<&str> = b["conversation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["content"].as_str().unwrap())
            .collect();
        assert_eq!(contents.len(), 7);
        assert_eq!(
            &contents[1..],
            ["First!", "reply 0", "reply 1", "reply 2", "reply 3", "reply 4"],
            "{k}"
        );
        // No access, no such asset: one 404 that names no kind.
        for reference in [id.clone(), db::new_id(), String::new()] {
            for r in [
                create(&eve.token, "hi", &reference).await,
                list(&eve.token, &reference).await,
            ] {
                assert_eq!(
                    (r.0.as_u16(), &r.1["code"], &r.1["message"]),
                    (404, &json!("not_found"), &json!("Item not found")),
                    "{k}"
                );
            }
        }
        // Any kind of asset.
        let project = app
            .asset(AssetKind::ProjectV2, &org, Some(&eve.uid), "Eve's project")
            .await;
        let (s, _) = create(&eve.token, "on a project", &project).await;
        assert_eq!(s, 201);
        let (s, _) = list(&ann.token, &project).await;
        assert_eq!(s, 404, "{k}");
        let (_, b) = list(&eve.token, &project).await;
        assert_eq!(b["conversation"][0]["content"], "on a project");
        assert_eq!(
            b["conversation"][0]["author_display_name"],
            Value::from("Test developer")
        );
    }
}
