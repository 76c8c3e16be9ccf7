//! The chains' JSON-RPC clients: an alloy provider per configured chain
//! (`LUDIS_WEB3_RPC_ETHEREUM`, `LUDIS_WEB3_RPC_POLYGON`), whose transport is the API's own hyper
//! client over rustls with ring and the system's roots — the stack the assistant's provider
//! client uses — so alloy brings no second HTTP or TLS stack. An endpoint's URL may carry a key
//! (hosted providers put it in the path), so it is never logged or answered; the chain's name is.

use std::{collections::HashMap, task, time::Duration};

use alloy::{
    providers::RootProvider,
    rpc::{
        client::RpcClient,
        json_rpc::{RequestPacket, ResponsePacket},
    },
    transports::{TransportError, TransportErrorKind, TransportFut},
};
use axum::body::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::{Request, Uri, header};

use crate::{domain::Chain, outbound::HttpsClient};

/// The largest answer read (one `eth_getLogs` range of a busy collection: about 600 bytes a log).
const ANSWER_MAX: usize = 512 * 1024 * 1024;
/// How long one call may take, its whole answer read.
const CALL_TIMEOUT: Duration = Duration::from_secs(120);

/// A JSON-RPC endpoint reached over HTTP(S): alloy's transport is any tower service from
/// request packets to response packets.
#[derive(Clone)]
struct HyperTransport {
    client: HttpsClient,
    endpoint: Uri,
}

impl tower::Service<RequestPacket> for HyperTransport {
    type Response = ResponsePacket;
    type Error = TransportError;
    type Future = TransportFut<'static>;

    fn poll_ready(&mut self, _: &mut task::Context<'_>) -> task::Poll<Result<(), Self::Error>> {
        task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, packet: RequestPacket) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            tokio::time::timeout(CALL_TIMEOUT, this.send(packet))
                .await
                .map_err(|_| TransportErrorKind::custom_str("the chain did not answer in time"))?
        })
    }
}

impl HyperTransport {
    async fn send(self, packet: RequestPacket) -> Result<ResponsePacket, TransportError> {
        let body = packet.serialize().map_err(TransportError::ser_err)?;
        let request = Request::post(self.endpoint)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Full::new(Bytes::from(body.get().to_owned())))
            .map_err(TransportErrorKind::custom)?;
        let response = self
            .client
            .request(request)
            .await
            .map_err(TransportErrorKind::custom)?;
        let status = response.status();
        let body = Limited::new(response.into_body(), ANSWER_MAX)
            .collect()
            .await
            .map_err(|e| TransportErrorKind::custom_str(&format!("reading the answer: {e}")))?
            .to_bytes();
        if !status.is_success() {
            let text = String::from_utf8_lossy(&body[..body.len().min(2048)]).into_owned();
            return Err(TransportErrorKind::http_error(status.as_u16(), text));
        }
        serde_json::from_slice(&body)
            .map_err(|e| TransportError::deser_err(e, String::from_utf8_lossy(&body)))
    }
}

/// The configured chains' providers.
#[derive(Clone, Default)]
pub struct Chains {
    providers: HashMap<Chain, RootProvider>,
}

/// Why a chain cannot be asked.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    #[error("The {0} chain is not configured (LUDIS_WEB3_RPC_{0}).")]
    NotConfigured(Chain),
    #[error("The {chain} chain cannot be reached: {reason}")]
    Unreachable { chain: Chain, reason: String },
}

/// Checks an endpoint: an `http(s)://` URL without credentials or fragment.
pub fn endpoint(chain: Chain, url: &str) -> Result<Uri, String> {
    let url = url.trim();
    let parsed = url::Url::parse(url).map_err(|e| format!("LUDIS_WEB3_RPC_{chain} is not a URL: {e}"))?;
    if !matches!(parsed.scheme(), "http" | "https")
        || parsed.host_str().is_none_or(str::is_empty)
        || !parsed.username().is_empty()
        || parsed.password().is_some()
        || parsed.fragment().is_some()
    {
        return Err(format!(
            "LUDIS_WEB3_RPC_{chain} must be an http(s) URL without credentials or fragment"
        ));
    }
    parsed
        .as_str()
        .parse()
        .map_err(|e| format!("LUDIS_WEB3_RPC_{chain}: {e}"))
}

impl Chains {
    /// A provider for each chain with an endpoint (`(chain, url)`; empty URLs are skipped).
    pub fn connect<'a>(endpoints: impl IntoIterator<Item = (Chain, &'a str)>) -> anyhow::Result<Self> {
        let client = crate::outbound::https_client()?;
        let mut providers = HashMap::new();
        for (chain, url) in endpoints {
            if url.trim().is_empty() {
                continue;
            }
            let endpoint = endpoint(chain, url).map_err(anyhow::Error::msg)?;
            let local = endpoint
                .host()
                .is_some_and(|h| h == "localhost" || h.starts_with("127.") || h == "[::1]");
            let transport = HyperTransport {
                client: client.clone(),
                endpoint,
            };
            providers.insert(chain, RootProvider::new(RpcClient::new(transport, local)));
        }
        Ok(Self { providers })
    }

    /// The chain's provider.
    pub fn provider(&self, chain: Chain) -> Result<&RootProvider, ChainError> {
        self.providers.get(&chain).ok_or(ChainError::NotConfigured(chain))
    }

    /// The chains with an endpoint.
    pub fn configured(&self) -> impl Iterator<Item = Chain> + '_ {
        self.providers.keys().copied()
    }
}

/// A transport failure as the chain's reason (`chain` for messages).
pub fn unreachable(chain: Chain, e: &TransportError) -> ChainError {
    ChainError::Unreachable {
        chain,
        reason: e.to_string().chars().take(300).collect(),
    }
}
