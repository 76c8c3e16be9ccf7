//! What a template call answers when it gives no data: the API's error body, with the file, its
//! size and the bound when the file has too many rows (422), and `Retry-After` when every worker
//! (or the caller's own earlier computation) kept it waiting (503).

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use crate::{
    error::ApiError,
    templates::{TemplateError, pool::Stop},
};

/// A template call's error: an [`ApiError`], and when the call may be tried again later, after
/// how many seconds.
#[derive(Debug)]
pub struct Refusal {
    error: ApiError,
    retry_after: Option<u64>,
}

impl From<ApiError> for Refusal {
    fn from(error: ApiError) -> Self {
        Self {
            error,
            retry_after: None,
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut response = self.error.into_response();
        if let Some(secs) = self.retry_after
            && let Ok(v) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        response
    }
}

/// The data file a refusal is about.
pub struct FileFacts<'a> {
    /// Relative to the dataset.
    pub name: &'a str,
    pub size: i64,
}

/// `n` with a comma every three digits: 1200000 → "1,200,000".
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size as the console writes it (spec 001 §9): bytes below 1,000, then KB, MB and GB in steps
/// of 1,000 with two decimals ("26.40 MB").
pub fn size_text(bytes: i64) -> String {
    let n = bytes.max(0);
    if n < 1000 {
        return format!("{n} {}", if n == 1 { "byte" } else { "bytes" });
    }
    let mut value = n as f64 / 1000.0;
    let mut unit = 0;
    const UNITS: [&str; 3] = ["KB", "MB", "GB"];
    while unit < UNITS.len() - 1 && (value * 100.0).round() / 100.0 >= 1000.0 {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.2} {}", UNITS[unit])
}

/// Why a file is refused for its rows, naming it, its size and the bound.
pub fn too_many_rows(file: &FileFacts<'_>, limit: usize) -> String {
    format!(
        "{} ({}) has more than {} rows; template apps read at most {}. Choose a smaller file or ask \
         your administrator to raise LUDIS_TEMPLATE_MAX_ROWS",
        file.name,
        size_text(file.size),
        thousands(limit),
        thousands(limit),
    )
}

/// The answer for a computation that gave none: `timeout` is the calls' time bound and `workers`
/// how many computations run at a time.
pub fn stopped(stop: Stop, file: &FileFacts<'_>, timeout: u64, workers: usize) -> Refusal {
    let busy = |message: String| Refusal {
        error: ApiError::unavailable("template_busy", message),
        retry_after: Some(timeout),
    };
    match stop {
        Stop::UserBusy => busy(format!(
            "Your previous template computation is still running; this one waited {timeout} s for it. \
             Try again when it has finished"
        )),
        Stop::WorkersBusy => busy(format!(
            "Every template worker is busy ({workers} at a time); this one waited {timeout} s. Try \
             again in a moment"
        )),
        Stop::TimedOut | Stop::Failed(TemplateError::Cancelled) => ApiError::unavailable(
            "template_timeout",
            format!(
                "The computation over {} took longer than {timeout} s and was stopped. Choose a \
                 smaller file, or ask your administrator to raise LUDIS_TEMPLATE_TIMEOUT_SECS",
                file.name
            ),
        )
        .into(),
        Stop::Failed(TemplateError::TooManyRows { limit }) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many_rows",
            too_many_rows(file, limit),
        )
        .into(),
        Stop::Failed(e) => ApiError::bad_request("template_data", e.to_string()).into(),
        Stop::Crashed(why) => ApiError::internal(format!("the template computation failed: {why}")).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sizes_read_as_the_console_writes_them() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(1_200_000), "1,200,000");
        assert_eq!(size_text(1), "1 byte");
        assert_eq!(size_text(999), "999 bytes");
        assert_eq!(size_text(1000), "1.00 KB");
        assert_eq!(size_text(26_400_000), "26.40 MB");
        assert_eq!(size_text(999_999), "1.00 MB");
    }

    #[test]
    fn a_file_with_too_many_rows_is_named_with_its_size_and_the_bound() {
        let file = FileFacts {
            name: "sales.csv",
            size: 26_400_000,
        };
        assert_eq!(
            too_many_rows(&file, 200_000),
            "sales.csv (26.40 MB) has more than 200,000 rows; template apps read at most 200,000. \
             Choose a smaller file or ask your administrator to raise LUDIS_TEMPLATE_MAX_ROWS"
        );
        let r = stopped(
            Stop::Failed(TemplateError::TooManyRows { limit: 200_000 }),
            &file,
            20,
            2,
        );
        assert_eq!(r.error.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(r.retry_after, None);
    }

    #[test]
    fn busy_answers_say_when_to_come_back_and_a_timeout_does_not() {
        let file = FileFacts {
            name: "a.csv",
            size: 1,
        };
        for stop in [Stop::UserBusy, Stop::WorkersBusy] {
            let r = stopped(stop, &file, 20, 2).into_response();
            assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(r.headers()[header::RETRY_AFTER], "20");
        }
        let r = stopped(Stop::TimedOut, &file, 20, 2).into_response();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert!(r.headers().get(header::RETRY_AFTER).is_none());
    }
}
