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
    use std::io::Read;
    let mut args = std::env::args().skip(1).peekable();
    if args.next().as_deref() != Some(WORKER_ARG) {
        return;
    }
    if args.peek().map(String::as_str) == Some(CSV_MODE) {
        args.next();
        let format = args.next().and_then(|name| format_of(&format!("file.{name}")));
        let out = args.next();
        answer(sheet_csv_worker(format, out.as_deref()));
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
    answer(out);
}

/// The worker's mode that writes a workbook's first sheet as CSV to a file (not a format's name:
/// a preview worker's first argument is its format).
const CSV_MODE: &str = "sheet-to-csv";

/// Writes `result` to stdout as the worker's answer and exits.
fn answer<T: Serialize>(result: Result<T, StorageError>) -> ! {
    use std::io::Write;
    let answer = match result {
        Ok(v) => Answer::Ok(v),
        Err(e) => Answer::Err(e.to_string()),
    };
    let mut stdout = std::io::stdout().lock();
    let written = serde_json::to_writer(&mut stdout, &answer).is_ok() && stdout.flush().is_ok();
    std::process::exit(if written { 0 } else { 1 });
}

/// The CSV mode: the workbook from stdin, its first sheet's rows to the file `out`.
fn sheet_csv_worker(format: Option<Format>, out: Option<&str>) -> Result<u64, StorageError> {
    use std::io::Read;
    let (Some(format), Some(out)) = (format, out) else {
        return Err(refused(format!(
            "usage: {WORKER_ARG} {CSV_MODE} <xlsx|xls> <output file>"
        )));
    };
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(SHEET_MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused(format!("failed to read the file: {e}")))?;
    if bytes.len() > SHEET_MAX_BYTES {
        return Err(refused(SHEET_TOO_LARGE));
    }
    let file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(out)
        .map_err(|e| refused(format!("failed to open the output: {e}")))?;
    let mut writer = std::io::BufWriter::new(file);
    sheet_csv(format, &bytes, &mut writer)
}

/// Why a workbook is not read as data.
pub const SHEET_TOO_LARGE: &str = "Workbooks are read up to 20 MB; save larger data as CSV";

/// The first sheet of a workbook (XLSX or XLS) as CSV records in the file `out` (which must
/// exist), computed in a worker process as [`preview_in_worker`] does, with its limits
/// ([`SHEET_MAX_BYTES`] in, [`SHEET_MAX_UNPACKED_BYTES`] unpacked); the number of records.
/// `worker`: an executable whose `main` calls [`run_worker_if_asked`] first; `None`: this one.
pub fn sheet_csv_isolated(
    worker: Option<&std::path::Path>,
    format: Format,
    bytes: &[u8],
    out: &std::path::Path,
    timeout: std::time::Duration,
) -> Result<u64, StorageError> {
    if bytes.len() > SHEET_MAX_BYTES {
        return Err(refused(SHEET_TOO_LARGE));
    }
    let exe = match worker {
        Some(w) => w.to_owned(),
        None => {
            std::env::current_exe().map_err(|e| refused(format!("failed to start a sheet reader: {e}")))?
        }
    };
    let out = out
        .to_str()
        .ok_or_else(|| refused("failed to start a sheet reader: the output path is not UTF-8"))?;
    let answer = run_worker(
        &exe,
        &[CSV_MODE, format.name(), out],
        bytes,
        timeout,
        "The workbook could not be read",
    )?;
    match answer {
        Answer::Ok(rows) => Ok(rows),
        Answer::Err(e) => Err(refused(e)),
    }
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
    const FAILED: &str = "The file could not be previewed";
    let wire: Answer<WirePreview> = run_worker(
        worker,
        &[format.name(), if complete { "complete" } else { "partial" }],
        bytes,
        timeout,
        FAILED,
    )?;
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

/// Runs the worker `worker WORKER_ARG args…` with `bytes` on its stdin, kills it after `timeout`,
/// and reads its answer (`failed` starts the message of each way it can fail).
fn run_worker<T: serde::de::DeserializeOwned>(
    worker: &std::path::Path,
    args: &[&str],
    bytes: &[u8],
    timeout: std::time::Duration,
    failed: &str,
) -> Result<Answer<T>, StorageError> {
    use std::{
        io::{Read, Write},
        process::{Command, Stdio},
        time::Instant,
    };
    let mut child = Command::new(worker)
        .arg(WORKER_ARG)
        .args(args)
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
            "{failed} (it took longer than {} s)",
            timeout.as_secs_f32()
        )));
    };
    if !status.success() {
        return Err(refused(format!("{failed} (the reader failed: {status})")));
    }
    serde_json::from_slice(&out)
        .map_err(|_| refused(format!("{failed} (the reader's answer was unreadable)")))
}
