//! The rows of a data file, read as a stream: a file of any size is read once, a record at a
//! time, and never held whole.

use std::io::Read;

use serde_json::{Map, Number, Value};

use super::TemplateError;

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

pub fn page<R: Read>(input: R, start: usize, count: usize) -> Result<Page, TemplateError> {
    let mut rd = reader(input);
    let names: Vec<String> = rd.headers()?.iter().map(str::to_owned).collect();
    let mut rows = Vec::with_capacity(count.min(1000));
    let mut total = 0;
    let mut record = csv::StringRecord::new();
    while rd.read_record(&mut record)? {
        if total >= start && rows.len() < count {
            rows.push(names.iter().cloned().zip(record.iter().map(cell)).collect());
        }
        total += 1;
    }
    Ok(Page { rows, count: total })
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

/// More than `limit` rows to hold in memory.
fn too_many(limit: usize) -> TemplateError {
    TemplateError::Invalid(format!(
        "The data has more than {limit} rows; this computation reads at most {limit}"
    ))
}

/// The rows whose named columns all read as finite numbers, row after row in one flat vector
/// (`wanted.len()` values a row), and how many rows were left out; at most `limit` rows.
pub fn numbers<R: Read>(input: R, wanted: &[&str], limit: usize) -> Result<(Vec<f64>, usize), TemplateError> {
    let mut rd = reader(input);
    let at = positions(rd.headers()?, wanted)?;
    let mut values = Vec::new();
    let mut skipped = 0;
    // Which columns had a number at all, to name the one that has none.
    let mut seen = vec![false; at.len()];
    let mut record = csv::StringRecord::new();
    while rd.read_record(&mut record)? {
        let mark = values.len();
        if mark / at.len().max(1) >= limit {
            return Err(too_many(limit));
        }
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
/// out); at most `limit` pairs.
pub fn keyed<R: Read>(
    input: R,
    key: &str,
    value: &str,
    limit: usize,
) -> Result<Vec<(String, f64)>, TemplateError> {
    let mut rd = reader(input);
    let at = positions(rd.headers()?, &[key, value])?;
    let mut pairs = Vec::new();
    let mut record = csv::StringRecord::new();
    while rd.read_record(&mut record)? {
        let v = record
            .get(at[1])
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|v| v.is_finite());
        if let Some(v) = v {
            if pairs.len() >= limit {
                return Err(too_many(limit));
            }
            pairs.push((record.get(at[0]).unwrap_or_default().to_owned(), v));
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "region,units,price\nnorth,3,2.5\nsouth,n/a,4\neast,5,1\n";

    #[test]
    fn columns_are_the_header() {
        assert_eq!(columns(CSV.as_bytes()).unwrap(), ["region", "units", "price"]);
    }

    #[test]
    fn a_page_is_typed_rows_and_the_file_count() {
        let p = page(CSV.as_bytes(), 1, 1).unwrap();
        assert_eq!(p.count, 3);
        assert_eq!(
            Value::Object(p.rows[0].clone()),
            serde_json::json!({"region": "south", "units": "n/a", "price": 4.0})
        );
        assert!(page(CSV.as_bytes(), 10, 5).unwrap().rows.is_empty());
    }

    #[test]
    fn numbers_leave_out_rows_that_are_not() {
        let (v, skipped) = numbers(CSV.as_bytes(), &["units", "price"], 10).unwrap();
        assert_eq!(v, [3.0, 2.5, 5.0, 1.0]);
        assert_eq!(skipped, 1);
        assert!(
            matches!(numbers(CSV.as_bytes(), &["nope"], 10), Err(TemplateError::UnknownColumn(c)) if c == "nope")
        );
        assert!(
            matches!(numbers(CSV.as_bytes(), &["units", "region"], 10), Err(TemplateError::NotNumeric(c)) if c == "region")
        );
        assert!(numbers(CSV.as_bytes(), &["units", "price"], 1).is_err());
    }

    #[test]
    fn keyed_pairs_a_label_with_its_number() {
        let pairs = keyed(CSV.as_bytes(), "region", "price", 10).unwrap();
        assert_eq!(
            pairs,
            [
                ("north".to_owned(), 2.5),
                ("south".to_owned(), 4.0),
                ("east".to_owned(), 1.0)
            ]
        );
        assert!(keyed(CSV.as_bytes(), "region", "price", 2).is_err());
    }
}
