//! Which credentials sign for object storage: the keys of the settings when they are set, else
//! the cloud's default credential chain (aws-config's [`DefaultCredentialsChain`]: environment,
//! profile, web identity — IRSA on EKS, where the pod's service account carries
//! `eks.amazonaws.com/role-arn` —, ECS container, EC2 instance metadata). The chain's temporary
//! credentials are kept until five minutes before they expire, so presigning a URL does not ask
//! STS each time.

use std::time::{Duration, SystemTime};

use aws_config::{default_provider::credentials::DefaultCredentialsChain, provider_config::ProviderConfig};
use aws_credential_types::{
    Credentials,
    provider::{self, ProvideCredentials, SharedCredentialsProvider},
};
use aws_sdk_s3::config::Region;
use aws_smithy_runtime_api::client::http::SharedHttpClient;

use crate::S3Settings;

/// Name of the static keys' source, in the SDK's messages.
const SETTINGS_SOURCE: &str = "ludis-settings";

/// Temporary credentials are renewed this long before they expire.
const RENEW_BEFORE: Duration = Duration::from_secs(5 * 60);

/// The HTTP client of object storage and of the credential chain: rustls with ring.
pub fn http_client() -> SharedHttpClient {
    aws_smithy_http_client::Builder::new()
        .tls_provider(aws_smithy_http_client::tls::Provider::Rustls(
            aws_smithy_http_client::tls::rustls_provider::CryptoMode::Ring,
        ))
        .build_https()
}

/// Whether `settings` name keys of their own (both of them); otherwise the default chain signs.
pub fn has_keys(settings: &S3Settings) -> bool {
    !settings.access_key.is_empty() && !settings.secret_key.is_empty()
}

/// The credentials provider for `settings`; the default chain's requests (STS, instance
/// metadata) go through `http`.
pub fn provider(settings: &S3Settings, http: SharedHttpClient) -> SharedCredentialsProvider {
    if has_keys(settings) {
        return SharedCredentialsProvider::new(Credentials::new(
            &settings.access_key,
            &settings.secret_key,
            None,
            None,
            SETTINGS_SOURCE,
        ));
    }
    SharedCredentialsProvider::new(DefaultChain {
        config: ProviderConfig::without_region()
            .with_http_client(http)
            .with_region(Some(region(settings))),
        region: region(settings),
        chain: tokio::sync::OnceCell::new(),
        cached: tokio::sync::Mutex::new(None),
    })
}

/// The region of `settings`, `us-east-1` when empty (what S3-protocol servers expect).
pub fn region(settings: &S3Settings) -> Region {
    if settings.region.is_empty() {
        Region::from_static("us-east-1")
    } else {
        Region::new(settings.region.clone())
    }
}

/// aws-config's default chain, built on first use (building it is async, while an S3 client is
/// made synchronously), and its last credentials while they are good.
#[derive(Debug)]
struct DefaultChain {
    config: ProviderConfig,
    /// The settings' region, so the chain never looks one up (instance metadata is a request).
    region: Region,
    chain: tokio::sync::OnceCell<DefaultCredentialsChain>,
    /// Held while the chain is asked, so concurrent callers wait for one answer.
    cached: tokio::sync::Mutex<Option<Credentials>>,
}

/// Whether credentials are still good at `now` for a while (keys without expiry always are).
fn fresh(creds: &Credentials, now: SystemTime) -> bool {
    creds.expiry().is_none_or(|expiry| expiry > now + RENEW_BEFORE)
}

impl ProvideCredentials for DefaultChain {
    fn provide_credentials<'a>(&'a self) -> provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        provider::future::ProvideCredentials::new(async move {
            let mut cached = self.cached.lock().await;
            if let Some(creds) = cached.as_ref().filter(|c| fresh(c, SystemTime::now())) {
                return Ok(creds.clone());
            }
            let chain = self
                .chain
                .get_or_init(|| {
                    DefaultCredentialsChain::builder()
                        .configure(self.config.clone())
                        .region(self.region.clone())
                        .build()
                })
                .await;
            let creds = chain.provide_credentials().await?;
            *cached = Some(creds.clone());
            Ok(creds)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(access_key: &str, secret_key: &str) -> S3Settings {
        S3Settings {
            endpoint: "http://127.0.0.1:1".into(),
            region: String::new(),
            access_key: access_key.into(),
            secret_key: secret_key.into(),
        }
    }

    #[tokio::test]
    async fn keys_of_the_settings_sign_when_both_are_set() {
        let creds = provider(&settings("AKIDSETTINGS", "secret"), http_client())
            .provide_credentials()
            .await
            .unwrap();
        assert_eq!(
            (creds.access_key_id(), creds.secret_access_key()),
            ("AKIDSETTINGS", "secret")
        );
    }

    #[test]
    fn temporary_credentials_are_renewed_before_they_expire() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let expiring = |after: u64| {
            Credentials::new(
                "a",
                "b",
                Some("t".into()),
                Some(now + Duration::from_secs(after)),
                "test",
            )
        };
        assert!(fresh(&expiring(3600), now));
        assert!(!fresh(&expiring(60), now), "expires within five minutes");
        assert!(
            fresh(&Credentials::new("a", "b", None, None, "test"), now),
            "no expiry"
        );
    }

    #[test]
    fn one_key_alone_is_no_keys() {
        assert!(has_keys(&settings("a", "b")));
        assert!(!has_keys(&settings("a", "")));
        assert!(!has_keys(&settings("", "b")));
        assert_eq!(region(&settings("", "")).as_ref(), "us-east-1");
    }

    /// Without keys the default chain answers: here from the environment, the chain's first
    /// source. The environment is the process's, so the test runs itself again in a child
    /// process with the variables set (and instance metadata off, so nothing leaves the machine).
    #[tokio::test]
    async fn without_keys_the_default_credential_chain_signs() {
        const CHILD: &str = "LUDIS_TEST_CREDENTIALS_CHILD";
        if std::env::var_os(CHILD).is_none() {
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "credentials::tests::without_keys_the_default_credential_chain_signs",
                    "--nocapture",
                ])
                .env(CHILD, "1")
                .env("AWS_ACCESS_KEY_ID", "AKIDFROMTHECHAIN")
                .env("AWS_SECRET_ACCESS_KEY", "chain-secret")
                .env("AWS_EC2_METADATA_DISABLED", "true")
                .env_remove("AWS_PROFILE")
                .output()
                .unwrap();
            let printed = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{printed}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(printed.contains("1 passed"), "the child ran no test: {printed}");
            return;
        }
        let creds = provider(&settings("", ""), http_client())
            .provide_credentials()
            .await
            .unwrap();
        assert_eq!(
            (creds.access_key_id(), creds.secret_access_key()),
            ("AKIDFROMTHECHAIN", "chain-secret")
        );
        // The presigner signs with them too.
        let url = crate::presign::Presigner::new(&settings("", ""))
            .url("GET", "b", "k", crate::presign::DOWNLOAD_EXPIRES, None)
            .await
            .unwrap();
        assert!(url.contains("X-Amz-Credential=AKIDFROMTHECHAIN%2F"), "{url}");
    }
}
