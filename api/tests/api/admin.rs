//! Organizations, flighting and configuration (metrics: metrics.rs).

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, apps};

pub async fn superadmin(app: &TestApp, org: &str) -> String {
    app.user("root@ludis.example", "root-pass", "superadmin", org)
        .await;
    app.login("root@ludis.example", "root-pass").await.0
}

pub fn org_body(name: &str) -> Value {
    json!({"organization": {"name": name, "admin_email": "boss@new.example", "tier": "paid", "max_seats": 5}})
}

#[tokio::test]
async fn organizations_are_created_validated_updated_and_deleted() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let root = superadmin(&app, &t.org).await;
        let k = app.kind;
        let (s, b) = app
            .post("/v1/organizations", Some(&t.admin_token), org_body("New Co"))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only a superadmin can create organizations")),
            "{k}"
        );
        let cases = [
            ("name", json!(""), "Organization name is required"),
            ("admin_email", json!(""), "Admin email is required"),
            ("admin_email", json!("boss"), "Admin email is invalid"),
            ("tier", json!(""), "Tier is required"),
            ("tier", json!("gold"), "Tier must be paid or free"),
            ("max_seats", json!(-1), "Max seats must be a number of at least 0"),
            (
                "max_seats",
                json!("many"),
                "Max seats must be a number of at least 0",
            ),
            ("bucket_id", json!("nope"), "Bucket not found"),
        ];
        for (field, value, message) in cases {
            let mut body = org_body("New Co");
            body["organization"][field] = value;
            let (s, b) = app.post("/v1/organizations", Some(&root), body).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (400, Some(message)),
                "{k} {field}"
            );
        }
        let mut body = org_body("New Co.");
        body["organization"]["flightings"] =
            json!([{"key": "projects", "name": "Projects", "active": false, "user_roles": []}]);
        let (s, b) = app.post("/v1/organizations", Some(&root), body).await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["message"], "Organization created successfully!");
        let org = &b["organization"];
        // From the name; `-2`, `-3` … when another installation's `ludis-new-co` exists on the
        // shared cluster (the other database's run of this test).
        let slug = org["slug"].as_str().unwrap();
        assert!(
            slug == "new-co"
                || slug
                    .strip_prefix("new-co-")
                    .is_some_and(|n| n.parse::<u32>().is_ok()),
            "{slug}"
        );
        assert_eq!(org["namespace"].as_str(), Some(format!("ludis-{slug}").as_str()));
        assert_eq!(org["flightings"].as_array().unwrap().len(), 5);
        assert_eq!(org["flightings"][1]["active"], false);
        assert_eq!(b["namespace_created"], app.state.kube.is_some());
        let id = org["id"].as_str().unwrap().to_owned();
        let (s, b) = app
            .post("/v1/organizations", Some(&root), org_body("New Co."))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (409, Some("An organization with this name already exists"))
        );

        let (s, b) = app
            .put(
                &format!("/v1/organizations/{id}"),
                &root,
                json!({"organization": {"description": "d", "max_seats": "7"}}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Organization updated successfully!")),
            "{k}: {b}"
        );
        assert_eq!(
            (
                b["organization"]["max_seats"].as_i64(),
                b["organization"]["name"].as_str()
            ),
            (Some(7), Some("New Co."))
        );
        let (s, b) = app
            .put(
                &format!("/v1/organizations/{}", t.org),
                &t.admin_token,
                org_body("Hijack"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only a superadmin can edit organizations"))
        );

        // Lists: everything for the superadmin, one's own for an administrator.
        let (_, b) = app.get("/v1/organizations/list?page=1&limit=10", &root).await;
        assert_eq!(b["total"], 2, "{k}");
        let (_, b) = app.get("/v1/organizations/list", &t.admin_token).await;
        assert_eq!(b["total"], 1);
        assert_eq!(b["organizations"][0]["active_users"], 3);
        let (_, b) = app.get("/v1/organizations/activeUserCounts", &root).await;
        assert_eq!(b["counts"].as_array().unwrap().len(), 2);
        let (s, _) = app.get("/v1/organizations/activeUserCounts", &t.dev_token).await;
        assert_eq!(s, 403);

        // Deletion is refused while users remain.
        let (s, b) = app.delete(&format!("/v1/organizations/{}", t.org), &root).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (
                409,
                Some("Acme still owns 3 users. Delete or move them before deleting the organization.")
            ),
            "{k}"
        );
        let (s, b) = app.delete(&format!("/v1/organizations/{id}"), &root).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Organization Deleted!")),
            "{k}: {b}"
        );
        assert_eq!(app.get(&format!("/v1/organizations/{id}"), &root).await.0, 404);
    }
}

#[tokio::test]
async fn administrators_set_the_2fa_requirement() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let path = format!("/v1/organizations/{}/2farequired", t.org);
        let (s, _) = app
            .put(&path, &t.dev_token, json!({"new2faRequiredStatus": true}))
            .await;
        assert_eq!(s, 403);
        let (s, b) = app
            .put(&path, &t.admin_token, json!({"new2faRequiredStatus": true}))
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("2FA Status Updated Successfully!")),
            "{}",
            app.kind
        );
        let (_, b) = app
            .get(&format!("/v1/organizations/{}", t.org), &t.admin_token)
            .await;
        assert_eq!(
            b.get("code"),
            Some(&json!("two_factor_enrollment_required")),
            "the admin must enrol now"
        );
    }
}

#[tokio::test]
async fn flighting_rules_are_enforced_by_the_api() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let other = app.org("Other", 10).await;
        let root = superadmin(&app, &t.org).await;
        let k = app.kind;
        let (s, b) = app.get("/v1/flighting", &t.dev_token).await;
        assert_eq!(s, 200);
        assert_eq!(b["flightings"].as_array().unwrap().len(), 5);
        assert_eq!(b["editable_roles"], json!([]));
        let (_, b) = app.get("/v1/flighting", &t.admin_token).await;
        assert_eq!(b["editable_roles"], json!(["developer", "management"]));

        let set = |key: &str, active: bool, roles: &[&str]| json!({"flightings": [{"key": key, "name": "x", "active": active, "user_roles": roles}]});
        let cases = [
            (
                &t.dev_token,
                set("projects", true, &["developer"]),
                403,
                "Only administrators and superadmins can change flighting",
            ),
            (
                &t.admin_token,
                set("projects", true, &["developer"]),
                403,
                "Only a superadmin can change which features administrators see",
            ),
            (
                &t.admin_token,
                set("projects", false, &["developer", "administrator"]),
                403,
                "Only a superadmin can switch a feature on or off",
            ),
            (
                &t.admin_token,
                set("crypto", true, &["developer"]),
                400,
                "Unknown feature key: crypto",
            ),
            (
                &t.admin_token,
                set("projects", true, &["superadmin"]),
                400,
                "Unknown role: superadmin",
            ),
        ];
        for (token, body, status, message) in cases {
            let (s, b) = app.put("/v1/flighting", token, body).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (status, Some(message)),
                "{k}"
            );
        }
        let (s, b) = app
            .put(
                &format!("/v1/flighting?organization={other}"),
                &t.admin_token,
                set("projects", true, &["administrator"]),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (404, Some("Organization not found"))
        );

        // The administrator takes projects away from developers: the API answers 403 for them.
        let (s, b) = app
            .put(
                "/v1/flighting",
                &t.admin_token,
                set("projects", true, &["management", "administrator"]),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Flighting configuration updated!")),
            "{k}: {b}"
        );
        let (s, b) = app.get("/v2/projects", &t.dev_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("The Projects feature is not enabled for your role")),
            "{k}"
        );
        assert_eq!(b["code"], "feature_disabled");
        let (s, _) = app.get("/v2/projects/abc", &t.dev_token).await;
        assert_eq!(s, 403);
        // Others pass the gate (the route itself answers).
        assert_ne!(app.get("/v2/projects", &t.admin_token).await.0, 403);
        assert_ne!(app.get("/v1/datasets/listdatasets", &t.dev_token).await.0, 403);

        // A superadmin switches datasets off in another organization, and for administrators.
        let (s, _) = app
            .put(
                &format!("/v1/flighting?organization={other}"),
                &root,
                set("datasets", false, &["developer"]),
            )
            .await;
        assert_eq!(s, 200);
        let (_, b) = app
            .get(&format!("/v1/flighting?organization={other}"), &root)
            .await;
        assert_eq!(
            b["flightings"][3],
            json!({"key": "datasets", "name": "Datasets", "active": false, "user_roles": ["developer"]})
        );
        let (s, _) = app
            .put("/v1/flighting", &root, set("workflows", true, &["developer"]))
            .await;
        assert_eq!(s, 200);
        let (s, b) = app.get("/v2/workflows", &t.admin_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("The Workflows feature is not enabled for your role"))
        );
        assert_ne!(
            app.get("/v2/workflows", &root).await.0,
            403,
            "a superadmin always passes"
        );
    }
}

#[tokio::test]
async fn config_is_public() {
    for app in apps().await {
        let (s, b) = app.call(Method::GET, "/v1/config", None, None).await;
        assert_eq!(s, 200);
        assert_eq!(b["config"]["minPasswordLength"], 6);
        assert_eq!(
            b["config"]["featureKeys"],
            json!(["insights", "projects", "workflows", "datasets", "notebooks"])
        );
        assert_eq!(
            b["config"]["roles"],
            json!(["developer", "management", "administrator", "superadmin"])
        );
    }
}
