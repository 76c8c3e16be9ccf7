//! The keys Secret the API creates at its first start (`LUDIS_KEYS_SECRET`), against a real
//! control plane (KUBECONFIG; skipped locally without one): concurrent first starts agree on one
//! set of keys, later starts read them, the first superadmin signs in with the Secret's password,
//! and a Secret made elsewhere is read as it is.

use std::collections::BTreeMap;

use k8s_openapi::{ByteString, api::core::v1::Secret};
use kube::{
    Api,
    api::{DeleteParams, PostParams},
};
use ludis_api::cluster::keys_secret::{self, ADMIN_PASSWORD, ENCRYPTION_KEYS, JWT_SECRET, Keys};

use crate::helpers::{cluster, missing_dir, spawn_app_with};

const NAMESPACE: &str = "default";

fn unique_name() -> String {
    format!(
        "ludis-keys-test-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
}

async fn stored(api: &Api<Secret>, name: &str) -> BTreeMap<String, String> {
    api.get(name)
        .await
        .expect("the Secret exists")
        .data
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| (k, String::from_utf8(v.0).expect("text")))
        .collect()
}

#[tokio::test]
async fn concurrent_first_starts_agree_on_one_set_of_keys() {
    let Some(client) = cluster().await else {
        return;
    };
    let secrets: Api<Secret> = Api::namespaced(client.clone(), NAMESPACE);
    // Several rounds, each two "replicas" with a client of their own starting at the same time:
    // both find no Secret and both create one, or one reads the other's.
    for _ in 0..5 {
        let name = unique_name();
        let other = kube::Client::try_default().await.expect("a second client");
        let (a, b) = tokio::join!(
            keys_secret::load_or_create(&client, NAMESPACE, &name),
            keys_secret::load_or_create(&other, NAMESPACE, &name),
        );
        let (a, b) = (a.expect("first replica"), b.expect("second replica"));
        assert_eq!(a, b, "both replicas use the same keys");
        let data = stored(&secrets, &name).await;
        assert_eq!(data[JWT_SECRET], a.jwt_secret.expose());
        assert_eq!(data[ENCRYPTION_KEYS], a.encryption_keys.expose());
        assert_eq!(
            Some(data[ADMIN_PASSWORD].as_str()),
            a.admin_password.as_ref().map(|p| p.expose())
        );
        ludis_api::crypto::Keyring::parse(a.encryption_keys.expose()).expect("a usable keyring");

        // A later start reads them again.
        let again = keys_secret::load_or_create(&client, NAMESPACE, &name)
            .await
            .unwrap();
        assert_eq!(again, a);
        secrets.delete(&name, &DeleteParams::default()).await.unwrap();
    }
}

#[tokio::test]
async fn a_secret_made_elsewhere_is_read_as_it_is_or_refused() {
    let Some(client) = cluster().await else {
        return;
    };
    let secrets: Api<Secret> = Api::namespaced(client.clone(), NAMESPACE);
    let make = |name: &str, data: &[(&str, &str)]| Secret {
        metadata: kube::api::ObjectMeta {
            name: Some(name.to_owned()),
            ..Default::default()
        },
        data: Some(
            data.iter()
                .map(|(k, v)| ((*k).to_owned(), ByteString(v.as_bytes().to_vec())))
                .collect(),
        ),
        ..Default::default()
    };
    // As the chart's generated Secret was: the two keys, no password.
    let old = unique_name();
    let spec = "k1:dGVzdC1rZXktdGVzdC1rZXktdGVzdC1rZXktMTIzNDU=";
    secrets
        .create(
            &PostParams::default(),
            &make(
                &old,
                &[
                    (JWT_SECRET, "an-older-signing-key-of-forty-eight-characters-xx"),
                    (ENCRYPTION_KEYS, spec),
                ],
            ),
        )
        .await
        .unwrap();
    let keys = keys_secret::load_or_create(&client, NAMESPACE, &old)
        .await
        .unwrap();
    assert_eq!(
        keys,
        Keys {
            jwt_secret: ludis_api::Secret("an-older-signing-key-of-forty-eight-characters-xx".into()),
            encryption_keys: ludis_api::Secret(spec.into()),
            admin_password: None,
        }
    );
    assert_eq!(stored(&secrets, &old).await.len(), 2, "never completed");

    // Without the encryption keys: refused, naming what is missing, and left alone.
    let broken = unique_name();
    secrets
        .create(
            &PostParams::default(),
            &make(&broken, &[(JWT_SECRET, "x".repeat(48).as_str())]),
        )
        .await
        .unwrap();
    let err = keys_secret::load_or_create(&client, NAMESPACE, &broken)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.contains(ENCRYPTION_KEYS) && err.contains(&broken), "{err}");
    assert_eq!(stored(&secrets, &broken).await.len(), 1);

    for name in [old, broken] {
        secrets.delete(&name, &DeleteParams::default()).await.unwrap();
    }
}

#[tokio::test]
async fn servers_started_together_use_the_secrets_keys_and_its_admin_password() {
    let Some(client) = cluster().await else {
        return;
    };
    let secrets: Api<Secret> = Api::namespaced(client, NAMESPACE);
    let name = unique_name();
    // Two API servers, each with a database of its own, no keys in their settings, one Secret.
    let settings = || {
        let name = name.clone();
        move |dir: &tempfile::TempDir| {
            let url = format!("sqlite://{}?mode=rwc", dir.path().join("ludis.db").display());
            let mut s = ludis_api::Settings::for_tests(url, missing_dir());
            s.jwt_secret = ludis_api::Secret::default();
            s.encryption_keys = ludis_api::Secret::default();
            s.keys_secret = name;
            s.system_namespace = NAMESPACE.into();
            s.require_cluster = true;
            s
        }
    };
    let (a, b) = tokio::join!(spawn_app_with(settings()), spawn_app_with(settings()));
    let data = stored(&secrets, &name).await;
    for app in [&a, &b] {
        assert_eq!(app.state.settings.jwt_secret.expose(), data[JWT_SECRET]);
        assert_eq!(app.state.settings.encryption_keys.expose(), data[ENCRYPTION_KEYS]);
    }
    // The first superadmin is created with the Secret's password, and nothing is printed.
    let seeded = ludis_api::seeds::run(&a.state).await.unwrap();
    assert!(seeded.superadmin_created && seeded.generated_password.is_none());
    let (token, _) = a
        .login(&a.state.settings.admin_email, &data[ADMIN_PASSWORD])
        .await;
    assert!(!token.is_empty());
    secrets.delete(&name, &DeleteParams::default()).await.unwrap();
}
