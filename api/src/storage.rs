//! Object storage: an S3 client for any S3-protocol server (path-style addressing, explicit
//! endpoint and keys), over rustls with the ring provider.

use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_http_client::{
    Builder,
    tls::{Provider, rustls_provider::CryptoMode},
};

/// Where object storage is and how to sign for it.
#[derive(Clone)]
pub struct S3Settings {
    /// e.g. `http://127.0.0.1:29000`, or `https://s3.eu-west-1.amazonaws.com`.
    pub endpoint: String,
    pub region: String,
    pub access_key: String,
    pub secret_key: String,
}

impl std::fmt::Debug for S3Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Settings")
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key", &self.access_key)
            .field("secret_key", &"***")
            .finish()
    }
}

/// An S3 client for these settings.
pub fn client(settings: &S3Settings) -> aws_sdk_s3::Client {
    let http = Builder::new()
        .tls_provider(Provider::Rustls(CryptoMode::Ring))
        .build_https();
    let creds = Credentials::new(
        &settings.access_key,
        &settings.secret_key,
        None,
        None,
        "ludis-settings",
    );
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .http_client(http)
        .endpoint_url(&settings.endpoint)
        .region(Region::new(settings.region.clone()))
        .credentials_provider(creds)
        .force_path_style(true)
        .build();
    aws_sdk_s3::Client::from_conf(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_hides_the_secret_key() {
        let s = S3Settings {
            endpoint: "http://127.0.0.1:1".into(),
            region: "us-east-1".into(),
            access_key: "ak".into(),
            secret_key: "very-secret".into(),
        };
        let printed = format!("{s:?}");
        assert!(!printed.contains("very-secret"));
        assert!(printed.contains("***"));
    }
}
