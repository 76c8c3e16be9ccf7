//! Archived container logs: where a workload container's output is kept in its organization's
//! bucket once the operator has copied it, so a log outlives its pod. The operator writes
//! (`ludis-operator`'s log archiver); the API reads the newest archive of a project's preview or
//! an app for the same log view.
//!
//! Layout: `logs/<namespace>/<owner>/<run>/<container>.log`, where `<owner>` is
//! `projects/<name>`, `insights/<name>` or `workflowruns/<run>/<task>/<try>` and `<run>` is
//! `<start, Unix seconds, 12 digits>-<pod uid>`: run folders sort by start time. The namespace
//! comes first, so an organization's logs never mix with another's even in a shared bucket.
//! Names come from Kubernetes names and label values (no `/`, never `..`).

use aws_sdk_s3::primitives::ByteStream;

use crate::error::StorageError;

/// The most bytes of a container's output an archive keeps: its last part, cut at a line start.
pub const ARCHIVE_MAX_BYTES: usize = 4 * 1024 * 1024;
/// Archived runs kept per owner; older run folders are deleted when a new archive is written.
pub const RUNS_KEPT: usize = 20;

/// Whose container a log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogOwner {
    /// A project's preview (`Project` name).
    Project(String),
    /// An insight's app or report (`Insight` name).
    Insight(String),
    /// One try of a workflow run's task.
    Task {
        run: String,
        task: String,
        attempt: String,
    },
}

impl LogOwner {
    /// The folder of every archived run of this owner in `namespace` (ends with `/`).
    pub fn prefix(&self, namespace: &str) -> String {
        match self {
            LogOwner::Project(name) => format!("logs/{namespace}/projects/{name}/"),
            LogOwner::Insight(name) => format!("logs/{namespace}/insights/{name}/"),
            LogOwner::Task { run, task, attempt } => {
                format!("logs/{namespace}/workflowruns/{run}/{task}/{attempt}/")
            }
        }
    }

    /// The key of one container's archive: `<prefix><start>-<pod uid>/<container>.log`.
    pub fn key(&self, namespace: &str, started_unix: i64, pod_uid: &str, container: &str) -> String {
        format!(
            "{}{:012}-{pod_uid}/{container}.log",
            self.prefix(namespace),
            started_unix.max(0)
        )
    }
}

/// Pure: the run folder of an archive key under `prefix` (`<start>-<uid>/`), if it is one.
fn run_of<'a>(prefix: &str, key: &'a str) -> Option<&'a str> {
    let rest = key.strip_prefix(prefix)?;
    let slash = rest.find('/')?;
    Some(&rest[..=slash])
}

/// Pure: the newest key among `keys` (under `prefix`) that archives `container`.
pub fn newest<'a>(prefix: &str, keys: &'a [String], container: &str) -> Option<&'a String> {
    let file = format!("/{container}.log");
    keys.iter()
        .filter(|k| run_of(prefix, k).is_some() && k.ends_with(&file))
        .max()
}

/// Pure: the run folders of `keys` (under `prefix`) beyond the newest `keep`, oldest first.
pub fn expired(prefix: &str, keys: &[String], keep: usize) -> Vec<String> {
    let mut runs: Vec<&str> = keys.iter().filter_map(|k| run_of(prefix, k)).collect();
    runs.sort_unstable();
    runs.dedup();
    let excess = runs.len().saturating_sub(keep);
    runs[..excess]
        .iter()
        .map(|run| format!("{prefix}{run}"))
        .collect()
}

/// Every key under `prefix`.
pub async fn keys(s3: &aws_sdk_s3::Client, bucket: &str, prefix: &str) -> Result<Vec<String>, StorageError> {
    let mut pages = s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(prefix)
        .into_paginator()
        .send();
    let mut out = Vec::new();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| StorageError::object("list", bucket, prefix, e))?;
        out.extend(page.contents().iter().filter_map(|o| o.key().map(str::to_owned)));
    }
    Ok(out)
}

/// Writes (or replaces) an archive.
pub async fn write(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    key: &str,
    body: Vec<u8>,
) -> Result<(), StorageError> {
    s3.put_object()
        .bucket(bucket)
        .key(key)
        .content_type("text/plain; charset=utf-8")
        .body(ByteStream::from(body))
        .send()
        .await
        .map(|_| ())
        .map_err(|e| StorageError::object("write", bucket, key, e))
}

/// Deletes the run folders of `owner` beyond the newest [`RUNS_KEPT`]; how many were deleted.
pub async fn prune(s3: &aws_sdk_s3::Client, bucket: &str, prefix: &str) -> Result<usize, StorageError> {
    let all = keys(s3, bucket, prefix).await?;
    let mut deleted = 0;
    for run in expired(prefix, &all, RUNS_KEPT) {
        deleted += crate::delete_prefix(s3, bucket, &run).await?;
    }
    Ok(deleted)
}

/// The newest archive of `container` under `prefix`: its bytes, or None when there is none.
pub async fn latest(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    prefix: &str,
    container: &str,
) -> Result<Option<Vec<u8>>, StorageError> {
    let all = keys(s3, bucket, prefix).await?;
    let Some(key) = newest(prefix, &all, container) else {
        return Ok(None);
    };
    let object = s3
        .get_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .map_err(|e| StorageError::object("read", bucket, key, e))?;
    let body = object
        .body
        .collect()
        .await
        .map_err(|e| StorageError::object("read", bucket, key, e))?;
    Ok(Some(body.into_bytes().to_vec()))
}

/// The last part of a container's output, at most `max` bytes, starting at a line.
#[derive(Debug, Default)]
pub struct Tail {
    bytes: Vec<u8>,
    max: usize,
}

impl Tail {
    pub fn new(max: usize) -> Self {
        Self {
            bytes: Vec::new(),
            max,
        }
    }

    /// Appends output; drops the oldest lines beyond the limit.
    pub fn push(&mut self, more: &[u8]) {
        self.bytes.extend_from_slice(more);
        if self.bytes.len() > self.max {
            let cut = self.bytes.len() - self.max;
            // Start at the line after the cut (or exactly at the cut in a line longer than all).
            let start = if self.bytes[cut - 1] == b'\n' {
                cut
            } else {
                self.bytes[cut..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(cut, |p| cut + p + 1)
            };
            self.bytes.drain(..start);
        }
    }

    pub fn clear(&mut self) {
        self.bytes.clear();
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Pure: the last `n` lines of `log` (without their line ends).
pub fn last_lines(log: &[u8], n: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(log);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| (*l).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_runs_by_start_and_keep_organizations_apart() {
        let owner = LogOwner::Project("demo".into());
        assert_eq!(
            owner.key("org-a", 1_700_000_000, "u1", "preview"),
            "logs/org-a/projects/demo/001700000000-u1/preview.log"
        );
        let task = LogOwner::Task {
            run: "r1".into(),
            task: "clean".into(),
            attempt: "2".into(),
        };
        assert_eq!(task.prefix("org-b"), "logs/org-b/workflowruns/r1/clean/2/");
        let prefix = owner.prefix("org-a");
        let keys = vec![
            owner.key("org-a", 99, "old", "preview"),
            owner.key("org-a", 1_000, "new", "preview"),
            owner.key("org-a", 1_000, "new", "git"),
            owner.key("org-a", 500, "mid", "preview"),
        ];
        assert_eq!(newest(&prefix, &keys, "preview"), Some(&keys[1]));
        assert_eq!(newest(&prefix, &keys, "git"), Some(&keys[2]));
        assert_eq!(newest(&prefix, &keys, "other"), None);
        assert_eq!(
            expired(&prefix, &keys, 2),
            vec![format!("{prefix}000000000099-old/")]
        );
        assert!(expired(&prefix, &keys, 3).is_empty());
    }

    #[test]
    fn a_tail_keeps_whole_last_lines_within_its_limit() {
        let mut tail = Tail::new(10);
        tail.push(b"one\ntwo\n");
        tail.push(b"three\n");
        assert_eq!(
            tail.bytes(),
            b"two\nthree\n",
            "exactly the limit, from a line start"
        );
        tail.push(b"four\n");
        assert_eq!(tail.bytes(), b"four\n");
        let mut long = Tail::new(4);
        long.push(b"abcdefgh");
        assert_eq!(long.bytes(), b"efgh", "a line longer than the limit is cut");
        assert_eq!(last_lines(b"a\nb\nc\n", 2), vec!["b", "c"]);
        assert_eq!(last_lines(b"", 2), Vec::<String>::new());
    }
}
