//! Previews in a worker process: a malformed file that makes a parser panic or run out of memory
//! ends that process, never the caller.

use super::*;

/// The first argument that makes a process a preview worker (see [`run_worker_if_asked`]).
pub const WORKER_ARG: &str = "--ludis-preview-worker";

/// Most of a worker's answer read back: 50 rows of 100 cells of 1000 characters, JSON-escaped.
const WORKER_OUTPUT_MAX: u64 = 64 << 20;

/// For a binary that uses [`preview_isolated`]: call this first in `main`. In a process started as
/// a preview worker it reads the file's bytes from stdin, writes the preview as JSON to stdout and
/// exits; in any other process it returns at once.
pub fn run_worker_if_asked() {
    use std::io::{Read, Write};
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() != Some(WORKER_ARG) {
        return;
    }
    let format = args.next().and_then(|name| format_of(&format!("file.{name}")));
    let complete = args.next().as_deref() == Some("complete");
    let mut bytes = Vec::new();
    let read = std::io::stdin()
        .take(SHEET_MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes);
    let out = match (format, read) {
        (Some(format), Ok(_)) => preview(format, &bytes, complete),
        (None, _) => Err(refused("unknown preview format")),
        (_, Err(e)) => Err(refused(format!("failed to read the file: {e}"))),
    };
    let answer = match out {
        Ok(preview) => Answer::Ok(preview),
        Err(e) => Answer::Err(e.to_string()),
    };
    let mut stdout = std::io::stdout().lock();
    let written = serde_json::to_writer(&mut stdout, &answer).is_ok() && stdout.flush().is_ok();
    std::process::exit(if written { 0 } else { 1 });
}

/// What a worker writes: its preview, or why there is none (the JSON of a `Result`).
#[derive(Serialize, Deserialize)]
enum Answer<T> {
    Ok(T),
    Err(String),
}

/// [`Preview`] as a worker sends it back.
#[derive(Deserialize)]
struct WirePreview {
    format: String,
    columns: Vec<String>,
    rows: Vec<Vec<String>>,
    text: Option<String>,
    sheet: Option<String>,
    truncated: bool,
}

/// [`preview`] in a child process of the current executable (whose `main` must call
/// [`run_worker_if_asked`] first), so that a file that makes a reader abort on an impossible
/// allocation, or run away, costs the child and not the caller. The child is killed after
/// `timeout`. Blocking: from async code, call it on a blocking thread.
pub fn preview_isolated(
    format: Format,
    bytes: &[u8],
    complete: bool,
    timeout: std::time::Duration,
) -> Result<Preview, StorageError> {
    let exe =
        std::env::current_exe().map_err(|e| refused(format!("failed to start a preview worker: {e}")))?;
    preview_in_worker(&exe, format, bytes, complete, timeout)
}

/// [`preview_isolated`] with another executable as the worker (one whose `main` calls
/// [`run_worker_if_asked`] first), e.g. the server's binary when the caller is a test binary.
pub fn preview_in_worker(
    worker: &std::path::Path,
    format: Format,
    bytes: &[u8],
    complete: bool,
    timeout: std::time::Duration,
) -> Result<Preview, StorageError> {
    use std::{
        io::{Read, Write},
        process::{Command, Stdio},
        time::Instant,
    };
    const FAILED: &str = "The file could not be previewed";
    let mut child = Command::new(worker)
        .args([
            WORKER_ARG,
            format.name(),
            if complete { "complete" } else { "partial" },
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| refused(format!("failed to start a preview worker: {e}")))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(refused("failed to start a preview worker: no pipes"));
    };
    let input = bytes.to_vec();
    // Write and read on their own threads, so neither side can block the other on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(WORKER_OUTPUT_MAX).read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(std::time::Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let _ = writer.join();
    let out = reader.join().unwrap_or_default();
    let Some(status) = status else {
        return Err(refused(format!(
            "{FAILED} (it took longer than {} s)",
            timeout.as_secs_f32()
        )));
    };
    if !status.success() {
        return Err(refused(format!("{FAILED} (the reader failed: {status})")));
    }
    let wire: Answer<WirePreview> = serde_json::from_slice(&out)
        .map_err(|_| refused(format!("{FAILED} (the reader's answer was unreadable)")))?;
    let wire = match wire {
        Answer::Ok(wire) => wire,
        Answer::Err(e) => return Err(refused(e)),
    };
    let format = Format::ALL
        .into_iter()
        .find(|f| f.name() == wire.format)
        .ok_or_else(|| refused(format!("{FAILED} (the reader's answer was unreadable)")))?;
    Ok(Preview {
        format: format.name(),
        columns: wire.columns,
        rows: wire.rows,
        text: wire.text,
        sheet: wire.sheet,
        truncated: wire.truncated,
    })
}
