//! First-start data: idempotent, with a generated superadmin password shown once.

use reqwest::Method;

use crate::helpers::apps;

#[tokio::test]
async fn seeding_is_idempotent_and_the_superadmin_can_sign_in() {
    for app in apps().await {
        let first = ludis_api::seeds::run(&app.state).await.unwrap();
        assert!(
            first.organization_created && first.superadmin_created,
            "{}",
            app.kind
        );
        let password = first
            .generated_password
            .clone()
            .expect("no password configured: one is generated");
        assert!(password.len() >= 16);
        let (token, _) = app.login(&app.state.settings.admin_email, &password).await;
        let (s, b) = app.get("/v1/organizations/list", &token).await;
        assert_eq!(s, 200);
        assert_eq!(b["organizations"][0]["name"], "Demo");
        assert_eq!(b["organizations"][0]["flightings"].as_array().unwrap().len(), 5);
        assert_eq!(b["organizations"][0]["max_seats"], 25);
        let (_, b) = app.get("/v1/organizations/buckets", &token).await;
        assert_eq!(b["buckets"][0]["name"], app.state.settings.s3_bucket.as_str());

        let again = ludis_api::seeds::run(&app.state).await.unwrap();
        assert_eq!(
            again,
            ludis_api::seeds::Seeded::default(),
            "{}: nothing is created twice",
            app.kind
        );
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM organizations")
            .fetch_one(&app.state.db)
            .await
            .unwrap();
        assert_eq!(n, 1);
    }
}

#[tokio::test]
async fn the_fifteen_default_images_are_served() {
    let app = apps().await.remove(0);
    let (s, b) = app.call(Method::GET, "/v1/images/defaults", None, None).await;
    assert_eq!(s, 200);
    let images = b["images"].as_array().unwrap();
    assert_eq!(images.len(), 15);
    for image in images {
        let res = app
            .http
            .get(app.url(image["url"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "image/svg+xml");
        assert!(res.text().await.unwrap().starts_with("<svg"));
    }
    let (s, b) = app
        .call(Method::GET, "/v1/images/defaults/nope.svg", None, None)
        .await;
    assert_eq!(
        (s.as_u16(), b["message"].as_str()),
        (404, Some("Image not found"))
    );
}
