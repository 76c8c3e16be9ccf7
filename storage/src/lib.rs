//! Object storage for Ludis: an S3 client for any S3-protocol server (path-style addressing,
//! explicit endpoint, over rustls with the ring provider; explicit keys, or the cloud's default
//! credential chain without them), and the layout of datasets in an organization's bucket.
//!
//! - [`credentials`]: the settings' keys, or the default chain (IRSA and the like);
//! - [`keys`]: client paths → object keys that cannot leave a dataset's prefix;
//! - [`presign`]: presigned URLs for browsers (one method, one key, a short time);
//! - [`objects`]: listing a folder page by page, folder markers, deleting, reading;
//! - [`preview`]: the first rows or lines of csv, json, xml, txt, xlsx and xls files.

pub mod credentials;
pub mod error;
pub mod keys;
pub mod logs;
pub mod objects;
pub mod presign;
pub mod preview;

use aws_sdk_s3::config::BehaviorVersion;
pub use error::StorageError;

/// Where object storage is and how to sign for it.
#[derive(Clone)]
pub struct S3Settings {
    /// e.g. `http://127.0.0.1:29000`, or `https://s3.eu-west-1.amazonaws.com`.
    pub endpoint: String,
    pub region: String,
    /// With `secret_key`, the keys that sign; both empty: the cloud's default credential chain
    /// ([`credentials`]).
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

/// An S3 client for these settings: their keys, or without keys the default credential chain.
pub fn client(settings: &S3Settings) -> aws_sdk_s3::Client {
    let http = credentials::http_client();
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .credentials_provider(credentials::provider(settings, http.clone()))
        .http_client(http)
        .endpoint_url(&settings.endpoint)
        .region(credentials::region(settings))
        .force_path_style(true)
        .build();
    aws_sdk_s3::Client::from_conf(config)
}

/// The prefix of a dataset's objects in its organization's bucket (ends with `/`):
/// `datasets/<namespace>/<id>/`. The organization's namespace is part of it, so a resource can
/// never reach another organization's data by naming its id (organizations may share a bucket),
/// whatever labels it carries.
pub fn dataset_prefix(namespace: &str, dataset_id: &str) -> String {
    format!("datasets/{namespace}/{dataset_id}/")
}

/// Number of objects and total bytes under `prefix`. Folders are not counted: neither folder
/// markers (`<folder>/.ludis-folder`) nor objects whose key ends in `/`.
pub async fn usage(s3: &aws_sdk_s3::Client, bucket: &str, prefix: &str) -> Result<(i64, i64), StorageError> {
    let mut pages = s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(prefix)
        .into_paginator()
        .send();
    let (mut count, mut bytes) = (0i64, 0i64);
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| StorageError::object("list", bucket, prefix, e))?;
        for obj in page.contents() {
            if obj
                .key()
                .is_some_and(|k| !k.ends_with('/') && !keys::is_marker(k))
            {
                count += 1;
                bytes += obj.size().unwrap_or(0);
            }
        }
    }
    Ok((count, bytes))
}

/// Deletes every object under `prefix` (folder markers included); returns how many were deleted.
pub async fn delete_prefix(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    prefix: &str,
) -> Result<usize, StorageError> {
    objects::delete_under(s3, bucket, prefix)
        .await
        .map(|(all, _markers)| all)
}

/// Creates `bucket` unless it exists.
pub async fn ensure_bucket(s3: &aws_sdk_s3::Client, bucket: &str) -> Result<(), StorageError> {
    if s3.head_bucket().bucket(bucket).send().await.is_ok() {
        return Ok(());
    }
    match s3.create_bucket().bucket(bucket).send().await {
        Ok(_) => Ok(()),
        Err(e) => {
            let ctx = aws_sdk_s3::error::DisplayErrorContext(&e).to_string();
            if ctx.contains("BucketAlreadyOwnedByYou") || ctx.contains("BucketAlreadyExists") {
                Ok(())
            } else {
                Err(StorageError::call("create the bucket", bucket, e))
            }
        }
    }
}

/// Writes the empty object named like `prefix` (ending in `/`), so an empty dataset is visible in
/// listings of its bucket.
pub async fn mark_prefix(s3: &aws_sdk_s3::Client, bucket: &str, prefix: &str) -> Result<(), StorageError> {
    s3.put_object()
        .bucket(bucket)
        .key(prefix)
        .body(Vec::new().into())
        .send()
        .await
        .map(|_| ())
        .map_err(|e| StorageError::object("write", bucket, prefix, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dataset_prefixes_are_folders_of_datasets() {
        assert_eq!(dataset_prefix("ludis-acme", "6f1c"), "datasets/ludis-acme/6f1c/");
    }

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
