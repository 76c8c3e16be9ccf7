//! Users: role rules, seat limits, mass assignment, visibility across organizations, git details,
//! API keys, photo upload URLs and ownership moves.

use serde_json::{Value, json};

use crate::helpers::apps;

fn new_user(email: &str, role: &str) -> Value {
    json!({"user": {"email": email, "password": "secret1", "first_name": "New", "last_name": "Person",
        "role": role, "timezone": "Europe/Paris"}})
}

#[tokio::test]
async fn create_user_validates_every_field() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let k = app.kind;
        let cases = [
            ("first_name", json!(""), "First name is required"),
            ("last_name", json!(" "), "Last name is required"),
            ("email", json!(""), "Email is required"),
            ("email", json!("not-an-email"), "Email is invalid!"),
            ("role", json!(""), "Role is required"),
            ("timezone", json!(""), "Timezone is required"),
            ("password", json!(""), "Password is required"),
            (
                "password",
                json!("12345"),
                "Password must be at least 6 characters long",
            ),
            ("role", json!("king"), "Invalid role: king"),
            (
                "date_format",
                json!("YYYY"),
                "Date format must be one of MM/DD/YY, DD/MM/YY, MMMM/DD/YY, DD/MMMM/YY, MM/DD/YYYY",
            ),
        ];
        for (field, value, message) in cases {
            let mut body = new_user("x@acme.example", "developer");
            body["user"][field] = value;
            let (s, b) = app.post("/v1/users", Some(&t.admin_token), body).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (400, Some(message)),
                "{k} {field}"
            );
            assert_eq!(b["success"], false);
        }
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&t.admin_token),
                new_user("new@acme.example", "management"),
            )
            .await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["message"], "User created successfully!");
        assert_eq!(b["user"]["organization"], t.org.as_str());
        assert_eq!(b["user"]["api_key"], Value::Null);
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&t.admin_token),
                new_user("NEW@acme.example", "developer"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (409, Some("A user with this email already exists")),
            "{k}"
        );
        // The new user can sign in.
        app.login("new@acme.example", "secret1").await;
    }
}

#[tokio::test]
async fn role_rules_for_creating_users() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let other = app.org("Other", 10).await;
        let k = app.kind;
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&t.dev_token),
                new_user("a@acme.example", "developer"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only administrators can manage users")),
            "{k}"
        );
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&t.admin_token),
                new_user("b@acme.example", "superadmin"),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (403, Some("Only a superadmin can assign the superadmin role")),
            "{k}"
        );
        let mut elsewhere = new_user("c@acme.example", "developer");
        elsewhere["user"]["organization"] = json!(other);
        let (s, b) = app
            .post("/v1/users", Some(&t.admin_token), elsewhere.clone())
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (404, Some("Organization not found")),
            "{k}"
        );

        app.user("root@ludis.example", "root-pass", "superadmin", &t.org)
            .await;
        let (root, _) = app.login("root@ludis.example", "root-pass").await;
        let (s, b) = app.post("/v1/users", Some(&root), elsewhere).await;
        assert_eq!(s, 201, "{k}: {b}");
        assert_eq!(b["user"]["organization"], other.as_str());
        let (s, _) = app
            .post("/v1/users", Some(&root), new_user("d@acme.example", "superadmin"))
            .await;
        assert_eq!(s, 201);
    }
}

#[tokio::test]
async fn seat_limits_answer_limit_exceeded() {
    for app in apps().await {
        let org = app.org("Tiny", 2).await;
        app.user("admin@tiny.example", "admin-pass", "administrator", &org)
            .await;
        let (admin, _) = app.login("admin@tiny.example", "admin-pass").await;
        let (s, _) = app
            .post(
                "/v1/users",
                Some(&admin),
                new_user("one@tiny.example", "developer"),
            )
            .await;
        assert_eq!(s, 201);
        let (s, b) = app
            .post(
                "/v1/users",
                Some(&admin),
                new_user("two@tiny.example", "developer"),
            )
            .await;
        assert_eq!(s, 403, "{}", app.kind);
        assert_eq!(b["limitExceded"], true);
        assert_eq!(b["code"], "seat_limit_reached");
        assert_eq!(
            b["message"],
            "Limit Reached: Tiny has 2 active users and 2 seats. Remove a user or ask for more seats."
        );
        let (s, b) = app
            .get(&format!("/v1/organizations/{org}/availableSeats"), &admin)
            .await;
        assert_eq!(s, 200);
        assert_eq!(
            (
                b["availableSeats"].as_i64(),
                b["maxSeats"].as_i64(),
                b["activeUsers"].as_i64()
            ),
            (Some(0), Some(2), Some(2))
        );
    }
}

#[tokio::test]
async fn profile_updates_cannot_raise_a_role_or_move_organizations() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let other = app.org("Other", 10).await;
        let k = app.kind;
        let path = format!("/v1/users/{}", t.dev);
        let cases = [
            (
                json!({"role": "superadmin"}),
                403,
                "Only a superadmin can assign the superadmin role",
            ),
            (
                json!({"role": "administrator"}),
                403,
                "You cannot change your own role",
            ),
            (
                json!({"organization": other}),
                403,
                "Only a superadmin can move a user to another organization",
            ),
            (
                json!({"status": "inactive"}),
                403,
                "Only administrators can change a user's status",
            ),
            (
                json!({"email": "me@else.example"}),
                403,
                "Only administrators can change a user's e-mail",
            ),
            (
                json!({"password": "hunter22"}),
                403,
                "You are not allowed to set this user's password",
            ),
            (json!({"first_name": ""}), 400, "First name is required"),
            (
                json!({"git_username": "ann"}),
                400,
                "Please enter both the Git username and the personal access token",
            ),
            (
                json!({"photo_path": "user asset images/someone-else/x.png"}),
                400,
                "Invalid photo path",
            ),
        ];
        for (user, status, message) in cases {
            let (s, b) = app.put(&path, &t.dev_token, json!({"user": user})).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (status, Some(message)),
                "{k}: {user}"
            );
        }
        // Unchanged values (a whole form sent back) and unknown fields are fine; 2FA fields are not accepted.
        let (s, b) = app
            .put(
                &path,
                &t.dev_token,
                json!({"user": {"first_name": "Dee", "last_name": "Veloper", "role": "developer", "organization": t.org,
                    "timezone": "Asia/Tokyo", "date_format": "DD/MM/YY", "enabled_2fa": true, "confirmed_2fa": true,
                    "secret_2fa": "AAAA", "api_key": "mine", "is_admin": true,
                    "photo_path": format!("user asset images/{}/p.png", t.dev),
                    "git_username": "dee", "git_token": "ghp_secret"}}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {b}");
        assert_eq!(b["message"], "Profile updated successfully!");
        let u = &b["user"];
        assert_eq!(
            (
                u["first_name"].as_str(),
                u["role"].as_str(),
                u["timezone"].as_str()
            ),
            (Some("Dee"), Some("developer"), Some("Asia/Tokyo"))
        );
        assert_eq!(
            (u["enabled_2fa"].as_bool(), u["confirmed_2fa"].as_bool()),
            (Some(false), Some(false))
        );
        assert_eq!(u["has_git_token"], true);
        assert!(
            !b.to_string().contains("ghp_secret"),
            "the token is never returned"
        );
        let stored: Option<String> = sqlx::query_scalar("SELECT git_token_enc FROM users WHERE uid = $1")
            .bind(&t.dev)
            .fetch_one(&app.state.db)
            .await
            .unwrap();
        let stored = stored.unwrap();
        assert!(
            stored.starts_with("t1:") && !stored.contains("ghp_secret"),
            "encrypted at rest: {stored}"
        );
        assert_eq!(app.state.auth.keyring.decrypt(&stored).unwrap(), "ghp_secret");
    }
}

#[tokio::test]
async fn administrators_manage_their_organization_only() {
    for app in apps().await {
        let a = app.org_with_admin_and_dev("Acme").await;
        let b = app.org_with_admin_and_dev("Beta").await;
        let k = app.kind;
        // Nothing of another organization is reachable: 404, never 403.
        for (method, path) in [
            ("GET", format!("/v1/users/{}", b.dev)),
            ("PUT", format!("/v1/users/{}", b.dev)),
            ("DELETE", format!("/v1/users/{}", b.dev)),
            ("GET", format!("/v1/organizations/{}", b.org)),
            ("GET", format!("/v1/organizations/{}/availableSeats", b.org)),
            ("PUT", format!("/v1/organizations/{}/2farequired", b.org)),
            ("GET", format!("/v1/flighting?organization={}", b.org)),
            ("GET", format!("/v1/users?organization={}", b.org)),
            ("GET", format!("/v1/metrics?organizationId={}", b.org)),
        ] {
            let body = match method {
                "PUT" if path.contains("2fa") => Some(json!({"new2faRequiredStatus": true})),
                "PUT" => Some(json!({"user": {"role": "developer"}})),
                _ => None,
            };
            let (s, _) = app
                .call(method.parse().unwrap(), &path, Some(&a.admin_token), body)
                .await;
            assert_eq!(s, 404, "{k}: {method} {path}");
        }
        // Their own users: change role and password, deactivate, delete.
        let path = format!("/v1/users/{}", a.dev);
        let (s, body) = app
            .put(
                &path,
                &a.admin_token,
                json!({"user": {"role": "management", "password": ""}}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), body["message"].as_str()),
            (200, Some("User Updated successfully!")),
            "{k}"
        );
        assert_eq!(body["user"]["role"], "management");
        let (s, _) = app
            .put(&path, &a.admin_token, json!({"user": {"password": "reset-pass"}}))
            .await;
        assert_eq!(s, 200);
        assert_eq!(
            app.get(&path, &a.dev_token).await.0,
            401,
            "a password reset ends the user's sessions"
        );
        let (dev_token, _) = app.login("dev@acme.example", "reset-pass").await;
        let (s, _) = app
            .put(&path, &a.admin_token, json!({"user": {"status": "inactive"}}))
            .await;
        assert_eq!(s, 200);
        let (s, body) = app.get(&path, &dev_token).await;
        assert_eq!(
            (s.as_u16(), body["code"].as_str()),
            (401, Some("session_revoked"))
        );

        // The list is the admin's organization.
        let (s, body) = app
            .get("/v1/users?limit=10&searchTerm=ACME", &a.admin_token)
            .await;
        assert_eq!(s, 200);
        assert_eq!(body["total"], 2, "{k}: {body}");
        let (s, body) = app.get("/v1/users?page=2&limit=1", &a.admin_token).await;
        assert_eq!(
            (
                s.as_u16(),
                body["users"].as_array().unwrap().len(),
                body["total"].as_i64()
            ),
            (200, 1, Some(2))
        );

        let (s, body) = app
            .delete(&format!("/v1/users/{}", a.admin), &a.admin_token)
            .await;
        assert_eq!(
            (s.as_u16(), body["message"].as_str()),
            (403, Some("You cannot delete your own account"))
        );
        let (s, body) = app.delete(&path, &a.admin_token).await;
        assert_eq!(
            (s.as_u16(), body["message"].as_str()),
            (200, Some("User Deleted"))
        );
        assert_eq!(app.get(&path, &a.admin_token).await.0, 404);

        // A superadmin edits anyone; an administrator cannot touch a superadmin.
        let root = app
            .user("root@ludis.example", "root-pass", "superadmin", &a.org)
            .await;
        let (root_token, _) = app.login("root@ludis.example", "root-pass").await;
        let (s, body) = app
            .put(
                &format!("/v1/users/{root}"),
                &a.admin_token,
                json!({"user": {"first_name": "X"}}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), body["message"].as_str()),
            (403, Some("Only a superadmin can change a superadmin"))
        );
        let (s, body) = app
            .put(
                &format!("/v1/users/{}", b.dev),
                &root_token,
                json!({"user": {"organization": a.org, "role": "administrator"}}),
            )
            .await;
        assert_eq!(s, 200, "{k}: {body}");
        assert_eq!(body["user"]["organization"], a.org.as_str());
    }
}

#[tokio::test]
async fn git_details_are_both_or_neither() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        for body in [
            json!({"git_username": "dee"}),
            json!({"git_token": "t"}),
            json!({"git_username": " ", "git_token": "t"}),
        ] {
            let (s, b) = app.put("/v1/git_detail", &t.dev_token, body).await;
            assert_eq!(
                (s.as_u16(), b["message"].as_str()),
                (
                    400,
                    Some("Please enter both the Git username and the personal access token")
                ),
                "{}",
                app.kind
            );
        }
        let (s, b) = app
            .put(
                "/v1/git_detail",
                &t.dev_token,
                json!({"git_username": "dee", "git_token": "ghp_x"}),
            )
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("Profile updated successfully!"))
        );
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &t.dev_token).await;
        assert_eq!(
            (
                b["user"]["git_username"].as_str(),
                b["user"]["has_git_token"].as_bool()
            ),
            (Some("dee"), Some(true))
        );
        let (s, _) = app.put("/v1/git_detail", &t.dev_token, json!({})).await;
        assert_eq!(s, 200);
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &t.dev_token).await;
        assert_eq!(b["user"]["has_git_token"], false);
    }
}

#[tokio::test]
async fn api_keys_are_created_rotated_and_revoked() {
    for app in apps().await {
        let t = app.org_with_admin_and_dev("Acme").await;
        let path = format!("/v1/users/{}/api_key", t.dev);
        let (s, b) = app.post(&path, Some(&t.dev_token), json!({})).await;
        assert_eq!(s, 200, "{}: {b}", app.kind);
        let key1 = b["api_key"].as_str().unwrap().to_owned();
        let with_key = |key: String| {
            let app = &app;
            let dev = t.dev.clone();
            async move {
                app.http
                    .get(app.url(&format!("/v1/users/{dev}")))
                    .header("x-api-key", key)
                    .send()
                    .await
                    .unwrap()
                    .status()
            }
        };
        assert_eq!(with_key(key1.clone()).await, 200);
        // The profile shows the key to its owner only.
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &t.dev_token).await;
        assert_eq!(b["user"]["api_key"], key1.as_str());
        let (_, b) = app.get(&format!("/v1/users/{}", t.dev), &t.admin_token).await;
        assert_eq!(b["user"]["api_key"], Value::Null);
        // Only the owner makes keys.
        let (s, _) = app.post(&path, Some(&t.admin_token), json!({})).await;
        assert_eq!(s, 403);
        // Rotation retires the old key.
        let (_, b) = app.post(&path, Some(&t.dev_token), json!({})).await;
        let key2 = b["api_key"].as_str().unwrap().to_owned();
        assert_eq!(with_key(key1).await, 401);
        assert_eq!(with_key(key2.clone()).await, 200);
        // An administrator may revoke it.
        let (s, b) = app.delete(&path, &t.admin_token).await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (200, Some("API key revoked"))
        );
        assert_eq!(with_key(key2).await, 401);
    }
}

#[tokio::test]
async fn photo_upload_urls_are_presigned_for_one_key() {
    let Ok(endpoint) = std::env::var("LUDIS_S3_ENDPOINT") else {
        assert!(
            std::env::var("CI").is_err(),
            "LUDIS_S3_ENDPOINT must be set in CI"
        );
        eprintln!("LUDIS_S3_ENDPOINT is not set: the photo upload test is skipped");
        return;
    };
    for app in crate::helpers::apps_with(|s| {
        s.s3_endpoint = endpoint.clone();
        s.s3_access_key = std::env::var("LUDIS_S3_ACCESS_KEY").unwrap_or_default();
        s.s3_secret_key = ludis_api::Secret(std::env::var("LUDIS_S3_SECRET_KEY").unwrap_or_default());
        s.s3_bucket = "ludis-test-assets".into();
    })
    .await
    {
        let t = app.org_with_admin_and_dev("Acme").await;
        let (s, b) = app
            .get("/v1/users/presign_url?user_name=dee&ext=.gif", &t.dev_token)
            .await;
        assert_eq!(
            (s.as_u16(), b["message"].as_str()),
            (400, Some("Only png, jpg and jpeg images are allowed"))
        );
        let (s, b) = app
            .get("/v1/users/presign_url?user_name=dee&ext=.png", &t.dev_token)
            .await;
        assert_eq!(s, 200, "{}: {b}", app.kind);
        let url = b["urls"][0]["presigned_url"].as_str().unwrap();
        let photo_path = b["urls"][0]["photo_path"].as_str().unwrap();
        assert!(
            photo_path.starts_with(&format!("user asset images/{}/", t.dev)) && photo_path.ends_with(".png")
        );
        let put = app
            .http
            .put(url)
            .body(vec![0x89, b'P', b'N', b'G'])
            .send()
            .await
            .unwrap();
        assert!(put.status().is_success(), "direct PUT: {}", put.status());
        // The URL is bound to PUT: a GET with it is refused.
        assert!(!app.http.get(url).send().await.unwrap().status().is_success());
        let (s, b) = app
            .put(
                &format!("/v1/users/{}", t.dev),
                &t.dev_token,
                json!({"user": {"photo_path": photo_path}}),
            )
            .await;
        assert_eq!(s, 200);
        assert_eq!(b["user"]["photo_path"], photo_path);
        // The browser loads it through a presigned GET, bound to that key.
        let (s, b) = app.get(&format!("/v1/users/{}", t.dev), &t.dev_token).await;
        assert_eq!(s, 200);
        let photo_url = b["user"]["photo_url"].as_str().expect("a photo URL");
        let got = app.http.get(photo_url).send().await.unwrap();
        assert!(got.status().is_success(), "GET photo: {}", got.status());
        assert_eq!(got.bytes().await.unwrap().as_ref(), &[0x89, b'P', b'N', b'G']);
        assert!(
            !app.http
                .put(photo_url)
                .body("x")
                .send()
                .await
                .unwrap()
                .status()
                .is_success()
        );
    }
}

#[tokio::test]
async fn migrate_entity_owner_checks_its_input() {
    for app in apps().await {
        let a = app.org_with_admin_and_dev("Acme").await;
        let b = app.org_with_admin_and_dev("Beta").await;
        let body =
            |t: &str, s: &str, d: &str| json!({"entityType": t, "sourceUserId": s, "destinationUserId": d});
        let cases = [
            (
                &a.admin_token,
                body("", &a.dev, &a.admin),
                400,
                "Please fill in all fields",
            ),
            (
                &a.admin_token,
                body("notebook", &a.dev, &a.admin),
                400,
                "Unknown entity type: notebook",
            ),
            (
                &a.admin_token,
                body("project", &b.dev, &a.admin),
                404,
                "User not found",
            ),
            (
                &a.dev_token,
                body("project", &a.dev, &a.admin),
                403,
                "Only administrators can manage users",
            ),
        ];
        for (token, req, status, message) in cases {
            let (s, r) = app.post("/v1/auth/migrateEntityOwner", Some(token), req).await;
            assert_eq!(
                (s.as_u16(), r["message"].as_str()),
                (status, Some(message)),
                "{}",
                app.kind
            );
        }
        let (s, r) = app
            .post(
                "/v1/auth/migrateEntityOwner",
                Some(&a.admin_token),
                body("project", &a.dev, &a.admin),
            )
            .await;
        // With or without a cluster: the owners in the database move (none here).
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["migrated"], 0);
    }
}
