//! File previews: the first rows of a table (CSV, JSON, XLSX, XLS) or the first lines of a text
//! (TXT, XML, JSON that is not a table), computed from the first bytes of a file.
//!
//! Pure functions over bytes: the caller reads at most [`TEXT_MAX_BYTES`] of a text file (a ranged
//! GET) or the whole of a spreadsheet up to [`SHEET_MAX_BYTES`], and says whether the bytes are
//! the whole file. Invalid input gives an `Err` with a sentence for the user, never a panic.

use std::io::Cursor;

use calamine::{CellErrorType, Data, DataRef, ExcelDateTime, Reader, Xls, XlsOptions, Xlsx};
use serde::{
    Deserialize, Deserializer, Serialize,
    de::{MapAccess, SeqAccess, Visitor},
};
use serde_json::Value;

use crate::StorageError;

/// How many rows (after the header) or lines a preview shows.
pub const PREVIEW_ROWS: usize = 50;
/// How many columns a table preview shows; more are cut and the preview is marked truncated.
pub const PREVIEW_COLUMNS: usize = 100;
/// The most a text format (csv, json, xml, txt) reads of a file: its first MiB.
pub const TEXT_MAX_BYTES: usize = 1 << 20;
/// Spreadsheets (xlsx, xls) must be read whole; larger ones are not previewed.
pub const SHEET_MAX_BYTES: usize = 20 << 20;
/// The most the parts of an XLSX workbook may unpack to, all together.
pub const SHEET_MAX_UNPACKED_BYTES: u64 = 256 << 20;
/// The most text a preview returns.
pub const TEXT_PREVIEW_BYTES: usize = 64 << 10;
/// The most characters of one cell a preview returns.
pub const CELL_MAX_CHARS: usize = 1000;

const TOO_LARGE: &str = "The file is too large to preview (spreadsheets up to 20 MB)";

/// A file that cannot be previewed, with `why` as the sentence for the user.
fn refused(why: impl Into<String>) -> StorageError {
    StorageError::Preview(why.into())
}

/// A previewable file type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Json,
    Xml,
    Txt,
    Xlsx,
    Xls,
}

impl Format {
    /// Every previewable type.
    pub const ALL: [Format; 6] = [
        Format::Csv,
        Format::Json,
        Format::Xml,
        Format::Txt,
        Format::Xlsx,
        Format::Xls,
    ];

    /// `"csv"`, `"json"`, ...: the extension, and the `format` of a [`Preview`].
    pub fn name(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Xml => "xml",
            Format::Txt => "txt",
            Format::Xlsx => "xlsx",
            Format::Xls => "xls",
        }
    }

    /// Whether a preview needs the whole file (spreadsheets) rather than its first bytes.
    pub fn needs_whole_file(self) -> bool {
        matches!(self, Format::Xlsx | Format::Xls)
    }

    /// How many bytes of a file to read for its preview.
    pub fn max_bytes(self) -> usize {
        if self.needs_whole_file() {
            SHEET_MAX_BYTES
        } else {
            TEXT_MAX_BYTES
        }
    }
}

/// The format of a key by its extension (case-insensitive), `None` if it cannot be previewed.
pub fn format_of(key: &str) -> Option<Format> {
    let name = key.rsplit('/').next()?;
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    Some(match ext.to_ascii_lowercase().as_str() {
        "csv" => Format::Csv,
        "json" => Format::Json,
        "xml" => Format::Xml,
        "txt" => Format::Txt,
        "xlsx" => Format::Xlsx,
        "xls" => Format::Xls,
        _ => return None,
    })
}

/// A preview as the API returns it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = FilePreview))]
pub struct Preview {
    /// `"csv"`, `"json"`, `"xml"`, `"txt"`, `"xlsx"` or `"xls"`.
    #[cfg_attr(feature = "openapi", schema(schema_with = format_schema))]
    pub format: &'static str,
    /// The header of a table (csv, a JSON array of objects or arrays, a sheet's first row); else empty.
    pub columns: Vec<String>,
    /// The first [`PREVIEW_ROWS`] rows of a table, cells as text, as many cells as columns.
    pub rows: Vec<Vec<String>>,
    /// For text (txt, xml, JSON that is not a table): the first lines.
    pub text: Option<String>,
    /// For a spreadsheet: the name of the first sheet.
    pub sheet: Option<String>,
    /// More rows, lines, columns or bytes exist than are shown.
    pub truncated: bool,
}

/// The schema of [`Preview::format`]: one of the [`Format`] names.
#[cfg(feature = "openapi")]
fn format_schema() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(Format::ALL.map(Format::name)))
        .build()
}

impl Preview {
    fn empty(format: Format) -> Preview {
        Preview {
            format: format.name(),
            columns: Vec::new(),
            rows: Vec::new(),
            text: None,
            sheet: None,
            truncated: false,
        }
    }
}

/// A preview of `bytes`, the first bytes of a file (`complete`: they are the whole file).
pub fn preview(format: Format, bytes: &[u8], complete: bool) -> Result<Preview, StorageError> {
    match format {
        Format::Xlsx | Format::Xls => {
            if !complete || bytes.len() > SHEET_MAX_BYTES {
                return Err(refused(TOO_LARGE));
            }
            // The workbook readers index into what the file says; a damaged file can make them
            // panic (an overflow in a record's arithmetic, an index out of range). Such a file is
            // invalid, not a reason to take the caller down.
            let read = std::panic::catch_unwind(|| {
                if format == Format::Xlsx {
                    xlsx(bytes)
                } else {
                    xls(bytes)
                }
            });
            read.unwrap_or_else(|_| {
                Err(refused(format!(
                    "The file is not a valid {} workbook",
                    format.name().to_uppercase()
                )))
            })
        }
        Format::Csv | Format::Json | Format::Xml | Format::Txt => {
            let bytes = &bytes[..bytes.len().min(TEXT_MAX_BYTES)];
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            if bytes.contains(&0) {
                return Err(refused("The file is not a text file"));
            }
            match format {
                Format::Csv => Ok(csv(bytes, complete)),
                Format::Json => json(bytes, complete),
                _ => Ok(text(format, &decode(bytes, complete), complete)),
            }
        }
    }
}

/// UTF-8, lossy; a character cut at the end of an incomplete read is dropped.
fn decode(bytes: &[u8], complete: bool) -> String {
    let bytes = match std::str::from_utf8(bytes) {
        Err(e) if !complete && e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    };
    String::from_utf8_lossy(bytes).into_owned()
}

fn cut_chars(s: &str, max: usize) -> (String, bool) {
    match s.char_indices().nth(max) {
        Some((i, _)) => (format!("{}…", &s[..i]), true),
        None => (s.to_owned(), false),
    }
}

fn cell_text(s: &str) -> String {
    cut_chars(s, CELL_MAX_CHARS).0
}

fn text(format: Format, s: &str, complete: bool) -> Preview {
    let mut out = String::new();
    let mut truncated = !complete;
    for (n, line) in s.lines().enumerate() {
        if n == PREVIEW_ROWS {
            truncated = true;
            break;
        }
        if out.len() + line.len() + 1 > TEXT_PREVIEW_BYTES {
            let mut end = TEXT_PREVIEW_BYTES.saturating_sub(out.len());
            while !line.is_char_boundary(end.min(line.len())) {
                end -= 1;
            }
            out.push_str(&line[..end.min(line.len())]);
            truncated = true;
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    Preview {
        text: Some(out),
        truncated,
        ..Preview::empty(format)
    }
}

/// Rows to a table: every row as long as the header (short rows padded; long rows add
/// `Column N` headers), at most [`PREVIEW_COLUMNS`] columns, cells cut.
fn table(
    format: Format,
    mut columns: Vec<String>,
    mut rows: Vec<Vec<String>>,
    mut truncated: bool,
) -> Preview {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0).max(columns.len());
    for n in columns.len()..width {
        columns.push(format!("Column {}", n + 1));
    }
    if width > PREVIEW_COLUMNS {
        truncated = true;
        columns.truncate(PREVIEW_COLUMNS);
    }
    let width = columns.len();
    for row in &mut rows {
        row.resize(width, String::new());
    }
    for c in &mut columns {
        *c = cell_text(c);
    }
    Preview {
        columns,
        rows,
        truncated,
        ..Preview::empty(format)
    }
}

fn csv(bytes: &[u8], complete: bool) -> Preview {
    // A read cut short ends in the middle of a line: drop that line.
    let bytes = if complete {
        bytes
    } else {
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(i) => &bytes[..=i],
            None => &[],
        }
    };
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(sniff_delimiter(bytes))
        .from_reader(bytes);
    let field = |f: &[u8]| cell_text(&String::from_utf8_lossy(f));
    let mut records = reader.byte_records();
    let columns: Vec<String> = match records.next() {
        Some(Ok(header)) => header.iter().map(field).collect(),
        _ => return table(Format::Csv, Vec::new(), Vec::new(), !complete),
    };
    let mut rows = Vec::new();
    let mut truncated = !complete;
    for record in records {
        let Ok(record) = record else { break };
        if rows.len() == PREVIEW_ROWS {
            truncated = true;
            break;
        }
        rows.push(record.iter().take(PREVIEW_COLUMNS + 1).map(field).collect());
    }
    table(Format::Csv, columns, rows, truncated)
}

/// `,` unless the first line has more of `;`, tab or `|` (outside quotes).
fn sniff_delimiter(bytes: &[u8]) -> u8 {
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0), (b'|', 0)];
    let mut quoted = false;
    for &b in line {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(c) = counts.iter_mut().find(|(d, _)| *d == b) {
            c.1 += 1;
        }
    }
    let best = counts
        .iter()
        .fold(counts[0], |best, &c| if c.1 > best.1 { c } else { best });
    best.0
}

/// A JSON value whose top level keeps its object's key order (serde_json's map sorts keys).
enum Item {
    Object(Vec<(String, Value)>),
    Array(Vec<Value>),
    Scalar,
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Item;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_unit<E>(self) -> Result<Item, E> {
                Ok(Item::Scalar)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Value>()? {
                    entries.push(entry);
                }
                Ok(Item::Object(entries))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
                let mut values = Vec::new();
                while let Some(v) = seq.next_element::<Value>()? {
                    values.push(v);
                }
                Ok(Item::Array(values))
            }
        }
        d.deserialize_any(V)
    }
}

fn json_cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => cell_text(s),
        other => cell_text(&other.to_string()),
    }
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The first items of a top-level array, read one by one (so a read cut short still gives the
/// items before the cut); `None` if it is not an array. The flag: more items may follow.
fn array_items(bytes: &[u8]) -> Option<(Vec<Item>, bool)> {
    let mut i = skip_ws(bytes, 0);
    if bytes.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_ws(bytes, i + 1);
    let mut items = Vec::new();
    if bytes.get(i) == Some(&b']') {
        return Some((items, false));
    }
    loop {
        if items.len() == PREVIEW_ROWS {
            return Some((items, true));
        }
        let mut stream = serde_json::Deserializer::from_slice(&bytes[i..]).into_iter::<Item>();
        match stream.next() {
            Some(Ok(item)) => items.push(item),
            _ => return Some((items, true)),
        }
        i = skip_ws(bytes, i + stream.byte_offset());
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b']') => return Some((items, false)),
            _ => return Some((items, true)),
        }
    }
}

/// Whitespace-separated values (NDJSON), the first ones; the flag: more may follow.
fn stream_items(bytes: &[u8]) -> (Vec<Item>, bool, bool) {
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<Item>();
    let mut items = Vec::new();
    loop {
        if items.len() == PREVIEW_ROWS {
            let more = skip_ws(bytes, stream.byte_offset()) < bytes.len();
            return (items, more, true);
        }
        match stream.next() {
            Some(Ok(item)) => items.push(item),
            None => return (items, false, true),
            Some(Err(_)) => return (items, true, false),
        }
    }
}

/// A table of objects (union of keys in first-seen order) or of arrays; `None` otherwise.
fn items_table(items: Vec<Item>, truncated: bool) -> Option<Preview> {
    if items.is_empty() {
        return None;
    }
    if items.iter().all(|i| matches!(i, Item::Object(_))) {
        let mut columns: Vec<String> = Vec::new();
        let mut index = std::collections::HashMap::new();
        let mut rows = Vec::new();
        for item in items {
            let Item::Object(entries) = item else { continue };
            let mut row = vec![String::new(); columns.len()];
            for (k, v) in entries {
                let n = *index.entry(k.clone()).or_insert_with(|| {
                    columns.push(k);
                    columns.len() - 1
                });
                if n >= row.len() {
                    row.resize(n + 1, String::new());
                }
                row[n] = json_cell(&v);
            }
            rows.push(row);
        }
        return Some(table(Format::Json, columns, rows, truncated));
    }
    if items.iter().all(|i| matches!(i, Item::Array(_))) {
        let rows = items
            .into_iter()
            .map(|i| match i {
                Item::Array(values) => values.iter().take(PREVIEW_COLUMNS + 1).map(json_cell).collect(),
                _ => Vec::new(),
            })
            .collect();
        return Some(table(Format::Json, Vec::new(), rows, truncated));
    }
    None
}

fn json(bytes: &[u8], complete: bool) -> Result<Preview, StorageError> {
    if let Some((items, more)) = array_items(bytes) {
        if let Some(p) = items_table(items, more || !complete) {
            return Ok(p);
        }
    } else {
        let (items, more, ok) = stream_items(bytes);
        let several = items.len() > 1;
        if several || (items.len() == 1 && !ok && !complete) {
            // NDJSON (or a first object and a cut).
            if let Some(p) = items_table(items, more || !complete) {
                return Ok(p);
            }
            if several && ok {
                // Values one after the other that do not make a table: show them as they are.
                return Ok(text(Format::Json, &decode(bytes, complete), complete));
            }
        }
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => {
            let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
            Ok(text(Format::Json, &pretty, complete))
        }
        Err(_) if !complete => Ok(text(Format::Json, &decode(bytes, complete), complete)),
        Err(e) => Err(refused(format!(
            "The file is not valid JSON (line {}, column {})",
            e.line(),
            e.column()
        ))),
    }
}

mod sheets;
mod worker;

use sheets::*;
pub use worker::*;

#[cfg(test)]
mod tests;
