//! Running git's `http-backend` as a CGI program: the request body streamed to its standard
//! input (at most a stated number of bytes), its CGI headers parsed into the response, the rest
//! of its output streamed back as the body.
//!
//! The response starts once the whole request body has been handed over (or once the program has
//! written [`PREBUFFER_BYTES`] without reading everything, so neither side can wait for the
//! other). A body over the limit therefore still gets a clean `413` in the usual case: git's
//! programs answer only after reading their input.

use std::path::PathBuf;
use std::process::Stdio;

use axum::body::{Body, Bytes};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{ChildStdin, Command};
use tokio::sync::oneshot;
use tokio_util::io::ReaderStream;

/// How much of the program's output is held while its input is still being written.
pub(crate) const PREBUFFER_BYTES: usize = 1024 * 1024;

/// The most bytes of CGI headers accepted.
const MAX_HEADER_BYTES: usize = 64 * 1024;

/// The most bytes of the program's standard error kept for the log.
const MAX_STDERR_BYTES: usize = 16 * 1024;

/// One CGI run.
pub(crate) struct Cgi {
    pub program: PathBuf,
    pub env: Vec<(&'static str, String)>,
    pub body: Body,
    pub max_body_bytes: u64,
}

/// Why the request body was not handed over completely.
enum BodyError {
    TooLarge,
    Client,
    /// The program stopped reading (it failed, or answered early); its output says why.
    Closed,
}

impl Cgi {
    pub(crate) async fn run(self) -> Response {
        let mut child = match Command::new(&self.program)
            .env_clear()
            .envs(self.env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
        {
            Ok(child) => child,
            Err(error) => {
                tracing::error!(program = %self.program.display(), %error, "failed to start git http-backend");
                return internal_error();
            }
        };
        let (Some(stdin), Some(mut stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return internal_error();
        };

        let (kill, killed) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let stderr = tokio::spawn(read_limited(stderr));
            let status = tokio::select! {
                status = child.wait() => status,
                // Only a sent signal kills: the sender is dropped once the body is handed over.
                Ok(()) = killed => {
                    let _ = child.start_kill();
                    child.wait().await
                }
            };
            let stderr = stderr.await.unwrap_or_default();
            match status {
                Ok(status) if status.success() => {}
                Ok(status) => {
                    tracing::warn!(%status, stderr = %String::from_utf8_lossy(&stderr), "git http-backend failed")
                }
                Err(error) => tracing::warn!(%error, "failed to wait for git http-backend"),
            }
        });
        let mut writer = tokio::spawn(write_body(self.body, stdin, self.max_body_bytes, kill));

        // Hold the output until the input is handed over, so an oversized body can still be
        // answered with 413 instead of a cut stream.
        let mut output = Vec::new();
        let mut output_ended = false;
        let written = loop {
            tokio::select! {
                biased;
                written = &mut writer => break written.ok(),
                read = stdout.read_buf(&mut output), if !output_ended => match read {
                    Ok(0) | Err(_) => output_ended = true,
                    Ok(_) if output.len() >= PREBUFFER_BYTES => break None,
                    Ok(_) => {}
                },
            }
        };
        match written {
            Some(Err(BodyError::TooLarge)) => return too_large(self.max_body_bytes),
            Some(Err(BodyError::Client)) => {
                return (StatusCode::BAD_REQUEST, "The request body could not be read\n").into_response();
            }
            Some(Ok(())) | Some(Err(BodyError::Closed)) | None => {}
        }

        let header_end = loop {
            if let Some(end) = header_end(&output) {
                break end;
            }
            if output_ended || output.len() > MAX_HEADER_BYTES {
                tracing::warn!("git http-backend ended without complete CGI headers");
                return internal_error();
            }
            match stdout.read_buf(&mut output).await {
                Ok(0) | Err(_) => output_ended = true,
                Ok(_) => {}
            }
        };
        let Some(mut response) = response_head(&output[..header_end]) else {
            tracing::warn!("git http-backend wrote CGI headers that could not be parsed");
            return internal_error();
        };
        let rest = Bytes::copy_from_slice(&output[header_end..]);
        let body = futures::stream::once(async move { Ok::<_, std::io::Error>(rest) })
            .chain(ReaderStream::new(stdout));
        *response.body_mut() = Body::from_stream(body);
        response
    }
}

/// Copies the request body to the program, at most `limit` bytes; over the limit, or when the
/// client's body fails, the program is killed so a partial push is never applied.
async fn write_body(
    body: Body,
    mut stdin: ChildStdin,
    limit: u64,
    kill: oneshot::Sender<()>,
) -> Result<(), BodyError> {
    let mut stream = body.into_data_stream();
    let mut total: u64 = 0;
    let result = loop {
        let Some(chunk) = stream.next().await else {
            break Ok(());
        };
        let Ok(chunk) = chunk else {
            break Err(BodyError::Client);
        };
        total += chunk.len() as u64;
        if total > limit {
            break Err(BodyError::TooLarge);
        }
        if stdin.write_all(&chunk).await.is_err() {
            break Err(BodyError::Closed);
        }
    };
    match result {
        Err(BodyError::TooLarge | BodyError::Client) => {
            let _ = kill.send(());
        }
        // Closing standard input tells the program the request is complete.
        Ok(()) => drop(stdin.shutdown().await),
        Err(BodyError::Closed) => {}
    }
    result
}

async fn read_limited(mut reader: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(read @ 1..) = reader.read(&mut chunk).await {
        let room = MAX_STDERR_BYTES.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..read.min(room)]);
    }
    kept
}

/// Where the CGI headers end (after the blank line), if they have.
fn header_end(output: &[u8]) -> Option<usize> {
    let crlf = output.windows(4).position(|w| w == b"\r\n\r\n").map(|at| at + 4);
    let lf = output.windows(2).position(|w| w == b"\n\n").map(|at| at + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The response status and headers from a CGI header block (`Status: 403 Forbidden` sets the
/// status; every other header is passed on).
fn response_head(block: &[u8]) -> Option<Response> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let httparse::Status::Complete((_, parsed)) = httparse::parse_headers(block, &mut headers).ok()? else {
        return None;
    };
    let mut response = Response::new(Body::empty());
    for header in parsed {
        if header.name.eq_ignore_ascii_case("status") {
            let code = std::str::from_utf8(header.value)
                .ok()?
                .split_whitespace()
                .next()?;
            *response.status_mut() = StatusCode::from_bytes(code.as_bytes()).ok()?;
        } else {
            let name = HeaderName::from_bytes(header.name.as_bytes()).ok()?;
            let value = HeaderValue::from_bytes(header.value).ok()?;
            response.headers_mut().append(name, value);
        }
    }
    Some(response)
}

pub(crate) fn too_large(limit: u64) -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("The push is too large (at most {} MiB)\n", limit >> 20),
    )
        .into_response()
}

fn internal_error() -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, "The git server failed\n").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cgi_headers_into_a_response() {
        let output = b"Status: 403 Forbidden\r\nContent-Type: text/plain\r\nExpires: Fri, 01 Jan 1980 00:00:00 GMT\r\n\r\nbody";
        let end = header_end(output).unwrap();
        assert_eq!(&output[end..], b"body");
        let response = response_head(&output[..end]).unwrap();
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        assert_eq!(response.headers()["content-type"], "text/plain");
        assert!(response.headers().contains_key("expires"));

        let plain = b"Content-Type: application/x-git-upload-pack-result\n\nPACK";
        let end = header_end(plain).unwrap();
        assert_eq!(response_head(&plain[..end]).unwrap().status(), StatusCode::OK);

        assert_eq!(header_end(b"Content-Type: text/plain\r\n"), None);
        assert!(response_head(b"Status: abc\r\n\r\n").is_none());
        assert!(response_head(b"Bad Header\r\n\r\n").is_none());
    }
}
