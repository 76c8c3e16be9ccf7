//! Presigned URLs: a browser uploads and downloads dataset files straight to and from object
//! storage with a URL that is good for one method on one key for a short time.
//!
//! The signature is AWS Signature Version 4 in the query string (`X-Amz-Expires`), computed by the
//! SDK's own signer (`aws-sigv4`), for a path-style URL `endpoint/bucket/key`. Only the `host`
//! header is signed, so a browser may send any `Content-Type` with its `PUT`. The method is part of
//! the signature: a `GET` URL used for a `PUT` is refused by the server.
//!
//! [`Presigner`] holds the credentials and signing settings, built once; a URL costs one signing and
//! one string. The credentials are the settings' keys, or the cloud's default chain (its
//! temporary credentials kept while good, see [`crate::credentials`]), so getting them is async.

use std::{
    fmt,
    sync::Arc,
    time::{Duration, SystemTime},
};

use aws_credential_types::provider::{ProvideCredentials as _, SharedCredentialsProvider};
use aws_sigv4::{
    http_request::{
        PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest, SignatureLocation,
        SigningSettings, UriPathNormalizationMode, sign,
    },
    sign::v4,
};
use aws_smithy_runtime_api::client::identity::Identity;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::{StorageError, error::PresignError};

/// How long an upload (`PUT`) URL is valid.
pub const UPLOAD_EXPIRES: Duration = Duration::from_secs(15 * 60);
/// How long a download (`GET`) URL is valid.
pub const DOWNLOAD_EXPIRES: Duration = Duration::from_secs(60 * 60);
/// How long the "temporary access URL" is valid: the longest SigV4 allows.
pub const ACCESS_URL_EXPIRES: Duration = Duration::from_secs(7 * 24 * 60 * 60);

const MIN_EXPIRES: Duration = Duration::from_secs(1);
const MAX_EXPIRES: Duration = ACCESS_URL_EXPIRES;

/// RFC 3986 unreserved characters stay, everything else is percent-encoded (the SigV4 rule for
/// query names and values).
const QUERY: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');
/// S3 object keys in a path: the same, but `/` separates segments and stays.
const PATH: &AsciiSet = &QUERY.remove(b'/');

/// Makes presigned URLs for one S3 endpoint and one set of keys. Cheap to clone; `Send + Sync`.
#[derive(Clone)]
pub struct Presigner {
    inner: Arc<Inner>,
}

struct Inner {
    /// `scheme://authority[/path]` without a trailing `/`.
    endpoint: String,
    /// Why the endpoint cannot be used, found once at construction.
    endpoint_error: Option<PresignError>,
    region: String,
    credentials: SharedCredentialsProvider,
    settings: SigningSettings,
}

impl fmt::Debug for Presigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Presigner")
            .field("endpoint", &self.inner.endpoint)
            .field("region", &self.inner.region)
            .finish_non_exhaustive()
    }
}

impl Presigner {
    /// A presigner for `settings.endpoint`.
    pub fn new(settings: &crate::S3Settings) -> Presigner {
        Presigner::with_endpoint(settings, &settings.endpoint)
    }

    /// A presigner for the keys of `settings` and `public_endpoint`, the address browsers reach
    /// (which may differ from the one the server uses).
    pub fn with_endpoint(settings: &crate::S3Settings, public_endpoint: &str) -> Presigner {
        let endpoint = public_endpoint.trim_end_matches('/').to_owned();
        let endpoint_error = check_endpoint(&endpoint).err();
        let credentials = crate::credentials::provider(settings, crate::credentials::http_client());
        let mut s = SigningSettings::default();
        s.signature_location = SignatureLocation::QueryParams;
        // The path is encoded here, once, as S3 expects; S3 does not normalise paths.
        s.percent_encoding_mode = PercentEncodingMode::Single;
        s.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
        s.payload_checksum_kind = PayloadChecksumKind::NoHeader;
        // Only `host` is signed; there are no other headers to exclude.
        s.excluded_headers = None;
        let region = crate::credentials::region(settings).as_ref().to_owned();
        Presigner {
            inner: Arc::new(Inner {
                endpoint,
                endpoint_error,
                region,
                credentials,
                settings: s,
            }),
        }
    }

    /// A URL for exactly one method (`GET`, `PUT` or `HEAD`) on one key of `bucket`, valid for
    /// `expires` (1 s ..= 7 days, whole seconds). For `GET`, `download_name` makes the response an
    /// attachment with that file name.
    pub async fn url(
        &self,
        method: &str,
        bucket: &str,
        key: &str,
        expires: Duration,
        download_name: Option<&str>,
    ) -> Result<String, StorageError> {
        let identity = self.identity().await?;
        self.url_at(
            method,
            bucket,
            key,
            expires,
            download_name,
            &identity,
            SystemTime::now(),
        )
    }

    /// The identity that signs now.
    async fn identity(&self) -> Result<Identity, StorageError> {
        let credentials = self
            .inner
            .credentials
            .provide_credentials()
            .await
            .map_err(StorageError::Credentials)?;
        Ok(Identity::from(credentials))
    }

    #[allow(clippy::too_many_arguments)] // the call's own arguments, plus who signs and when
    fn url_at(
        &self,
        method: &str,
        bucket: &str,
        key: &str,
        expires: Duration,
        download_name: Option<&str>,
        identity: &Identity,
        now: SystemTime,
    ) -> Result<String, StorageError> {
        if !matches!(method, "GET" | "PUT" | "HEAD") {
            return Err(PresignError::Method(method.to_owned()).into());
        }
        if bucket.is_empty() || key.is_empty() {
            return Err(PresignError::EmptyKey.into());
        }
        // Room for the signature's parameters (about 400 bytes) and a disposition (each name byte
        // can become 12 after two rounds of encoding).
        let name_len = download_name.map_or(0, |n| 12 * n.len() + 80);
        let mut url = String::with_capacity(
            self.inner.endpoint.len() + 3 * (bucket.len() + key.len()) + name_len + 420,
        );
        url.push_str(&self.inner.endpoint);
        url.push('/');
        url.extend(utf8_percent_encode(bucket, PATH));
        url.push('/');
        url.extend(utf8_percent_encode(key, PATH));
        if let (Some(name), "GET") = (download_name, method) {
            url.push_str("?response-content-disposition=");
            url.extend(utf8_percent_encode(&content_disposition(name), QUERY));
        }
        self.sign_url(method, url, expires, identity, now)
    }

    /// Signs `url` (already percent-encoded, maybe with a query) for `method` and appends the
    /// signature's query parameters.
    fn sign_url(
        &self,
        method: &str,
        mut url: String,
        expires: Duration,
        identity: &Identity,
        now: SystemTime,
    ) -> Result<String, StorageError> {
        if let Some(e) = &self.inner.endpoint_error {
            return Err(e.clone().into());
        }
        if !(MIN_EXPIRES..=MAX_EXPIRES).contains(&expires) {
            return Err(PresignError::Expiry(expires.as_secs_f64()).into());
        }
        let failed = |url: &str, e: Box<dyn std::error::Error + Send + Sync>| StorageError::Sign {
            url: url.to_owned(),
            source: e,
        };
        let mut settings = self.inner.settings.clone();
        settings.expires_in = Some(Duration::from_secs(expires.as_secs()));
        let params = v4::SigningParams::builder()
            .identity(identity)
            .region(&self.inner.region)
            .name("s3")
            .time(now)
            .settings(settings)
            .build()
            .map_err(|e| failed(&url, e.into()))?
            .into();
        let request = SignableRequest::new(
            method,
            url.as_str(),
            std::iter::empty(),
            SignableBody::UnsignedPayload,
        )
        .map_err(|e| failed(&url, e.into()))?;
        let (instructions, _signature) = sign(request, &params)
            .map_err(|e| failed(&url, e.into()))?
            .into_parts();
        let mut separator = if url.contains('?') { '&' } else { '?' };
        for (name, value) in instructions.params() {
            url.push(separator);
            separator = '&';
            url.push_str(name);
            url.push('=');
            url.extend(utf8_percent_encode(value, QUERY));
        }
        Ok(url)
    }
}

/// `scheme://authority[/path]`, http or https, with no query or fragment.
fn check_endpoint(endpoint: &str) -> Result<(), PresignError> {
    let rest = endpoint
        .strip_prefix("http://")
        .or_else(|| endpoint.strip_prefix("https://"))
        .ok_or_else(|| PresignError::EndpointScheme(endpoint.to_owned()))?;
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.is_empty()
        || endpoint
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '\\'))
    {
        return Err(PresignError::EndpointInvalid(endpoint.to_owned()));
    }
    Ok(())
}

/// `attachment` with the name as a quoted ASCII fallback and as RFC 8187 UTF-8.
fn content_disposition(name: &str) -> String {
    let name: String = name.chars().filter(|c| !c.is_control()).collect();
    let fallback: String = name
        .chars()
        .map(|c| {
            if c.is_ascii() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "attachment; filename=\"{fallback}\"; filename*=UTF-8''{}",
        utf8_percent_encode(&name, QUERY)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::S3Settings;

    fn settings(endpoint: &str) -> S3Settings {
        S3Settings {
            endpoint: endpoint.into(),
            region: "us-east-1".into(),
            access_key: "AKIAIOSFODNN7EXAMPLE".into(),
            secret_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
        }
    }

    fn identity() -> Identity {
        let s = settings("http://unused");
        Identity::from(aws_credential_types::Credentials::new(
            s.access_key,
            s.secret_key,
            None,
            None,
            "test",
        ))
    }

    fn query(url: &str) -> Vec<(String, String)> {
        let q = url.split_once('?').map(|(_, q)| q).unwrap_or_default();
        q.split('&')
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap();
                let decode = |s: &str| {
                    percent_encoding::percent_decode_str(s)
                        .decode_utf8()
                        .unwrap()
                        .into_owned()
                };
                (decode(k), decode(v))
            })
            .collect()
    }

    fn param(url: &str, name: &str) -> Option<String> {
        query(url).into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    #[test]
    fn matches_the_aws_documentation_example() {
        // The presigned GET of "Authenticating Requests: Using Query Parameters (AWS Signature
        // Version 4)" in the S3 API reference: 2013-05-24T00:00:00Z, 86400 s.
        let p = Presigner::new(&settings("https://examplebucket.s3.amazonaws.com"));
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_369_353_600);
        let url = p
            .sign_url(
                "GET",
                "https://examplebucket.s3.amazonaws.com/test.txt".into(),
                Duration::from_secs(86400),
                &identity(),
                at,
            )
            .unwrap();
        assert_eq!(
            param(&url, "X-Amz-Signature").as_deref(),
            Some("aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"),
            "{url}"
        );
        assert_eq!(
            param(&url, "X-Amz-Credential").as_deref(),
            Some("AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request")
        );
    }

    #[tokio::test]
    async fn urls_carry_expiry_signed_headers_and_path_style_address() {
        let p = Presigner::new(&settings("http://127.0.0.1:39000/"));
        let url = p
            .url("PUT", "ludis", "datasets/x/a.csv", UPLOAD_EXPIRES, None)
            .await
            .unwrap();
        assert!(
            url.starts_with("http://127.0.0.1:39000/ludis/datasets/x/a.csv?"),
            "{url}"
        );
        assert_eq!(param(&url, "X-Amz-Expires").as_deref(), Some("900"));
        assert_eq!(param(&url, "X-Amz-SignedHeaders").as_deref(), Some("host"));
        assert_eq!(
            param(&url, "X-Amz-Algorithm").as_deref(),
            Some("AWS4-HMAC-SHA256")
        );
        assert_eq!(param(&url, "X-Amz-Signature").map(|s| s.len()), Some(64));
        assert!(param(&url, "X-Amz-Date").is_some());
        assert!(param(&url, "X-Amz-Content-Sha256").is_none());
        let access = p
            .url("GET", "ludis", "k", ACCESS_URL_EXPIRES, None)
            .await
            .unwrap();
        assert_eq!(param(&access, "X-Amz-Expires").as_deref(), Some("604800"));
    }

    #[test]
    fn the_method_and_the_key_are_part_of_the_signature() {
        let p = Presigner::new(&settings("http://127.0.0.1:39000"));
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let id = identity();
        let sig = |method: &str, key: &str| {
            let url = p
                .url_at(method, "b", key, DOWNLOAD_EXPIRES, None, &id, at)
                .unwrap();
            param(&url, "X-Amz-Signature").unwrap()
        };
        assert_eq!(sig("GET", "a"), sig("GET", "a"));
        assert_ne!(sig("GET", "a"), sig("PUT", "a"));
        assert_ne!(sig("GET", "a"), sig("HEAD", "a"));
        assert_ne!(sig("GET", "a"), sig("GET", "b"));
    }

    #[tokio::test]
    async fn keys_are_encoded_segment_by_segment() {
        let p = Presigner::new(&settings("https://s3.example.test"));
        let cases = [
            ("a b.csv", "/bkt/a%20b.csv?"),
            ("dir/a+b.csv", "/bkt/dir/a%2Bb.csv?"),
            ("100%.txt", "/bkt/100%25.txt?"),
            ("été/数据.xlsx", "/bkt/%C3%A9t%C3%A9/%E6%95%B0%E6%8D%AE.xlsx?"),
            ("q?x#y&z=1", "/bkt/q%3Fx%23y%26z%3D1?"),
            ("-_.~", "/bkt/-_.~?"),
        ];
        for (key, want) in cases {
            let url = p.url("GET", "bkt", key, DOWNLOAD_EXPIRES, None).await.unwrap();
            let path = &url["https://s3.example.test".len()..];
            assert!(path.starts_with(want), "{key:?} → {url}");
        }
    }

    #[tokio::test]
    async fn download_names_make_an_attachment() {
        let p = Presigner::new(&settings("http://127.0.0.1:39000"));
        let url = p
            .url("GET", "b", "d/x", DOWNLOAD_EXPIRES, Some("rapport \"été\".csv"))
            .await
            .unwrap();
        assert_eq!(
            param(&url, "response-content-disposition").as_deref(),
            Some(
                "attachment; filename=\"rapport __t__.csv\"; filename*=UTF-8''rapport%20%22%C3%A9t%C3%A9%22.csv"
            )
        );
        // Only GET gets it.
        let put = p
            .url("PUT", "b", "d/x", UPLOAD_EXPIRES, Some("x.csv"))
            .await
            .unwrap();
        assert!(param(&put, "response-content-disposition").is_none());
    }

    #[tokio::test]
    async fn refusals() {
        let p = Presigner::new(&settings("http://127.0.0.1:39000"));
        for expires in [
            Duration::ZERO,
            Duration::from_millis(999),
            MAX_EXPIRES + Duration::from_secs(1),
        ] {
            let e = p
                .url("GET", "b", "k", expires, None)
                .await
                .unwrap_err()
                .to_string();
            assert!(e.contains("between 1 second and 7 days"), "{e}");
        }
        assert!(p.url("GET", "b", "k", Duration::from_secs(1), None).await.is_ok());
        assert!(p.url("GET", "b", "k", MAX_EXPIRES, None).await.is_ok());
        assert!(
            p.url("DELETE", "b", "k", DOWNLOAD_EXPIRES, None)
                .await
                .unwrap_err()
                .to_string()
                .contains("DELETE")
        );
        assert!(p.url("get", "b", "k", DOWNLOAD_EXPIRES, None).await.is_err());
        assert!(p.url("GET", "", "k", DOWNLOAD_EXPIRES, None).await.is_err());
        assert!(p.url("GET", "b", "", DOWNLOAD_EXPIRES, None).await.is_err());
        for bad in [
            "127.0.0.1:39000",
            "ftp://x",
            "http://",
            "http:///x",
            "http://a b",
            "http://h/?q",
        ] {
            let p = Presigner::new(&settings(bad));
            assert!(
                p.url("GET", "b", "k", DOWNLOAD_EXPIRES, None).await.is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn is_shareable_across_threads_and_hides_the_secret() {
        fn send_sync<T: Send + Sync + Clone>() {}
        send_sync::<Presigner>();
        let p = Presigner::new(&settings("http://127.0.0.1:39000"));
        let shown = format!("{p:?}");
        assert!(!shown.contains("wJalr") && !shown.contains("AKIA"), "{shown}");
    }
}
