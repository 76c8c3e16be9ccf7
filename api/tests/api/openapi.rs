//! The committed `api/openapi.json` (the console generates its client from it) matches the code,
//! and the server serves the same document.

use crate::helpers::apps;

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

#[test]
fn openapi_in_sync() {
    let generated = ludis_api::openapi::document_json();
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    if std::env::var_os("LUDIS_UPDATE_OPENAPI").is_some() {
        std::fs::write(PATH, &generated).unwrap();
        return;
    }
    assert!(
        committed == generated,
        "api/openapi.json is out of date: run `cargo run -p ludis-api -- --print-openapi > api/openapi.json` \
         (or LUDIS_UPDATE_OPENAPI=1 cargo test -p ludis-api --test api openapi_in_sync) and commit it"
    );
}

#[tokio::test]
async fn the_document_is_served_and_lists_every_route() {
    let app = apps().await.remove(0);
    let (s, doc) = app
        .call(reqwest::Method::GET, "/v1/openapi.json", None, None)
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        doc.to_string(),
        serde_json::from_str::<serde_json::Value>(&ludis_api::openapi::document_json())
            .unwrap()
            .to_string()
    );
    let paths = doc["paths"].as_object().unwrap();
    for p in [
        "/healthz",
        "/readyz",
        "/v1/openapi.json",
        "/v1/auth/login",
        "/v1/auth/refreshtoken",
        "/v1/auth/logout",
        "/v1/auth/changepassword",
        "/v1/auth/enable2fa/{uid}",
        "/v1/auth/verify2fa",
    ] {
        assert!(paths.contains_key(p), "{p} is missing from the document");
    }
}

/// Every operation has an id of its own: the console's generated types are keyed by it, and two
/// handlers with one name (in two route modules) would silently share one type.
#[test]
fn operation_ids_are_unique() {
    let doc: serde_json::Value = serde_json::from_str(&ludis_api::openapi::document_json()).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_default().to_owned();
            if let Some(first) = seen.insert(id.clone(), format!("{method} {path}")) {
                panic!("operationId {id:?} is used by {first} and by {method} {path}");
            }
        }
    }
    assert!(seen.len() > 100, "{}", seen.len());
}
