//! The API's keys in a Secret of its own namespace (`LUDIS_KEYS_SECRET`), for installs that render
//! no key material (a chart rendered by `helm template`, as Argo CD does, must not produce new keys
//! on every render): the first replica to start creates the Secret with generated keys, and every
//! start reads it. The creation is atomic — the API server lets one create win, and a replica
//! answered 409 AlreadyExists reads the winner's Secret — so concurrent first starts agree.
//!
//! The Secret holds `jwt-secret`, `encryption-keys` and, generated with them, `admin-password`: the
//! first superadmin's password when `LUDIS_ADMIN_PASSWORD` is not set, so it can be read from the
//! cluster instead of a log. A Secret made elsewhere (e.g. by an earlier chart) without
//! `admin-password` is fine; one without the two keys is refused, never completed (the API may only
//! get and create that Secret).

use std::collections::BTreeMap;

use k8s_openapi::{ByteString, api::core::v1::Secret as KubeSecret};
use kube::{
    Api, Client,
    api::{ObjectMeta, PostParams},
};

use crate::{crypto, settings::Secret};

/// Key of the access tokens' signing key.
pub const JWT_SECRET: &str = "jwt-secret";
/// Key of the encryption keys of secrets at rest.
pub const ENCRYPTION_KEYS: &str = "encryption-keys";
/// Key of the generated password of the first superadmin.
pub const ADMIN_PASSWORD: &str = "admin-password";

/// The keys read from (or written to) the Secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    pub jwt_secret: Secret,
    pub encryption_keys: Secret,
    /// Absent in a Secret made before the API kept the password there.
    pub admin_password: Option<Secret>,
}

impl Keys {
    /// New random keys: a signing key of 48 random bytes (64 characters), one AES-256 key `k1`, a
    /// password of 12 random bytes (16 characters), as the development secrets file and the seeds
    /// make them.
    pub fn generate() -> Self {
        Self {
            jwt_secret: Secret(crypto::random_token(48)),
            encryption_keys: Secret(crypto::Keyring::generate_spec("k1")),
            admin_password: Some(Secret(crypto::random_token(12))),
        }
    }
}

/// Why the keys Secret could not be used.
#[derive(Debug, thiserror::Error)]
pub enum KeysSecretError {
    #[error("failed to read the keys Secret {namespace}/{name}")]
    Read {
        namespace: String,
        name: String,
        #[source]
        source: kube::Error,
    },
    #[error("failed to create the keys Secret {namespace}/{name}")]
    Create {
        namespace: String,
        name: String,
        #[source]
        source: kube::Error,
    },
    #[error(
        "the keys Secret {namespace}/{name} has no usable {key:?}: it must hold `{JWT_SECRET}` and \
         `{ENCRYPTION_KEYS}` as text (delete it to have the API generate new keys, which makes \
         every stored secret unreadable)"
    )]
    Invalid {
        namespace: String,
        name: String,
        key: &'static str,
    },
}

/// The keys of Secret `name` in `namespace`, created with new keys when it does not exist.
pub async fn load_or_create(client: &Client, namespace: &str, name: &str) -> Result<Keys, KeysSecretError> {
    let api: Api<KubeSecret> = Api::namespaced(client.clone(), namespace);
    let read = |source| KeysSecretError::Read {
        namespace: namespace.to_owned(),
        name: name.to_owned(),
        source,
    };
    if let Some(existing) = api.get_opt(name).await.map_err(read)? {
        return keys_of(&existing, namespace, name);
    }
    let keys = Keys::generate();
    match api.create(&PostParams::default(), &secret_of(name, &keys)).await {
        Ok(_) => {
            tracing::info!(namespace, name, "created the keys Secret with new keys");
            Ok(keys)
        }
        // Another replica created it first: its keys are the keys.
        Err(kube::Error::Api(e)) if e.code == 409 => {
            let winner = api.get(name).await.map_err(read)?;
            keys_of(&winner, namespace, name)
        }
        Err(source) => Err(KeysSecretError::Create {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            source,
        }),
    }
}

/// The Secret object holding `keys`.
fn secret_of(name: &str, keys: &Keys) -> KubeSecret {
    let mut data = BTreeMap::from([
        (JWT_SECRET.to_owned(), text(&keys.jwt_secret)),
        (ENCRYPTION_KEYS.to_owned(), text(&keys.encryption_keys)),
    ]);
    if let Some(password) = &keys.admin_password {
        data.insert(ADMIN_PASSWORD.to_owned(), text(password));
    }
    KubeSecret {
        metadata: ObjectMeta {
            name: Some(name.to_owned()),
            labels: Some(BTreeMap::from([(
                "app.kubernetes.io/managed-by".to_owned(),
                ludis_crds::FIELD_MANAGER_API.to_owned(),
            )])),
            ..Default::default()
        },
        type_: Some("Opaque".to_owned()),
        data: Some(data),
        ..Default::default()
    }
}

fn text(secret: &Secret) -> ByteString {
    ByteString(secret.expose().as_bytes().to_vec())
}

/// The keys a Secret holds; the two keys must be there, as non-empty text.
fn keys_of(secret: &KubeSecret, namespace: &str, name: &str) -> Result<Keys, KeysSecretError> {
    let value = |key: &str| {
        let bytes = secret.data.as_ref()?.get(key)?;
        let text = std::str::from_utf8(&bytes.0).ok()?.trim();
        (!text.is_empty()).then(|| Secret(text.to_owned()))
    };
    let required = |key: &'static str| {
        value(key).ok_or_else(|| KeysSecretError::Invalid {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            key,
        })
    };
    Ok(Keys {
        jwt_secret: required(JWT_SECRET)?,
        encryption_keys: required(ENCRYPTION_KEYS)?,
        admin_password: value(ADMIN_PASSWORD),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_round_trips_its_keys() {
        let keys = Keys::generate();
        assert_eq!(keys.jwt_secret.expose().len(), 64);
        assert_eq!(keys.admin_password.as_ref().map(|p| p.expose().len()), Some(16));
        crypto::Keyring::parse(keys.encryption_keys.expose()).expect("a valid keyring");
        let secret = secret_of("ludis-api-keys", &keys);
        assert_eq!(keys_of(&secret, "ns", "ludis-api-keys").unwrap(), keys);
        assert_ne!(Keys::generate(), keys, "new keys every time");
    }

    #[test]
    fn the_admin_password_is_optional_and_the_keys_are_not() {
        let mut keys = Keys::generate();
        keys.admin_password = None;
        let secret = secret_of("k", &keys);
        assert_eq!(keys_of(&secret, "ns", "k").unwrap().admin_password, None);

        for missing in [JWT_SECRET, ENCRYPTION_KEYS] {
            let mut secret = secret_of("k", &Keys::generate());
            secret.data.as_mut().unwrap().remove(missing);
            let err = keys_of(&secret, "ns", "k").unwrap_err().to_string();
            assert!(err.contains(missing) && err.contains("ns/k"), "{err}");
        }
        let mut blank = secret_of("k", &Keys::generate());
        blank
            .data
            .as_mut()
            .unwrap()
            .insert(JWT_SECRET.into(), ByteString(b" \n".to_vec()));
        assert!(keys_of(&blank, "ns", "k").is_err(), "blank is missing");
        let mut binary = secret_of("k", &Keys::generate());
        binary
            .data
            .as_mut()
            .unwrap()
            .insert(ENCRYPTION_KEYS.into(), ByteString(vec![0xff, 0xfe]));
        assert!(keys_of(&binary, "ns", "k").is_err(), "not text");
    }

    #[test]
    fn keys_do_not_debug_print() {
        let keys = Keys::generate();
        let shown = format!("{keys:?}");
        assert!(!shown.contains(keys.jwt_secret.expose()), "{shown}");
    }
}
