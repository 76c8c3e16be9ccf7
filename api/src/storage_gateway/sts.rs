//! The gateway's STS: `AssumeRoleWithWebIdentity` (the call the AWS SDKs make by themselves from
//! `AWS_WEB_IDENTITY_TOKEN_FILE` and `AWS_ROLE_ARN`, as with IRSA on EKS). The web identity is the
//! pod's projected service-account token for [`ludis_crds::STORAGE_AUDIENCE`] or
//! [`ludis_crds::OUTPUT_AUDIENCE`], reviewed by the cluster; the answer is a session of that pod
//! ([`super::session`]) for one hour at most (`DurationSeconds`, 900 to 3600), which the SDKs
//! refresh before it ends while the pod's token lasts. The role is not looked at: what a session
//! reaches follows from its pod.

use axum::{
    body::Body,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};

use super::session::{self, Scope};
use crate::{cluster::pod_identity, state::AppState};

/// The largest form taken (a token is about 1 KB).
pub const MAX_FORM_BYTES: usize = 64 * 1024;
const NAMESPACE: &str = "https://sts.amazonaws.com/doc/2011-06-15/";
const DEFAULT_SECONDS: i64 = 3600;
const MIN_SECONDS: i64 = 900;

/// Whether a request is an STS call (a form POSTed to the root), not an S3 one.
pub fn is_sts(method: &axum::http::Method, uri: &axum::http::Uri, headers: &axum::http::HeaderMap) -> bool {
    method == axum::http::Method::POST
        && uri.path() == "/"
        && headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

/// An STS error (`<ErrorResponse>`).
struct StsError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl StsError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
        }
    }
}

impl IntoResponse for StsError {
    fn into_response(self) -> Response {
        let kind = if self.status.is_server_error() {
            "Receiver"
        } else {
            "Sender"
        };
        let body = format!(
            "<ErrorResponse xmlns=\"{NAMESPACE}\"><Error><Type>{kind}</Type><Code>{}</Code><Message>{}</Message></Error>\
             <RequestId>{}</RequestId></ErrorResponse>",
            self.code,
            xml_escape(&self.message),
            uuid::Uuid::new_v4()
        );
        (self.status, [(header::CONTENT_TYPE, "text/xml")], body).into_response()
    }
}

fn xml_escape(s: &str) -> std::borrow::Cow<'_, str> {
    quick_xml::escape::escape(s)
}

/// The parameters of a call.
#[derive(Debug, Default, PartialEq, Eq)]
struct Call {
    action: String,
    token: String,
    role_arn: String,
    duration: Option<String>,
}

fn parse(form: &[u8]) -> Call {
    let mut call = Call::default();
    for (k, v) in url::form_urlencoded::parse(form) {
        match k.as_ref() {
            "Action" => call.action = v.into_owned(),
            "WebIdentityToken" => call.token = v.into_owned(),
            "RoleArn" => call.role_arn = v.into_owned(),
            "DurationSeconds" => call.duration = Some(v.into_owned()),
            _ => {}
        }
    }
    call
}

/// The lifetime asked for, within the allowed range.
fn duration(asked: Option<&str>) -> Result<i64, StsError> {
    let Some(asked) = asked else {
        return Ok(DEFAULT_SECONDS);
    };
    match asked.parse::<i64>() {
        Ok(s) if (MIN_SECONDS..=DEFAULT_SECONDS).contains(&s) => Ok(s),
        _ => Err(StsError::new(
            StatusCode::BAD_REQUEST,
            "ValidationError",
            format!("DurationSeconds must be between {MIN_SECONDS} and {DEFAULT_SECONDS}"),
        )),
    }
}

/// Answers an STS call.
pub async fn handle(state: &AppState, body: Body) -> Response {
    match assume(state, body).await {
        Ok(r) => r,
        Err(e) => e.into_response(),
    }
}

async fn assume(state: &AppState, body: Body) -> Result<Response, StsError> {
    let form = axum::body::to_bytes(body, MAX_FORM_BYTES).await.map_err(|_| {
        StsError::new(
            StatusCode::BAD_REQUEST,
            "ValidationError",
            "the form is too large",
        )
    })?;
    let call = parse(&form);
    if call.action != "AssumeRoleWithWebIdentity" {
        return Err(StsError::new(
            StatusCode::BAD_REQUEST,
            "InvalidAction",
            "only AssumeRoleWithWebIdentity is served here",
        ));
    }
    if call.token.is_empty() || call.role_arn.is_empty() {
        return Err(StsError::new(
            StatusCode::BAD_REQUEST,
            "MissingParameter",
            "WebIdentityToken and RoleArn are required",
        ));
    }
    let ttl = duration(call.duration.as_deref())?;
    let audiences = [ludis_crds::STORAGE_AUDIENCE, ludis_crds::OUTPUT_AUDIENCE];
    let identity = pod_identity::verify(state, &call.token, &audiences)
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "storage gateway: the cluster could not review a token");
            StsError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "ServiceUnavailable",
                "the token could not be reviewed",
            )
        })?
        .ok_or_else(|| {
            StsError::new(
                StatusCode::BAD_REQUEST,
                "InvalidIdentityToken",
                "the token is not a storage token of a pod that still runs",
            )
        })?;
    let scope = Scope::of_audience(&identity.audience).ok_or_else(|| {
        StsError::new(
            StatusCode::BAD_REQUEST,
            "InvalidIdentityToken",
            "the token's audience is not storage",
        )
    })?;
    let needed = match scope {
        Scope::Datasets => ludis_crds::ANNOTATION_DATASETS,
        Scope::Output => ludis_crds::ANNOTATION_OUTPUT,
    };
    if identity.annotation(needed).is_none_or(|v| v.trim().is_empty()) {
        return Err(StsError::new(
            StatusCode::FORBIDDEN,
            "AccessDenied",
            "this pod was given no storage to reach",
        ));
    }
    let (name, uid) = (identity.name(), identity.uid());
    let issued = session::issue(
        &state.auth.tokens,
        &state.auth.jwt_key,
        (&identity.namespace, &name, &uid),
        scope,
        crate::db::now(),
        ttl,
    );
    tracing::info!(pod = %format!("{}/{name}", identity.namespace), ?scope, "storage gateway: credentials issued");
    Ok(respond(&issued, &identity.namespace, &name, &call.role_arn))
}

fn respond(issued: &session::Issued, namespace: &str, pod: &str, role_arn: &str) -> Response {
    let expiration = crate::db::rfc3339(issued.expires_at);
    let body = format!(
        "<AssumeRoleWithWebIdentityResponse xmlns=\"{NAMESPACE}\"><AssumeRoleWithWebIdentityResult>\
         <Credentials><AccessKeyId>{}</AccessKeyId><SecretAccessKey>{}</SecretAccessKey>\
         <SessionToken>{}</SessionToken><Expiration>{expiration}</Expiration></Credentials>\
         <SubjectFromWebIdentityToken>{}</SubjectFromWebIdentityToken>\
         <AssumedRoleUser><Arn>{}</Arn><AssumedRoleId>{}:{}</AssumedRoleId></AssumedRoleUser>\
         <Audience>{}</Audience><Provider>kubernetes</Provider>\
         </AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>{}</RequestId></ResponseMetadata>\
         </AssumeRoleWithWebIdentityResponse>",
        issued.access_key_id,
        issued.secret_access_key,
        issued.session_token,
        xml_escape(&format!("system:serviceaccount:{namespace}:default")),
        xml_escape(role_arn),
        issued.access_key_id,
        xml_escape(pod),
        ludis_crds::STORAGE_AUDIENCE,
        uuid::Uuid::new_v4(),
    );
    ([(header::CONTENT_TYPE, "text/xml")], body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_a_form_posted_to_the_root() {
        let form = axum::http::HeaderMap::from_iter([(
            header::CONTENT_TYPE,
            "application/x-www-form-urlencoded; charset=utf-8"
                .parse()
                .unwrap(),
        )]);
        assert!(is_sts(&axum::http::Method::POST, &"/".parse().unwrap(), &form));
        assert!(!is_sts(
            &axum::http::Method::POST,
            &"/bucket?delete".parse().unwrap(),
            &form
        ));
        assert!(!is_sts(&axum::http::Method::GET, &"/".parse().unwrap(), &form));
        assert!(!is_sts(
            &axum::http::Method::POST,
            &"/".parse().unwrap(),
            &axum::http::HeaderMap::new()
        ));
    }

    #[test]
    fn the_form_and_its_duration_are_read() {
        let call = parse(b"Action=AssumeRoleWithWebIdentity&RoleArn=arn%3Ax&WebIdentityToken=t.k&DurationSeconds=900&Version=2011-06-15");
        assert_eq!(
            call,
            Call {
                action: "AssumeRoleWithWebIdentity".into(),
                token: "t.k".into(),
                role_arn: "arn:x".into(),
                duration: Some("900".into()),
            }
        );
        assert_eq!(duration(None).ok(), Some(3600));
        assert_eq!(duration(Some("900")).ok(), Some(900));
        for bad in ["899", "3601", "x", ""] {
            assert!(duration(Some(bad)).is_err(), "{bad}");
        }
    }
}
