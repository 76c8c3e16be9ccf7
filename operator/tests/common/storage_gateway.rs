//! A stand-in for the API's storage gateway (`LUDIS_STORAGE_URL`), so the operator's tests move
//! real data from pods without the API: its STS takes a pod's projected token, has the cluster
//! review it (TokenReview, for the storage or the report-output audience), records which pod
//! exchanged it for which audience with which annotations, and answers with credentials of the
//! local S3 server; every other request is passed to that server unchanged (the client signed it
//! for this address, which the S3 server checks). What a pod may reach is the real gateway's
//! business (tested with the API); here the tests check that the pods the operator builds make
//! the exchange by themselves, with the AWS CLI and the variables they were given.

use std::{
    collections::BTreeMap,
    sync::{Mutex, PoisonError},
};

use axum::{
    body::{Body, to_bytes},
    extract::{Request, State},
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use k8s_openapi::api::{
    authentication::v1::{TokenReview, TokenReviewSpec},
    core::v1::Pod,
};
use kube::{
    Api, Client, ResourceExt as _,
    api::{ObjectMeta, PostParams},
};
use ludis_crds::{OUTPUT_AUDIENCE, STORAGE_AUDIENCE};

use super::node;

/// One exchange of a pod's token for credentials.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    pub namespace: String,
    pub pod: String,
    /// The token's audience.
    pub audience: String,
    /// The pod's annotations when it made the exchange.
    pub annotations: BTreeMap<String, String>,
}

static EXCHANGES: Mutex<Vec<Exchange>> = Mutex::new(Vec::new());

/// The exchanges made so far by pods of `namespace`.
pub fn exchanges(namespace: &str) -> Vec<Exchange> {
    EXCHANGES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter(|e| e.namespace == namespace)
        .cloned()
        .collect()
}

/// A listener on the host's end of the node's link (where pods reach this machine) and the URL
/// pods reach it at.
pub fn bind() -> (std::net::TcpListener, String) {
    let listener = std::net::TcpListener::bind((node::host_ip(), 0)).unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    (listener, url)
}

#[derive(Clone)]
struct Gateway {
    client: Client,
    http: reqwest::Client,
    s3_endpoint: String,
}

/// Serves the stand-in on `listener` until the runtime ends.
pub async fn serve(listener: std::net::TcpListener, client: Client) {
    let gateway = Gateway {
        client,
        http: reqwest::Client::new(),
        s3_endpoint: node::s3_endpoint(),
    };
    let app = axum::Router::new().fallback(handle).with_state(gateway);
    let listener = tokio::net::TcpListener::from_std(listener).unwrap();
    axum::serve(listener, app).await.unwrap();
}

/// The largest request passed on (the tests' files are small).
const MAX_BODY: usize = 64 * 1024 * 1024;

async fn handle(State(gateway): State<Gateway>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = to_bytes(body, MAX_BODY).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let form = parts
        .headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/x-www-form-urlencoded"));
    if parts.method == "POST" && parts.uri.path() == "/" && form {
        return assume_role_with_web_identity(&gateway, &body).await;
    }
    let url = format!(
        "{}{}",
        gateway.s3_endpoint.trim_end_matches('/'),
        parts.uri.path_and_query().map_or("/", |p| p.as_str())
    );
    // The Host header stays: the request is signed for it.
    let mut headers = parts.headers.clone();
    for hop in [
        header::CONNECTION,
        header::TRANSFER_ENCODING,
        header::CONTENT_LENGTH,
    ] {
        headers.remove(hop);
    }
    let answer = match gateway
        .http
        .request(parts.method.clone(), url)
        .headers(headers)
        .body(body)
        .send()
        .await
    {
        Ok(answer) => answer,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if name != header::TRANSFER_ENCODING && name != header::CONNECTION {
            response = response.header(name, value);
        }
    }
    let bytes = answer.bytes().await.unwrap_or_default();
    response.body(Body::from(bytes)).unwrap()
}

/// STS: the pod behind the token, recorded, and credentials of the local S3 server.
async fn assume_role_with_web_identity(gateway: &Gateway, form: &[u8]) -> Response {
    let query = format!("http://form/?{}", String::from_utf8_lossy(form));
    let params: BTreeMap<String, String> = reqwest::Url::parse(&query)
        .map(|u| u.query_pairs().into_owned().collect())
        .unwrap_or_default();
    let token = params.get("WebIdentityToken").cloned().unwrap_or_default();
    if params.get("Action").map(String::as_str) != Some("AssumeRoleWithWebIdentity") || token.is_empty() {
        return sts_error(
            StatusCode::BAD_REQUEST,
            "InvalidAction",
            "not AssumeRoleWithWebIdentity",
        );
    }
    for audience in [STORAGE_AUDIENCE, OUTPUT_AUDIENCE] {
        if let Some((namespace, pod)) = review(&gateway.client, &token, audience).await {
            let annotations = Api::<Pod>::namespaced(gateway.client.clone(), &namespace)
                .get(&pod)
                .await
                .map(|p| p.annotations().clone())
                .unwrap_or_default();
            EXCHANGES
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Exchange {
                    namespace,
                    pod,
                    audience: audience.to_owned(),
                    annotations,
                });
            let body = format!(
                "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\
                 <AssumeRoleWithWebIdentityResult><Credentials>\
                 <AccessKeyId>{}</AccessKeyId><SecretAccessKey>{}</SecretAccessKey>\
                 <SessionToken>test-session</SessionToken><Expiration>{}</Expiration>\
                 </Credentials><SubjectFromWebIdentityToken>pod</SubjectFromWebIdentityToken>\
                 <AssumedRoleUser><Arn>arn:aws:sts::000000000000:assumed-role/test/pod</Arn>\
                 <AssumedRoleId>test:pod</AssumedRoleId></AssumedRoleUser>\
                 </AssumeRoleWithWebIdentityResult>\
                 <ResponseMetadata><RequestId>test</RequestId></ResponseMetadata>\
                 </AssumeRoleWithWebIdentityResponse>",
                node::s3_access_key(),
                node::s3_secret_key(),
                // An hour, as the real gateway's sessions.
                k8s_openapi::jiff::Timestamp::now() + k8s_openapi::jiff::SignedDuration::from_hours(1),
            );
            return ([(header::CONTENT_TYPE, "text/xml")], body).into_response();
        }
    }
    sts_error(
        StatusCode::FORBIDDEN,
        "AccessDenied",
        "not a pod's token for the storage audiences",
    )
}

/// The namespace and pod a token was issued to for `audience`, as the cluster reviews it.
async fn review(client: &Client, token: &str, audience: &str) -> Option<(String, String)> {
    let review = TokenReview {
        metadata: ObjectMeta::default(),
        spec: TokenReviewSpec {
            token: Some(token.trim().to_owned()),
            audiences: Some(vec![audience.to_owned()]),
        },
        status: None,
    };
    let status = Api::<TokenReview>::all(client.clone())
        .create(&PostParams::default(), &review)
        .await
        .ok()?
        .status?;
    if status.authenticated != Some(true) || !status.audiences?.iter().any(|a| a == audience) {
        return None;
    }
    let user = status.user?;
    let namespace = user
        .username?
        .strip_prefix("system:serviceaccount:")?
        .split_once(':')?
        .0
        .to_owned();
    let pod = user
        .extra?
        .get("authentication.kubernetes.io/pod-name")?
        .first()?
        .clone();
    Some((namespace, pod))
}

fn sts_error(status: StatusCode, code: &str, message: &str) -> Response {
    let body = format!(
        "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\"><Error><Type>Sender</Type>\
         <Code>{code}</Code><Message>{message}</Message></Error><RequestId>test</RequestId></ErrorResponse>"
    );
    (status, [(header::CONTENT_TYPE, "text/xml")], body).into_response()
}

/// The SDK config file the API writes into every organization's namespace (ConfigMap
/// `ludis-storage-client`), for the tests' namespaces.
pub async fn client_config(client: &Client, ns: &str) {
    use k8s_openapi::api::core::v1::ConfigMap;
    let cm: ConfigMap = serde_json::from_value(serde_json::json!({
        "metadata": {"name": ludis_crds::STORAGE_CLIENT_CONFIGMAP},
        "data": {ludis_crds::STORAGE_CLIENT_CONFIG_KEY: "[default]\ns3 =\n    addressing_style = path\n"}
    }))
    .unwrap();
    Api::<ConfigMap>::namespaced(client.clone(), ns)
        .create(&PostParams::default(), &cm)
        .await
        .unwrap();
}
