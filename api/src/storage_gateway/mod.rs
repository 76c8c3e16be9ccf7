//! The storage gateway: how code in a user's pod reaches object storage without holding a bucket
//! key (docs/design.md "Storage from pods"). It listens on a port of its own
//! (`LUDIS_STORAGE_LISTEN`), where pods find it as `AWS_ENDPOINT_URL` and `AWS_ENDPOINT_URL_STS`
//! (the operator's `LUDIS_STORAGE_URL`), and serves two things:
//!
//! - STS `AssumeRoleWithWebIdentity` ([`sts`]): the pod's projected service-account token in,
//!   short-lived credentials of that pod out ([`session`]). The AWS SDKs do this by themselves.
//! - S3 (s3s): requests signed with those credentials are verified (SigV4), checked against what
//!   the pod's workload may reach now ([`grants`], [`access`]: the datasets it references at its
//!   owner's level by the one access rule, or a report's output folder) and forwarded with the
//!   API's own credentials (s3s-aws's proxy over the API's S3 client). Anything else — another
//!   organization's data, archived logs, rendered reports, bucket administration — is refused.

pub mod access;
pub mod grants;
pub mod session;
pub mod sts;

use axum::{
    Router,
    body::Body,
    extract::{Request, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use s3s::service::{S3Service, S3ServiceBuilder};
use tokio::net::TcpListener;

use crate::state::AppState;

/// The gateway's state: the API's and the S3 service.
#[derive(Clone)]
struct Gateway {
    state: AppState,
    s3: S3Service,
}

/// The gateway's routes; without object storage, every call answers that there is none.
pub fn router(state: AppState) -> Router {
    let Some(client) = state.s3.clone() else {
        return Router::new().fallback(no_storage);
    };
    let mut builder = S3ServiceBuilder::new(s3s_aws::Proxy::from(client));
    builder.set_auth(access::Auth {
        key: state.auth.jwt_key.clone(),
    });
    builder.set_access(access::Access {
        state: state.clone(),
        cache: grants::Cache::default(),
    });
    let s3 = builder.build();
    Router::new().fallback(handle).with_state(Gateway { state, s3 })
}

async fn no_storage() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        "no object storage is configured (LUDIS_S3_ENDPOINT): pods reach no dataset",
    )
        .into_response()
}

async fn handle(State(gateway): State<Gateway>, request: Request) -> Response {
    if sts::is_sts(request.method(), request.uri(), request.headers()) {
        return sts::handle(&gateway.state, request.into_body()).await;
    }
    match gateway.s3.call(request.map(s3s::Body::http_body_unsync)).await {
        Ok(response) => response.map(Body::new),
        Err(e) => {
            tracing::warn!(error = ?e, "storage gateway: the request failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "the storage gateway failed").into_response()
        }
    }
}

/// Serves the gateway on `listener` until the task is dropped.
pub async fn serve(listener: TcpListener, state: AppState) -> std::io::Result<()> {
    if state.s3.is_none() {
        tracing::warn!(
            "the storage gateway answers 503: no object storage is configured (LUDIS_S3_ENDPOINT)"
        );
    }
    axum::serve(listener, router(state)).await
}
