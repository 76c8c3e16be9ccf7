//! Argon2id password hashes (PHC strings), computed off the async runtime.

use argon2::{
    Algorithm, Argon2, Params, Version,
    password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString},
};

#[derive(Debug, Clone, Copy)]
pub struct HashParams {
    pub memory_kib: u32,
    pub iterations: u32,
}

fn hasher(p: HashParams) -> anyhow::Result<Argon2<'static>> {
    let params = Params::new(p.memory_kib, p.iterations, 1, None)
        .map_err(|e| anyhow::anyhow!("argon2 params: {e}"))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

pub fn hash_blocking(password: &str, p: HashParams) -> anyhow::Result<String> {
    let salt =
        SaltString::encode_b64(&crate::crypto::random_bytes(16)).map_err(|e| anyhow::anyhow!("salt: {e}"))?;
    Ok(hasher(p)?
        .hash_password(password.as_bytes(), &salt)
        .map_err(|e| anyhow::anyhow!("hash: {e}"))?
        .to_string())
}

/// Whether `password` matches the PHC string (its own parameters are used).
pub fn verify_blocking(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

pub async fn hash(password: String, p: HashParams) -> anyhow::Result<String> {
    tokio::task::spawn_blocking(move || hash_blocking(&password, p)).await?
}

pub async fn verify(password: String, phc: String) -> bool {
    tokio::task::spawn_blocking(move || verify_blocking(&password, &phc))
        .await
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_argon2id_and_verify() {
        let p = HashParams {
            memory_kib: 64,
            iterations: 1,
        };
        let h = hash_blocking("correct horse", p).unwrap();
        assert!(h.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{h}");
        assert!(verify_blocking("correct horse", &h));
        assert!(!verify_blocking("wrong", &h));
        assert!(!verify_blocking("correct horse", "not a hash"));
        assert_ne!(h, hash_blocking("correct horse", p).unwrap(), "salted");
    }
}
