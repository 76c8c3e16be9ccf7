//! The files and folders of a dataset: listing one folder a page at a time, folders as marker
//! objects, deletion of a file or a whole folder, and reading a file's size or first bytes.
//!
//! Every function that takes a relative key checks that it is already normalised (see
//! [`crate::keys`]), so a caller that forgot to normalise gets an error rather than a key outside
//! the dataset's prefix.

use aws_sdk_s3::primitives::{ByteStream, DateTimeFormat};

use crate::{
    StorageError,
    error::{self, KeyProblem},
    keys::{self, FOLDER_MARKER},
};

/// A file in a listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the dataset's prefix, e.g. `folder/a.csv`.
    pub key: String,
    pub size: i64,
    /// RFC 3339, e.g. `2025-01-31T12:00:00Z`.
    pub last_modified: Option<String>,
}

/// One page of a folder's listing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    pub files: Vec<Entry>,
    /// Sub-folders, relative, each ending with `/`.
    pub folders: Vec<String>,
    pub is_truncated: bool,
    /// The raw S3 continuation token of the next page.
    pub next_token: Option<String>,
}

/// `relative` must be what [`keys::normalise`] makes of it, and of the wanted kind.
fn checked(
    verb: &'static str,
    bucket: &str,
    dataset_prefix: &str,
    relative: &str,
    kind: Kind,
) -> Result<String, StorageError> {
    let fail = |problem: KeyProblem| StorageError::Key {
        action: verb,
        relative: relative.to_owned(),
        bucket: bucket.to_owned(),
        prefix: dataset_prefix.to_owned(),
        problem,
    };
    let normal = match kind {
        Kind::File => keys::file(relative),
        Kind::Folder | Kind::NonRootFolder => keys::folder(relative),
        Kind::FileOrFolder => keys::normalise(relative),
    }
    .map_err(|e| fail(e.into()))?;
    if normal != relative {
        return Err(fail(KeyProblem::NotNormalised));
    }
    if relative.is_empty() && kind != Kind::Folder {
        return Err(fail(KeyProblem::DatasetRoot));
    }
    Ok(keys::absolute(dataset_prefix, relative))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    NonRootFolder,
    FileOrFolder,
}

/// One page of `folder` (relative, `""` for the root or ending with `/`) with delimiter `/`:
/// the files directly in it and its sub-folders. Folder markers and an object named like the
/// folder itself are hidden, so a page may hold fewer than `max_keys` entries. Keys come back
/// relative to `dataset_prefix`.
pub async fn list_page(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    folder: &str,
    max_keys: i32,
    token: Option<&str>,
) -> Result<Page, StorageError> {
    let prefix = checked("list", bucket, dataset_prefix, folder, Kind::Folder)?;
    let out = s3
        .list_objects_v2()
        .bucket(bucket)
        .prefix(&prefix)
        .delimiter("/")
        .max_keys(max_keys)
        .set_continuation_token(token.map(str::to_owned))
        .send()
        .await
        .map_err(|e| StorageError::object("list", bucket, &prefix, e))?;
    let files = out
        .contents()
        .iter()
        .filter_map(|o| {
            let key = o.key()?;
            if key == prefix || keys::is_marker(key) {
                return None;
            }
            Some(Entry {
                key: key.strip_prefix(dataset_prefix)?.to_owned(),
                size: o.size().unwrap_or(0),
                last_modified: o
                    .last_modified()
                    .and_then(|t| t.fmt(DateTimeFormat::DateTime).ok()),
            })
        })
        .collect();
    let folders = out
        .common_prefixes()
        .iter()
        .filter_map(|p| Some(p.prefix()?.strip_prefix(dataset_prefix)?.to_owned()))
        .collect();
    let is_truncated = out.is_truncated().unwrap_or(false);
    Ok(Page {
        files,
        folders,
        is_truncated,
        next_token: out
            .next_continuation_token()
            .map(str::to_owned)
            .filter(|_| is_truncated),
    })
}

/// Deletes one file (`relative` does not end with `/`), or, for a folder (ends with `/`),
/// everything under it including its markers. Returns how many objects were removed, markers
/// not counted. Deleting a file that does not exist removes nothing and is not an error.
pub async fn delete(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    relative: &str,
) -> Result<usize, StorageError> {
    let key = checked("delete", bucket, dataset_prefix, relative, Kind::FileOrFolder)?;
    if key.ends_with('/') {
        let (all, markers) = delete_under(s3, bucket, &key).await?;
        return Ok(all - markers);
    }
    let existed = head_absolute(s3, bucket, &key).await?.is_some();
    s3.delete_object()
        .bucket(bucket)
        .key(&key)
        .send()
        .await
        .map_err(|e| StorageError::object("delete", bucket, &key, e))?;
    Ok(usize::from(existed))
}

/// Writes the (empty) marker object of `relative_folder` (ends with `/`), so the folder is listed
/// while it holds nothing else.
pub async fn create_folder(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    relative_folder: &str,
) -> Result<(), StorageError> {
    let folder = checked(
        "create the folder",
        bucket,
        dataset_prefix,
        relative_folder,
        Kind::NonRootFolder,
    )?;
    put(
        s3,
        bucket,
        &format!("{folder}{FOLDER_MARKER}"),
        Vec::new(),
        "application/x-directory",
    )
    .await
}

/// The size of one file, `None` if there is no such object.
pub async fn head(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    relative: &str,
) -> Result<Option<i64>, StorageError> {
    let key = checked("read", bucket, dataset_prefix, relative, Kind::File)?;
    head_absolute(s3, bucket, &key).await
}

async fn head_absolute(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    key: &str,
) -> Result<Option<i64>, StorageError> {
    match s3.head_object().bucket(bucket).key(key).send().await {
        Ok(out) => Ok(Some(out.content_length().unwrap_or(0))),
        Err(e) if e.as_service_error().is_some_and(|s| s.is_not_found()) => Ok(None),
        Err(e) => Err(StorageError::object("read", bucket, key, e)),
    }
}

/// The first `max_bytes` of a file (a ranged GET) and its full size; `None` if there is no such
/// object. Never holds more than `max_bytes` in memory, even from a server that ignores ranges.
pub async fn read_head(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    relative: &str,
    max_bytes: usize,
) -> Result<Option<(Vec<u8>, i64)>, StorageError> {
    let key = checked("read", bucket, dataset_prefix, relative, Kind::File)?;
    let err = |e: error::Cause| StorageError::object("read", bucket, &key, e);
    if max_bytes == 0 {
        return Ok(head_absolute(s3, bucket, &key)
            .await?
            .map(|size| (Vec::new(), size)));
    }
    let out = match s3
        .get_object()
        .bucket(bucket)
        .key(&key)
        .range(format!("bytes=0-{}", max_bytes - 1))
        .send()
        .await
    {
        Ok(out) => out,
        Err(e) if e.as_service_error().is_some_and(|s| s.is_no_such_key()) => return Ok(None),
        // A range of an empty object is not satisfiable: read its size instead.
        Err(e) if e.raw_response().is_some_and(|r| r.status().as_u16() == 416) => {
            return Ok(head_absolute(s3, bucket, &key)
                .await?
                .map(|size| (Vec::new(), size)));
        }
        Err(e) => return Err(err(e.into())),
    };
    let total = out
        .content_range()
        .and_then(|r| r.rsplit('/').next())
        .and_then(|t| t.parse::<i64>().ok())
        .or(out.content_length())
        .unwrap_or(0);
    let mut body = out.body;
    let mut bytes = Vec::with_capacity(max_bytes.min(usize::try_from(total).unwrap_or(0)));
    while bytes.len() < max_bytes {
        match body.try_next().await.map_err(|e| err(e.into()))? {
            Some(chunk) => {
                let room = max_bytes - bytes.len();
                bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            None => break,
        }
    }
    Ok(Some((bytes, total)))
}

/// A file's whole body as a stream, and its size; `None` if there is no such object. Nothing is
/// held in memory beyond what the reader has not consumed yet.
pub async fn open(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    dataset_prefix: &str,
    relative: &str,
) -> Result<Option<(ByteStream, i64)>, StorageError> {
    let key = checked("read", bucket, dataset_prefix, relative, Kind::File)?;
    match s3.get_object().bucket(bucket).key(&key).send().await {
        Ok(out) => {
            let size = out.content_length().unwrap_or(0);
            Ok(Some((out.body, size)))
        }
        Err(e) if e.as_service_error().is_some_and(|s| s.is_no_such_key()) => Ok(None),
        Err(e) => Err(StorageError::object("read", bucket, &key, e)),
    }
}

/// Writes `body` to the absolute `key_absolute` (sample datasets and tests).
pub async fn put(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    key_absolute: &str,
    body: Vec<u8>,
    content_type: &str,
) -> Result<(), StorageError> {
    s3.put_object()
        .bucket(bucket)
        .key(key_absolute)
        .content_type(content_type)
        .body(ByteStream::from(body))
        .send()
        .await
        .map(|_| ())
        .map_err(|e| StorageError::object("write", bucket, key_absolute, e))
}

/// Deletes every object under `prefix` (up to 1000 per DeleteObjects call); returns how many
/// objects were deleted and how many of them were folder markers.
pub(crate) async fn delete_under(
    s3: &aws_sdk_s3::Client,
    bucket: &str,
    prefix: &str,
) -> Result<(usize, usize), StorageError> {
    use aws_sdk_s3::types::{Delete, ObjectIdentifier};
    let err = |e: error::Cause| StorageError::object("delete", bucket, prefix, e);
    let (mut deleted, mut markers) = (0, 0);
    loop {
        // Always list from the start: what was deleted is gone, so this ends.
        let page = s3
            .list_objects_v2()
            .bucket(bucket)
            .prefix(prefix)
            .max_keys(1000)
            .send()
            .await
            .map_err(|e| err(e.into()))?;
        let ids: Vec<_> = page
            .contents()
            .iter()
            .filter_map(|o| ObjectIdentifier::builder().key(o.key()?).build().ok())
            .collect();
        if ids.is_empty() {
            return Ok((deleted, markers));
        }
        let n = ids.len();
        let n_markers = ids.iter().filter(|id| keys::is_marker(id.key())).count();
        let delete = Delete::builder()
            .set_objects(Some(ids))
            .quiet(true)
            .build()
            .map_err(|e| err(e.into()))?;
        let out = s3
            .delete_objects()
            .bucket(bucket)
            .delete(delete)
            .send()
            .await
            .map_err(|e| err(e.into()))?;
        if let Some(e) = out.errors().first() {
            return Err(err(format!(
                "{}: {}",
                e.key().unwrap_or_default(),
                e.message().unwrap_or_default()
            )
            .into()));
        }
        deleted += n;
        markers += n_markers;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_keys_must_be_normalised_and_of_the_right_kind() {
        let p = "datasets/d/";
        let ok = |rel, kind| checked("x", "b", p, rel, kind).map_err(|e| e.to_string());
        assert_eq!(ok("a.csv", Kind::File).as_deref(), Ok("datasets/d/a.csv"));
        assert_eq!(ok("", Kind::Folder).as_deref(), Ok("datasets/d/"));
        assert_eq!(ok("f/", Kind::Folder).as_deref(), Ok("datasets/d/f/"));
        assert_eq!(ok("f/", Kind::NonRootFolder).as_deref(), Ok("datasets/d/f/"));
        assert_eq!(ok("f/", Kind::FileOrFolder).as_deref(), Ok("datasets/d/f/"));
        assert_eq!(ok("f/a", Kind::FileOrFolder).as_deref(), Ok("datasets/d/f/a"));
        for (rel, kind) in [
            ("", Kind::File),
            ("f/", Kind::File),
            ("", Kind::NonRootFolder),
            ("", Kind::FileOrFolder),
            ("f", Kind::Folder),
            ("./a", Kind::File),
            ("a//b", Kind::File),
            ("../x", Kind::FileOrFolder),
            ("../", Kind::Folder),
            ("/a", Kind::File),
            ("f/.ludis-folder", Kind::FileOrFolder),
        ] {
            let e = ok(rel, kind).unwrap_err();
            assert!(e.starts_with("failed to x "), "{rel:?}: {e}");
        }
    }
}
