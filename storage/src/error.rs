//! The one error type of object storage: every fallible function of this crate returns
//! [`StorageError`], whose `Display` is the message logged (or, for [`StorageError::Preview`],
//! shown to the user).

use aws_sdk_s3::error::DisplayErrorContext;

use crate::keys::KeyError;

/// The cause of a failed call, as the SDK (or the server) reported it.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Why an object-storage operation, a presigned URL or a preview failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The S3 server refused a call, or did not answer: "failed to list s3://bucket/prefix: …".
    #[error("failed to {action} {target}: {}", DisplayErrorContext(.source.as_ref()))]
    Call {
        /// What was attempted ("list", "delete", "read", "write", "create the bucket").
        action: &'static str,
        /// What it was attempted on (`s3://bucket/key`, or a bucket's name).
        target: String,
        #[source]
        source: Cause,
    },
    /// A relative key that is not what the call needs: not normalised, the dataset's root where a
    /// file or a sub-folder is needed, or refused by [`crate::keys`]. A caller's mistake (every key
    /// from a client goes through [`crate::keys`] first), never a reason to reach outside the prefix.
    #[error("failed to {action} {relative:?} in s3://{bucket}/{prefix}: {problem}")]
    Key {
        action: &'static str,
        relative: String,
        bucket: String,
        prefix: String,
        #[source]
        problem: KeyProblem,
    },
    /// A presigned URL was asked for something that cannot have one.
    #[error("failed to presign: {0}")]
    Presign(#[from] PresignError),
    /// No credentials to sign with: the cloud's default chain found none, or its source (STS,
    /// instance metadata) failed.
    #[error("failed to get the object storage credentials: {}", DisplayErrorContext(.0))]
    Credentials(#[source] aws_credential_types::provider::error::CredentialsError),
    /// The signer failed on a URL.
    #[error("failed to presign {url}: {source}")]
    Sign {
        url: String,
        #[source]
        source: Cause,
    },
    /// A file that cannot be previewed; the message is a sentence for the user.
    #[error("{0}")]
    Preview(String),
}

impl StorageError {
    /// A failed call: `action` on `target`, with the SDK's error as the cause.
    pub fn call(action: &'static str, target: impl Into<String>, source: impl Into<Cause>) -> Self {
        StorageError::Call {
            action,
            target: target.into(),
            source: source.into(),
        }
    }

    /// A failed call on the object `s3://bucket/key` (or the prefix `key`).
    pub fn object(action: &'static str, bucket: &str, key: &str, source: impl Into<Cause>) -> Self {
        StorageError::call(action, format!("s3://{bucket}/{key}"), source)
    }
}

/// Why a relative key cannot be used by a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyProblem {
    #[error(transparent)]
    Refused(#[from] KeyError),
    #[error("the key is not normalised")]
    NotNormalised,
    #[error("the key names the dataset's root")]
    DatasetRoot,
}

/// Why a presigned URL cannot be made for what was asked.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PresignError {
    #[error("the method {0:?} is not GET, PUT or HEAD")]
    Method(String),
    #[error("the bucket and the key must not be empty")]
    EmptyKey,
    #[error("the endpoint {0:?} is not an http:// or https:// URL")]
    EndpointScheme(String),
    #[error("the endpoint {0:?} is not a valid URL")]
    EndpointInvalid(String),
    #[error("the expiry must be between 1 second and 7 days, not {0} s")]
    Expiry(f64),
}
