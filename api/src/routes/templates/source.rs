//! A template app's data file and how it is read. The file is the one a call names with `file`,
//! else the one chosen in the wizard and stored with the app, else the dataset's default: its
//! first `.csv` at the top level (in key order), else its first `.xlsx` or `.xls` there. A CSV is
//! read from object storage as a stream, a record at a time. A workbook (up to 20 MB, as for
//! previews) has its first sheet turned into CSV records in a temporary file by a worker process
//! — the preview's reader and its checks, so a crafted workbook costs the worker, not the server
//! — and that file is read the same way. Reading and computing happen in the template pool
//! ([`crate::templates::pool`]): the caller's turn, a worker, the time bound and the row bound.

use std::{io::Read, time::Duration};

use ludis_storage::{
    keys,
    objects::{self, Entry},
    preview::{self, Format},
};
use tokio_util::io::SyncIoBridge;

use super::{
    bad,
    refusal::{self, FileFacts, Refusal},
};
use crate::{
    assets,
    auth::AuthUser,
    db::{
        datasets::{Dataset, DatasetRow},
        insights::InsightRow,
    },
    domain::AccessLevel,
    error::{ApiError, Result},
    routes::datasets::{path_error, s3, storage_error},
    state::AppState,
    templates::{TemplateError, limits::Limits},
};

/// How long a worker may take to turn a workbook's first sheet into CSV records (less when the
/// call has less time left).
const SHEET_TIMEOUT: Duration = Duration::from_secs(60);

pub const NOT_DATA: &str = "Template apps read .csv, .xlsx and .xls files";

/// The most data files a dataset's listing for the wizard holds.
pub const FILES_MAX: usize = 1000;

/// The format of a data file a template app reads: CSV, XLSX or XLS.
pub fn data_format(key: &str) -> Option<Format> {
    preview::format_of(key).filter(|f| matches!(f, Format::Csv | Format::Xlsx | Format::Xls))
}

/// A computation over a data file's records (CSV, or a workbook's first sheet as CSV).
type Work<T> = Box<dyn FnOnce(Box<dyn Read + Send>, &Limits) -> Result<T, TemplateError> + Send>;

/// [`Work`] with its input bound: what runs on the blocking thread.
type Job<T> = Box<dyn FnOnce(&Limits) -> Result<T, TemplateError> + Send>;

/// Where a template app's data is.
pub struct Source {
    bucket: String,
    prefix: String,
    /// Relative to the dataset.
    pub key: String,
    pub size: i64,
}

impl Source {
    /// The template app `id` and its first dataset, both viewable by the caller, and its data
    /// file: `file`, else the app's own, else the dataset's default.
    pub async fn of_app(state: &AppState, caller: &AuthUser, id: &str, file: Option<&str>) -> Result<Self> {
        let (insight, _) =
            assets::load::<InsightRow>(state, &caller.user, id.trim(), AccessLevel::View).await?;
        if !insight.details.is_template {
            return Err(bad("not_a_template", "This insight is not a template app"));
        }
        let dataset_id = insight
            .details
            .dataset_ids
            .first()
            .ok_or_else(|| bad("dataset_required", "Dataset must be selected!"))?;
        let named = named(file).or(insight.details.template_file.as_deref());
        Self::of_dataset(state, caller, dataset_id, named).await
    }

    /// Dataset `dataset_id`, viewable by the caller, and its data file `file` (else its default).
    pub async fn of_dataset(
        state: &AppState,
        caller: &AuthUser,
        dataset_id: &str,
        file: Option<&str>,
    ) -> Result<Self> {
        let (dataset, _) =
            assets::load::<DatasetRow>(state, &caller.user, dataset_id.trim(), AccessLevel::View).await?;
        Self::in_dataset(state, &dataset, named(file)).await
    }

    /// `file` (or the default) of `dataset`, which must exist.
    pub async fn in_dataset(state: &AppState, dataset: &Dataset, file: Option<&str>) -> Result<Self> {
        let (bucket, prefix) = (&dataset.details.bucket, &dataset.details.prefix);
        let found = match file {
            Some(f) => {
                let key = keys::file(f).map_err(path_error)?;
                if data_format(&key).is_none() {
                    return Err(bad("not_csv", NOT_DATA));
                }
                let (s3, _) = s3(state)?;
                let size = objects::head(s3, bucket, prefix, &key)
                    .await
                    .map_err(storage_error)?
                    .ok_or_else(|| ApiError::not_found("file_not_found", "File not found"))?;
                Entry {
                    key,
                    size,
                    last_modified: None,
                }
            }
            None => default_file(data_files(state, bucket, prefix).await?).ok_or_else(|| {
                bad(
                    "no_csv",
                    "The dataset has no .csv, .xlsx or .xls file at its top level; upload one or name it with `file`",
                )
            })?,
        };
        Ok(Self {
            bucket: bucket.clone(),
            prefix: prefix.clone(),
            key: found.key,
            size: found.size,
        })
    }

    pub fn facts(&self) -> FileFacts<'_> {
        FileFacts {
            name: &self.key,
            size: self.size,
        }
    }

    /// Runs `work` over the file's records in the template pool: the caller's turn and a worker,
    /// then the file opened and read on a blocking thread, within the time and row bounds.
    pub async fn read<T: Send + 'static>(
        &self,
        state: &AppState,
        caller: &AuthUser,
        work: impl FnOnce(Box<dyn Read + Send>, &Limits) -> Result<T, TemplateError> + Send + 'static,
    ) -> std::result::Result<T, Refusal> {
        let sheet = data_format(&self.key).filter(|f| matches!(f, Format::Xlsx | Format::Xls));
        // Refused before anything is downloaded, or a worker taken.
        if sheet.is_some() && self.size > preview::SHEET_MAX_BYTES as i64 {
            return Err(bad("workbook_too_large", preview::SHEET_TOO_LARGE).into());
        }
        let pool = &state.templates;
        let stopped = |stop| refusal::stopped(stop, &self.facts(), pool.timeout().as_secs(), pool.size());
        let ticket = pool.admit(&caller.user.uid).await.map_err(stopped)?;
        let work: Work<T> = Box::new(work);
        let job = match sheet {
            Some(sheet) => self.sheet_job(state, sheet, ticket.left(), work).await?,
            None => self.csv_job(state, work).await?,
        };
        ticket.run(job).await.map_err(stopped)
    }

    /// A CSV: its bytes, as they arrive.
    async fn csv_job<T: Send + 'static>(&self, state: &AppState, work: Work<T>) -> Result<Job<T>> {
        let (s3, _) = s3(state)?;
        let (body, _) = objects::open(s3, &self.bucket, &self.prefix, &self.key)
            .await
            .map_err(storage_error)?
            .ok_or_else(|| ApiError::not_found("file_not_found", "File not found"))?;
        let input = SyncIoBridge::new(body.into_async_read());
        Ok(Box::new(move |limits| work(Box::new(input), limits)))
    }

    /// A workbook (up to 20 MB): read whole, its first sheet written as CSV to a temporary file by
    /// a worker process (within the call's time left), then read like a CSV.
    async fn sheet_job<T: Send + 'static>(
        &self,
        state: &AppState,
        format: Format,
        left: Duration,
        work: Work<T>,
    ) -> Result<Job<T>> {
        let (s3, _) = s3(state)?;
        let (bytes, _) = objects::read_head(
            s3,
            &self.bucket,
            &self.prefix,
            &self.key,
            preview::SHEET_MAX_BYTES,
        )
        .await
        .map_err(storage_error)?
        .ok_or_else(|| ApiError::not_found("file_not_found", "File not found"))?;
        let worker = state.settings.preview_worker.clone();
        let timeout = SHEET_TIMEOUT.min(left);
        Ok(Box::new(move |limits| {
            let records = tempfile::NamedTempFile::new().map_err(|e| {
                TemplateError::Invalid(format!("failed to make room for the sheet's rows: {e}"))
            })?;
            let worker = (!worker.is_empty()).then(|| std::path::PathBuf::from(worker));
            preview::sheet_csv_isolated(worker.as_deref(), format, &bytes, records.path(), timeout)
                .map_err(|e| TemplateError::Invalid(e.to_string()))?;
            limits.cancel.check()?;
            let file = records
                .reopen()
                .map_err(|e| TemplateError::Invalid(format!("failed to read the sheet's rows: {e}")))?;
            // `records` (and its file) lives until the work is done.
            let out = work(Box::new(std::io::BufReader::new(file)), limits);
            drop(records);
            out
        }))
    }
}

/// A file a request names, trimmed; empty is none.
fn named(file: Option<&str>) -> Option<&str> {
    file.map(str::trim).filter(|f| !f.is_empty())
}

/// The data files at the top of the dataset, in key order (at most [`FILES_MAX`]).
pub async fn data_files(state: &AppState, bucket: &str, prefix: &str) -> Result<Vec<Entry>> {
    let (s3, _) = s3(state)?;
    let mut token = None;
    let mut files = Vec::new();
    loop {
        let page = objects::list_page(s3, bucket, prefix, "", 1000, token.as_deref())
            .await
            .map_err(storage_error)?;
        files.extend(page.files.into_iter().filter(|f| data_format(&f.key).is_some()));
        match page.next_token {
            Some(t) if files.len() < FILES_MAX => token = Some(t),
            _ => break,
        }
    }
    files.truncate(FILES_MAX);
    Ok(files)
}

/// The file a template app reads by default: the first `.csv` (read as a stream), else the first
/// workbook.
pub fn default_file(files: Vec<Entry>) -> Option<Entry> {
    let csv = files
        .iter()
        .position(|f| data_format(&f.key) == Some(Format::Csv));
    files.into_iter().nth(csv.unwrap_or(0))
}
