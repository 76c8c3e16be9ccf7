//! The rows of a data file, read as a stream: a file is read once, a record at a time, and never
//! held whole; at most [`Limits::max_rows`] rows, and not a row more once the flag is set.

use std::io::Read;

use serde_json::{Map, Number, Value};

use super::{TemplateError, limits::Limits};

/// A data file's records; the first record is the header.
fn reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(input)
}

/// The header's names.
pub fn columns<R: Read>(input: R) -> Result<Vec<String>, TemplateError> {
    Ok(reader(input).headers()?.iter().map(str::to_owned).collect())
}

/// `count` rows from row `start` (0 is the first after the header), and how many rows the file has.
#[derive(Debug, PartialEq)]
pub struct Page {
    pub rows: Vec<Map<String, Value>>,
    pub count: usize,
}

/// A cell as JSON: a number when it reads as a finite one, else its text (empty is null).
fn cell(text: &str) -> Value {
    if text.is_empty() {
        return Value::Null;
    }
    match text.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(n) => Value::Number(n),
        None => Value::String(text.to_owned()),
    }
}

/// The data rows after the header, one at a time, within [`Limits`]: past `max_rows` rows
/// [`TemplateError::TooManyRows`], and [`TemplateError::Cancelled`] at the first row read after
/// the flag is set.
struct Records<'l, R> {
    rd: csv::Reader<R>,
    record: csv::StringRecord,
    read: usize,
    limits: &'l Limits,
}

impl<'l, R: Read> Records<'l, R> {
    fn new(input: R, limits: &'l Limits) -> Self {
        Self {
            rd: reader(input),
            record: csv::StringRecord::new(),
            read: 0,
            limits,
        }
    }

    fn headers(&mut self) -> Result<csv::StringRecord, TemplateError> {
        Ok(self.rd.headers()?.clone())
    }

    /// The next row, or `None` at the end of the file.
    fn next(&mut self) -> Result<Option<&csv::StringRecord>, TemplateError> {
        self.limits.cancel.check()?;
        if !self.rd.read_record(&mut self.record)? {
            return Ok(None);
        }
        self.read += 1;
        if self.read > self.limits.max_rows {
            return Err(TemplateError::TooManyRows {
                limit: self.limits.max_rows,
            });
        }
        Ok(Some(&self.record))
    }
}

pub fn page<R: Read>(input: R, start: usize, count: usize, limits: &Limits) -> Result<Page, TemplateError> {
    let mut rows_in = Records::new(input, limits);
    let names: Vec<String> = rows_in.headers()?.iter().map(str::to_owned).collect();
    let mut rows = Vec::with_capacity(count.min(1000));
    let mut total = 0;
    while let Some(record) = rows_in.next()? {
        if total >= start && rows.len() < count {
            rows.push(names.iter().cloned().zip(record.iter().map(cell)).collect());
        }
        total += 1;
    }
    Ok(Page { rows, count: total })
}

/// The data rows of the file (all of them, within `limits`).
pub fn count<R: Read>(input: R, limits: &Limits) -> Result<usize, TemplateError> {
    let mut rows = Records::new(input, limits);
    rows.headers()?;
    let mut n = 0;
    while rows.next()?.is_some() {
        n += 1;
    }
    Ok(n)
}

/// Where each named column is in the header.
fn positions(names: &csv::StringRecord, wanted: &[&str]) -> Result<Vec<usize>, TemplateError> {
    wanted
        .iter()
        .map(|w| {
            names
                .iter()
                .position(|n| n == *w)
                .ok_or_else(|| TemplateError::UnknownColumn((*w).to_owned()))
        })
        .collect()
}

/// The rows whose named columns all read as finite numbers, row after row in one flat vector
/// (`wanted.len()` values a row), and how many rows were left out.
pub fn numbers<R: Read>(
    input: R,
    wanted: &[&str],
    limits: &Limits,
) -> Result<(Vec<f64>, usize), TemplateError> {
    let mut rows = Records::new(input, limits);
    let at = positions(&rows.headers()?, wanted)?;
    let mut values = Vec::new();
    let mut skipped = 0;
    // Which columns had a number at all, to name the one that has none.
    let mut seen = vec![false; at.len()];
    while let Some(record) = rows.next()? {
        let mark = values.len();
        for (j, &i) in at.iter().enumerate() {
            if let Some(v) = record
                .get(i)
                .and_then(|t| t.parse::<f64>().ok())
                .filter(|v| v.is_finite())
            {
                seen[j] = true;
                values.push(v);
            }
        }
        if values.len() - mark < at.len() {
            values.truncate(mark);
            skipped += 1;
        }
    }
    if values.is_empty() {
        let none = seen.iter().position(|s| !s).unwrap_or(0);
        return Err(TemplateError::NotNumeric(
            wanted.get(none).copied().unwrap_or_default().to_owned(),
        ));
    }
    Ok((values, skipped))
}

/// Pairs of a row's `key` text and its `value` number (rows whose value is not a number are left
/// out).
pub fn keyed<R: Read>(
    input: R,
    key: &str,
    value: &str,
    limits: &Limits,
) -> Result<Vec<(String, f64)>, TemplateError> {
    let mut rows = Records::new(input, limits);
    let at = positions(&rows.headers()?, &[key, value])?;
    let mut pairs = Vec::new();
    while let Some(record) = rows.next()? {
        let v = record
            .get(at[1])
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|v| v.is_finite());
        if let Some(v) = v {
            pairs.push((record.get(at[0]).unwrap_or_default().to_owned(), v));
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "region,units,price\nnorth,3,2.5\nsouth,n/a,4\neast,5,1\n";

    fn rows(max_rows: usize) -> Limits {
        Limits::new(max_rows)
    }

    #[test]
    fn columns_are_the_header() {
        assert_eq!(columns(CSV.as_bytes()).unwrap(), ["region", "units", "price"]);
    }

    #[test]
    fn a_page_is_typed_rows_and_the_file_count() {
        let p = page(CSV.as_bytes(), 1, 1, &rows(10)).unwrap();
        assert_eq!(p.count, 3);
        assert_eq!(
            Value::Object(p.rows[0].clone()),
            serde_json::json!({"region": "south", "units": "n/a", "price": 4.0})
        );
        assert!(page(CSV.as_bytes(), 10, 5, &rows(10)).unwrap().rows.is_empty());
        assert_eq!(count(CSV.as_bytes(), &rows(3)).unwrap(), 3);
    }

    #[test]
    fn numbers_leave_out_rows_that_are_not() {
        let (v, skipped) = numbers(CSV.as_bytes(), &["units", "price"], &rows(10)).unwrap();
        assert_eq!(v, [3.0, 2.5, 5.0, 1.0]);
        assert_eq!(skipped, 1);
        assert!(
            matches!(numbers(CSV.as_bytes(), &["nope"], &rows(10)), Err(TemplateError::UnknownColumn(c)) if c == "nope")
        );
        assert!(
            matches!(numbers(CSV.as_bytes(), &["units", "region"], &rows(10)), Err(TemplateError::NotNumeric(c)) if c == "region")
        );
    }

    #[test]
    fn keyed_pairs_a_label_with_its_number() {
        let pairs = keyed(CSV.as_bytes(), "region", "price", &rows(10)).unwrap();
        assert_eq!(
            pairs,
            [
                ("north".to_owned(), 2.5),
                ("south".to_owned(), 4.0),
                ("east".to_owned(), 1.0)
            ]
        );
    }

    #[test]
    fn every_reading_counts_rows_against_the_bound_even_rows_it_leaves_out() {
        // Three data rows, one of them without a number: a bound of 2 is exceeded by all.
        let over = |r: Result<(), TemplateError>| matches!(r, Err(TemplateError::TooManyRows { limit: 2 }));
        assert!(over(page(CSV.as_bytes(), 0, 1, &rows(2)).map(drop)));
        assert!(over(count(CSV.as_bytes(), &rows(2)).map(drop)));
        assert!(over(
            numbers(CSV.as_bytes(), &["units", "price"], &rows(2)).map(drop)
        ));
        assert!(over(keyed(CSV.as_bytes(), "region", "price", &rows(2)).map(drop)));
        // The header alone is not a row.
        assert_eq!(columns(CSV.as_bytes()).unwrap().len(), 3);
    }

    /// An endless CSV (`n,1` lines) that sets `cancel` once it has handed out `after` lines, and
    /// counts the lines it handed out.
    struct Endless {
        lines: usize,
        after: usize,
        cancel: crate::templates::limits::Cancel,
        header: bool,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let mut n = 0;
            if !self.header {
                self.header = true;
                let h = b"key,value\n";
                buf[..h.len()].copy_from_slice(h);
                n = h.len();
            }
            let line = b"k,1\n";
            while n + line.len() <= buf.len() {
                buf[n..n + line.len()].copy_from_slice(line);
                n += line.len();
                self.lines += 1;
                if self.lines == self.after {
                    self.cancel.cancel();
                }
            }
            Ok(n)
        }
    }

    #[test]
    fn reading_stops_at_the_first_row_after_the_flag_is_set() {
        let limits = rows(usize::MAX);
        let mut input = Endless {
            lines: 0,
            after: 10_000,
            cancel: limits.cancel.clone(),
            header: false,
        };
        let out = keyed(&mut input, "key", "value", &limits);
        assert!(matches!(out, Err(TemplateError::Cancelled)), "{out:?}");
        // The file never ends: only the flag stopped the reading, within the buffer that was
        // being read when it was set (the reader's buffer is 8 KiB: at most 2,048 lines of 4 bytes).
        assert!(
            input.lines >= 10_000 && input.lines < 10_000 + 2_048 + 1,
            "{} lines read",
            input.lines
        );
    }
}
