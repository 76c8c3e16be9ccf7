//! The gateway's S3 authentication and authorization (s3s's `S3Auth` and `S3Access`): a
//! request is signed (SigV4, verified by s3s) with the secret of an access key id our STS issued,
//! carries that key's session token, and does only what the session's [`Grants`] allow now. An
//! operation this module does not name is refused, so a new one in a client reaches nothing.

use s3s::{
    S3Request, S3Result,
    access::{S3Access, S3AccessContext},
    auth::{S3Auth, SecretKey},
    dto::{
        CopyObjectInput, CopySource, DeleteObjectsInput, ListMultipartUploadsInput, ListObjectsInput,
        ListObjectsV2Input, UploadPartCopyInput,
    },
    path::S3Path,
    s3_error,
};

use super::{
    grants::{Cache, Grants, Level},
    session,
};
use crate::state::AppState;

/// The header, and the query parameter of a presigned request, carrying the session token.
const TOKEN_HEADER: &str = "x-amz-security-token";
const TOKEN_QUERY: &str = "X-Amz-Security-Token";

/// The secrets of the access key ids our STS issues.
pub struct Auth {
    pub key: ring::hmac::Key,
}

#[async_trait::async_trait]
impl S3Auth for Auth {
    async fn get_secret_key(&self, access_key: &str) -> S3Result<SecretKey> {
        if access_key.len() != 20 || !access_key.starts_with("ASIA") {
            return Err(s3_error!(InvalidAccessKeyId));
        }
        Ok(SecretKey::from(session::secret_of(&self.key, access_key)))
    }
}

/// How an operation uses its object or bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Use {
    /// An object, at a level.
    Object(Level),
    /// A bucket: its location and existence (any grant in it), or a listing whose prefix the
    /// operation's own check sees.
    Bucket,
    /// Several objects named in the body (DeleteObjects): checked by the operation.
    Objects,
}

/// What each allowed operation does; `None`: not allowed through the gateway.
fn use_of(operation: &str) -> Option<Use> {
    Some(match operation {
        "GetObject" | "HeadObject" | "GetObjectAttributes" | "GetObjectTagging" | "ListParts" => {
            Use::Object(Level::Read)
        }
        "PutObject"
        | "DeleteObject"
        | "CopyObject"
        | "CreateMultipartUpload"
        | "UploadPart"
        | "UploadPartCopy"
        | "CompleteMultipartUpload"
        | "AbortMultipartUpload" => Use::Object(Level::Write),
        "ListObjects" | "ListObjectsV2" | "ListMultipartUploads" | "HeadBucket" | "GetBucketLocation" => {
            Use::Bucket
        }
        "DeleteObjects" => Use::Objects,
        _ => return None,
    })
}

/// The one access rule applied to S3 requests.
pub struct Access {
    pub state: AppState,
    pub cache: Cache,
}

fn denied(why: impl Into<std::borrow::Cow<'static, str>>) -> s3s::S3Error {
    s3s::S3Error::with_message(s3s::S3ErrorCode::AccessDenied, why)
}

/// The session token of a request: its header, or the query of a presigned URL.
fn session_token<'a>(
    headers: &'a axum::http::HeaderMap,
    uri: &'a axum::http::Uri,
) -> Option<std::borrow::Cow<'a, str>> {
    if let Some(value) = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()) {
        return Some(value.into());
    }
    url::form_urlencoded::parse(uri.query()?.as_bytes())
        .find(|(k, _)| k == TOKEN_QUERY)
        .map(|(_, v)| v)
}

/// The grants the general check stored for the operation's own check.
fn grants_of<T>(req: &S3Request<T>) -> S3Result<&Grants> {
    req.extensions
        .get::<Grants>()
        .ok_or_else(|| denied("the request was not authorized"))
}

fn listing(req: &S3Request<impl Sized>, bucket: &str, prefix: Option<&str>) -> S3Result<()> {
    if grants_of(req)?.allows_listing(bucket, prefix.unwrap_or("")) {
        Ok(())
    } else {
        Err(denied(
            "a listing must stay inside a dataset of this workload (give its prefix)",
        ))
    }
}

fn copy_source(req: &S3Request<impl Sized>, source: &CopySource) -> S3Result<()> {
    match source {
        CopySource::Bucket { bucket, key, .. } if grants_of(req)?.allows(bucket, key, Level::Read) => Ok(()),
        _ => Err(denied(
            "the copy's source is outside the datasets of this workload",
        )),
    }
}

#[async_trait::async_trait]
impl S3Access for Access {
    async fn check(&self, cx: &mut S3AccessContext<'_>) -> S3Result<()> {
        let operation = cx.s3_op().name();
        let Some(credentials) = cx.credentials() else {
            return Err(denied("sign requests with the credentials of the gateway's STS"));
        };
        let token = session_token(cx.headers(), cx.uri())
            .ok_or_else(|| denied("the request carries no session token"))?;
        let session = session::verify(&self.state.auth.tokens, &token, &credentials.access_key)
            .map_err(|_| denied("the session token is invalid or expired"))?;
        let grants = self
            .cache
            .grants(&self.state, &session)
            .await
            .map_err(|e| denied(e.to_string()))?;
        let allowed = match (use_of(operation), cx.s3_path()) {
            (None, _) | (_, S3Path::Root) => false,
            (Some(Use::Object(need)), S3Path::Object { bucket, key }) => grants.allows(bucket, key, need),
            (Some(Use::Bucket | Use::Objects), S3Path::Bucket { bucket }) => grants.has_bucket(bucket),
            _ => false,
        };
        if !allowed {
            tracing::info!(
                pod = %format!("{}/{}", session.namespace, session.pod),
                operation,
                path = ?cx.s3_path(),
                "storage gateway: refused"
            );
            return Err(denied(format!(
                "{operation} is not allowed here for this workload: it reaches only the datasets it references, \
                 at its owner's level"
            )));
        }
        cx.extensions_mut().insert(grants);
        Ok(())
    }

    async fn list_objects(&self, req: &mut S3Request<ListObjectsInput>) -> S3Result<()> {
        listing(req, &req.input.bucket, req.input.prefix.as_deref())
    }

    async fn list_objects_v2(&self, req: &mut S3Request<ListObjectsV2Input>) -> S3Result<()> {
        listing(req, &req.input.bucket, req.input.prefix.as_deref())
    }

    async fn list_multipart_uploads(&self, req: &mut S3Request<ListMultipartUploadsInput>) -> S3Result<()> {
        listing(req, &req.input.bucket, req.input.prefix.as_deref())
    }

    async fn delete_objects(&self, req: &mut S3Request<DeleteObjectsInput>) -> S3Result<()> {
        let grants = grants_of(req)?;
        if req
            .input
            .delete
            .objects
            .iter()
            .all(|o| grants.allows(&req.input.bucket, &o.key, Level::Write))
        {
            Ok(())
        } else {
            Err(denied(
                "an object to delete is outside the datasets this workload may write",
            ))
        }
    }

    async fn copy_object(&self, req: &mut S3Request<CopyObjectInput>) -> S3Result<()> {
        copy_source(req, &req.input.copy_source)
    }

    async fn upload_part_copy(&self, req: &mut S3Request<UploadPartCopyInput>) -> S3Result<()> {
        copy_source(req, &req.input.copy_source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_named_operations_pass_and_each_says_what_it_uses() {
        assert_eq!(use_of("GetObject"), Some(Use::Object(Level::Read)));
        assert_eq!(use_of("PutObject"), Some(Use::Object(Level::Write)));
        assert_eq!(use_of("CopyObject"), Some(Use::Object(Level::Write)));
        assert_eq!(use_of("ListObjectsV2"), Some(Use::Bucket));
        assert_eq!(use_of("DeleteObjects"), Some(Use::Objects));
        for refused in [
            "ListBuckets",
            "DeleteBucket",
            "PutBucketPolicy",
            "GetBucketPolicy",
            "PutObjectAcl",
            "CreateBucket",
        ] {
            assert_eq!(use_of(refused), None, "{refused}");
        }
    }

    #[test]
    fn the_session_token_comes_from_the_header_or_a_presigned_query() {
        let mut headers = axum::http::HeaderMap::new();
        let uri: axum::http::Uri = "/b/k?X-Amz-Security-Token=a%2Bb&x=1".parse().unwrap();
        assert_eq!(session_token(&headers, &uri).as_deref(), Some("a+b"));
        headers.insert(TOKEN_HEADER, "from-header".parse().unwrap());
        assert_eq!(session_token(&headers, &uri).as_deref(), Some("from-header"));
        assert_eq!(
            session_token(&axum::http::HeaderMap::new(), &"/b/k".parse().unwrap()),
            None
        );
    }
}
