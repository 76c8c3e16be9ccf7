//! Small cryptographic helpers over ring (the provider rustls and kube already link):
//! randomness, SHA-256 digests, and AES-256-GCM for secrets at rest with a key id stored beside
//! each value (`<key id>:<base64 nonce ‖ ciphertext>`).

use std::collections::HashMap;

use anyhow::{Context as _, bail};
use base64::{Engine as _, engine::general_purpose::STANDARD, engine::general_purpose::URL_SAFE_NO_PAD};
use ring::{
    aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey},
    digest,
    rand::{SecureRandom, SystemRandom},
};

/// `n` random bytes from the system generator.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n];
    SystemRandom::new()
        .fill(&mut buf)
        .expect("the system random generator works");
    buf
}

/// A random URL-safe token of `n` random bytes.
pub fn random_token(n: usize) -> String {
    URL_SAFE_NO_PAD.encode(random_bytes(n))
}

/// Hex SHA-256 of a string (for refresh tokens and API keys, which are random and long, so a
/// fast digest is enough).
pub fn sha256_hex(s: &str) -> String {
    digest::digest(&digest::SHA256, s.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The AES-256-GCM keys of secrets at rest. The first key encrypts; every key decrypts values
/// that name it.
pub struct Keyring {
    current: String,
    keys: HashMap<String, LessSafeKey>,
}

impl std::fmt::Debug for Keyring {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keyring")
            .field("current", &self.current)
            .finish_non_exhaustive()
    }
}

impl Keyring {
    /// Parses `id:base64key[,id:base64key…]`.
    pub fn parse(spec: &str) -> anyhow::Result<Self> {
        let mut keys = HashMap::new();
        let mut current = None;
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (id, key) = part
                .split_once(':')
                .context("an encryption key must look like id:base64key")?;
            if id.is_empty() || id.contains(':') {
                bail!("an encryption key id must be non-empty");
            }
            let bytes = STANDARD
                .decode(key)
                .with_context(|| format!("encryption key {id} is not valid base64"))?;
            if bytes.len() != 32 {
                bail!("encryption key {id} must be 32 bytes, not {}", bytes.len());
            }
            let unbound =
                UnboundKey::new(&AES_256_GCM, &bytes).map_err(|_| anyhow::anyhow!("bad key {id}"))?;
            keys.insert(id.to_owned(), LessSafeKey::new(unbound));
            current.get_or_insert_with(|| id.to_owned());
        }
        let current = current.context("no encryption key configured")?;
        Ok(Self { current, keys })
    }

    /// A new random key spec (`id:base64`).
    pub fn generate_spec(id: &str) -> String {
        format!("{id}:{}", STANDARD.encode(random_bytes(32)))
    }

    pub fn has_key(&self, id: &str) -> bool {
        self.keys.contains_key(id)
    }

    /// The key id of a stored value.
    pub fn key_id(stored: &str) -> Option<&str> {
        stored.split_once(':').map(|(id, _)| id)
    }

    pub fn encrypt(&self, plaintext: &str) -> String {
        let key = &self.keys[&self.current];
        let nonce_bytes: [u8; NONCE_LEN] = random_bytes(NONCE_LEN).try_into().expect("nonce length");
        let mut data = plaintext.as_bytes().to_vec();
        key.seal_in_place_append_tag(
            Nonce::assume_unique_for_key(nonce_bytes),
            Aad::from(self.current.as_bytes()),
            &mut data,
        )
        .expect("AES-GCM sealing does not fail for small inputs");
        let mut out = nonce_bytes.to_vec();
        out.extend(data);
        format!("{}:{}", self.current, STANDARD.encode(out))
    }

    pub fn decrypt(&self, stored: &str) -> anyhow::Result<String> {
        let (id, b64) = stored.split_once(':').context("malformed encrypted value")?;
        let key = self
            .keys
            .get(id)
            .with_context(|| format!("no encryption key {id} is configured"))?;
        let raw = STANDARD.decode(b64).context("malformed encrypted value")?;
        if raw.len() < NONCE_LEN {
            bail!("malformed encrypted value");
        }
        let (nonce, sealed) = raw.split_at(NONCE_LEN);
        let mut sealed = sealed.to_vec();
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| anyhow::anyhow!("bad nonce"))?;
        let plain = key
            .open_in_place(nonce, Aad::from(id.as_bytes()), &mut sealed)
            .map_err(|_| anyhow::anyhow!("an encrypted value failed authentication"))?;
        Ok(String::from_utf8(plain.to_vec())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_name_their_key() {
        let ring = Keyring::parse(&Keyring::generate_spec("k1")).unwrap();
        let sealed = ring.encrypt("ghp_secret");
        assert!(sealed.starts_with("k1:"));
        assert!(!sealed.contains("ghp_secret"));
        assert_ne!(sealed, ring.encrypt("ghp_secret"), "nonces differ");
        assert_eq!(ring.decrypt(&sealed).unwrap(), "ghp_secret");
    }

    #[test]
    fn old_keys_still_decrypt_and_unknown_keys_fail() {
        let old = Keyring::generate_spec("old");
        let sealed = Keyring::parse(&old).unwrap().encrypt("x");
        let rotated = Keyring::parse(&format!("{},{old}", Keyring::generate_spec("new"))).unwrap();
        assert_eq!(rotated.decrypt(&sealed).unwrap(), "x");
        assert!(rotated.encrypt("y").starts_with("new:"));
        let other = Keyring::parse(&Keyring::generate_spec("other")).unwrap();
        assert!(
            other
                .decrypt(&sealed)
                .unwrap_err()
                .to_string()
                .contains("no encryption key old")
        );
    }

    #[test]
    fn tampering_is_detected() {
        let ring = Keyring::parse(&Keyring::generate_spec("k")).unwrap();
        let sealed = ring.encrypt("secret");
        let (id, b64) = sealed.split_once(':').unwrap();
        let mut raw = STANDARD.decode(b64).unwrap();
        raw[NONCE_LEN] ^= 1;
        assert!(ring.decrypt(&format!("{id}:{}", STANDARD.encode(raw))).is_err());
    }

    #[test]
    fn bad_key_specs_are_rejected() {
        assert!(Keyring::parse("").is_err());
        assert!(
            Keyring::parse("k1:c2hvcnQ=")
                .unwrap_err()
                .to_string()
                .contains("32 bytes")
        );
        assert!(Keyring::parse("nokey").is_err());
    }
}
