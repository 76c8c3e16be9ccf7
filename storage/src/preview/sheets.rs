//! Spreadsheet previews (XLSX, XLS): cell texts, the first rows of the first sheet, and the checks
//! that refuse an archive that would unpack too large.

use super::*;

pub(super) fn excel_datetime(d: &ExcelDateTime) -> String {
    let (y, mo, day, h, mi, s, ms) = d.to_ymd_hms_milli();
    if d.is_duration() {
        let secs = (d.as_f64() * 86_400.0).round() as i64;
        let sign = if secs < 0 { "-" } else { "" };
        let secs = secs.unsigned_abs();
        return format!("{sign}{}:{:02}:{:02}", secs / 3600, secs % 3600 / 60, secs % 60);
    }
    match (h, mi, s, ms) {
        (0, 0, 0, 0) => format!("{y:04}-{mo:02}-{day:02}"),
        (_, _, _, 0) => format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}"),
        _ => format!("{y:04}-{mo:02}-{day:02}T{h:02}:{mi:02}:{s:02}.{ms:03}"),
    }
}

pub(super) fn float(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        f.to_string()
    }
}

pub(super) fn error_text(e: &CellErrorType) -> String {
    e.to_string()
}

pub(super) fn data_text(d: &Data) -> String {
    match d {
        Data::Int(i) => i.to_string(),
        Data::Float(f) => float(*f),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => cell_text(s),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        Data::DateTime(d) => excel_datetime(d),
        Data::Error(e) => error_text(e),
        Data::Empty => String::new(),
    }
}

pub(super) fn data_ref_text(d: &DataRef) -> String {
    match d {
        DataRef::SharedString(s) => cell_text(s),
        DataRef::Int(i) => i.to_string(),
        DataRef::Float(f) => float(*f),
        DataRef::String(s) | DataRef::DateTimeIso(s) | DataRef::DurationIso(s) => cell_text(s),
        DataRef::Bool(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        DataRef::DateTime(d) => excel_datetime(d),
        DataRef::Error(e) => error_text(e),
        DataRef::Empty => String::new(),
    }
}

/// A sheet's first rows, from (row, column, text) cells: the first used row is the header.
pub(super) fn sheet_table(
    format: Format,
    name: String,
    cells: Vec<(u32, u32, String)>,
    more: bool,
) -> Preview {
    let Some(first_row) = cells.iter().map(|c| c.0).min() else {
        return Preview {
            sheet: Some(name),
            truncated: more,
            ..Preview::empty(format)
        };
    };
    let first_col = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let last_row = cells.iter().map(|c| c.0).max().unwrap_or(first_row);
    let mut grid: Vec<Vec<String>> = vec![Vec::new(); (last_row - first_row + 1) as usize];
    for (r, c, v) in cells {
        let row = &mut grid[(r - first_row) as usize];
        let c = (c - first_col) as usize;
        if c >= row.len() {
            row.resize(c + 1, String::new());
        }
        row[c] = v;
    }
    let mut rows = grid.into_iter();
    let columns = rows.next().unwrap_or_default();
    let mut p = table(format, columns, rows.collect(), more);
    p.sheet = Some(name);
    p
}

pub(super) const INVALID_XLSX: &str = "The file is not a valid XLSX workbook";
const INVALID_XLS: &str = "The file is not a valid XLS workbook";

/// A workbook and the name of its first sheet.
type Opened<B> = Result<(B, String), StorageError>;

/// An XLSX workbook that passed [`check_xlsx_archive`], and the name of its first sheet.
fn open_xlsx(bytes: &[u8]) -> Opened<Xlsx<Cursor<&[u8]>>> {
    check_xlsx_archive(bytes, SHEET_MAX_UNPACKED_BYTES)?;
    let book = Xlsx::new(Cursor::new(bytes)).map_err(|_| refused(INVALID_XLSX))?;
    let name = first_sheet(&book.sheet_names())?;
    Ok((book, name))
}

/// An XLS workbook and the name of its first sheet.
fn open_xls(bytes: &[u8]) -> Opened<Xls<Cursor<&[u8]>>> {
    let book =
        Xls::new_with_options(Cursor::new(bytes), XlsOptions::default()).map_err(|_| refused(INVALID_XLS))?;
    let name = first_sheet(&book.sheet_names())?;
    Ok((book, name))
}

fn first_sheet(names: &[String]) -> Result<String, StorageError> {
    names
        .first()
        .cloned()
        .ok_or_else(|| refused("The workbook has no sheets"))
}

/// Checks what an XLSX archive says about itself before calamine reads it, so that a small file
/// cannot make it allocate without bound (an allocation failure aborts the process; no
/// `catch_unwind` stops that):
/// - all parts together unpack to at most [`SHEET_MAX_UNPACKED_BYTES`] (the zip reader refuses a
///   part that inflates past its declared size, so a zip bomb stops there);
/// - the shared-string table's declared `uniqueCount`, which calamine reserves room for up front,
///   fits in that table's size (every string takes at least `<si/>`, 5 bytes).
pub(super) fn check_xlsx_archive(bytes: &[u8], max_unpacked: u64) -> Result<(), StorageError> {
    let invalid = |_| refused(INVALID_XLSX);
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(invalid)?;
    if zip.len() > 10_000 {
        return Err(refused(INVALID_XLSX));
    }
    let mut unpacked = 0u64;
    let mut shared_strings = Vec::new();
    for i in 0..zip.len() {
        let part = zip.by_index_raw(i).map_err(invalid)?;
        unpacked = unpacked.saturating_add(part.size());
        let name = part
            .name()
            .map_err(invalid)?
            .replace('\\', "/")
            .to_ascii_lowercase();
        if name.ends_with("sharedstrings.xml") {
            shared_strings.push((i, part.size()));
        }
    }
    if unpacked > max_unpacked {
        return Err(refused(format!(
            "The workbook is too large to preview (more than {} MB unpacked)",
            max_unpacked >> 20
        )));
    }
    for (i, size) in shared_strings {
        let part = zip.by_index(i).map_err(invalid)?;
        if declared_unique_count(std::io::BufReader::new(part))? > size / 5 + 16 {
            return Err(refused(INVALID_XLSX));
        }
    }
    Ok(())
}

/// The largest number in a `uniqueCount` attribute of the first `sst` element, read with the
/// XML reader and settings calamine uses (any digits in the value count, so no spelling of the
/// number that calamine accepts is missed).
pub(super) fn declared_unique_count(part: impl std::io::BufRead) -> Result<u64, StorageError> {
    use quick_xml::events::Event;
    let mut xml = quick_xml::Reader::from_reader(part);
    let config = xml.config_mut();
    config.check_end_names = false;
    config.trim_text(false);
    config.check_comments = false;
    config.expand_empty_elements = true;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match xml.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == "sst" => {
                let mut count = 0u64;
                for attr in e.attributes().with_checks(false) {
                    let attr = attr.map_err(|_| refused(INVALID_XLSX))?;
                    if attr.key.local_name().as_ref() == "uniqueCount" {
                        let n = attr.value.bytes().filter(u8::is_ascii_digit).fold(0u64, |n, d| {
                            n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                        });
                        count = count.max(n);
                    }
                }
                return Ok(count);
            }
            Ok(Event::Eof) => return Ok(0),
            Err(_) => return Err(refused(INVALID_XLSX)),
            Ok(_) => {}
        }
    }
}

pub(super) fn xlsx(bytes: &[u8]) -> Result<Preview, StorageError> {
    const INVALID: &str = INVALID_XLSX;
    let (mut book, name) = open_xlsx(bytes)?;
    let mut reader = book.worksheet_cells_reader(&name).map_err(|_| refused(INVALID))?;
    let mut cells = Vec::new();
    let mut first: Option<(u32, u32)> = None;
    let mut more = false;
    // Cells come row by row: stop after the header and PREVIEW_ROWS rows.
    while let Some(cell) = reader.next_cell().map_err(|_| refused(INVALID))? {
        let (r, c) = cell.get_position();
        let (r0, c0) = *first.get_or_insert((r, c));
        if r < r0 {
            continue;
        }
        if r > r0 + PREVIEW_ROWS as u32 {
            more = true;
            break;
        }
        if *cell.get_value() == DataRef::Empty {
            continue;
        }
        if c > c0.saturating_add(PREVIEW_COLUMNS as u32 * 4) {
            more = true;
            continue;
        }
        cells.push((r, c, data_ref_text(cell.get_value())));
    }
    Ok(sheet_table(Format::Xlsx, name, cells, more))
}

pub(super) fn xls(bytes: &[u8]) -> Result<Preview, StorageError> {
    const INVALID: &str = INVALID_XLS;
    let (mut book, name) = open_xls(bytes)?;
    let range = book.worksheet_range(&name).map_err(|_| refused(INVALID))?;
    let (r0, c0) = range.start().unwrap_or((0, 0));
    let mut cells = Vec::new();
    let mut more = false;
    for (i, row) in range.rows().enumerate() {
        if i > PREVIEW_ROWS {
            more = true;
            break;
        }
        for (j, d) in row.iter().enumerate() {
            if j > PREVIEW_COLUMNS {
                more = true;
                break;
            }
            if *d != Data::Empty {
                cells.push((r0 + i as u32, c0 + j as u32, data_text(d)));
            }
        }
    }
    Ok(sheet_table(Format::Xls, name, cells, more))
}

/// Writes the first sheet's used rows as CSV records (the first used row is the header; columns
/// from the first used one; empty rows left out), reading the cells as calamine streams them.
pub(super) fn sheet_csv(
    format: Format,
    bytes: &[u8],
    out: &mut dyn std::io::Write,
) -> Result<u64, StorageError> {
    let mut csv = csv::Writer::from_writer(out);
    let failed = |e: csv::Error| refused(format!("failed to write the sheet's rows: {e}"));
    let mut rows = 0u64;
    let mut row: Vec<String> = Vec::new();
    let mut current: Option<u32> = None;
    let mut first_col: Option<u32> = None;
    let mut push = |r: u32, c: u32, text: String, csv: &mut csv::Writer<&mut dyn std::io::Write>| {
        if current.is_some_and(|cur| cur != r) && !row.is_empty() {
            csv.write_record(&row).map_err(failed)?;
            rows += 1;
            row.clear();
        }
        current = Some(r);
        let c0 = *first_col.get_or_insert(c);
        let at = c.saturating_sub(c0) as usize;
        if at >= row.len() {
            row.resize(at + 1, String::new());
        }
        row[at] = text;
        Ok::<(), StorageError>(())
    };
    match format {
        Format::Xlsx => {
            let (mut book, name) = open_xlsx(bytes)?;
            let mut reader = book
                .worksheet_cells_reader(&name)
                .map_err(|_| refused(INVALID_XLSX))?;
            while let Some(cell) = reader.next_cell().map_err(|_| refused(INVALID_XLSX))? {
                if *cell.get_value() != DataRef::Empty {
                    let (r, c) = cell.get_position();
                    push(r, c, data_ref_text(cell.get_value()), &mut csv)?;
                }
            }
        }
        Format::Xls => {
            let (mut book, name) = open_xls(bytes)?;
            let range = book.worksheet_range(&name).map_err(|_| refused(INVALID_XLS))?;
            let (r0, c0) = range.start().unwrap_or((0, 0));
            for (i, cells) in range.rows().enumerate() {
                for (j, d) in cells.iter().enumerate() {
                    if *d != Data::Empty {
                        push(r0 + i as u32, c0 + j as u32, data_text(d), &mut csv)?;
                    }
                }
            }
        }
        _ => return Err(refused("Only XLSX and XLS workbooks have sheets")),
    }
    if !row.is_empty() {
        csv.write_record(&row).map_err(failed)?;
        rows += 1;
    }
    csv.flush()
        .map_err(|e| refused(format!("failed to write the sheet's rows: {e}")))?;
    Ok(rows)
}
