use super::*;

fn ok(format: Format, bytes: &[u8], complete: bool) -> Preview {
    preview(format, bytes, complete).unwrap_or_else(|e| panic!("{format:?}: {e}"))
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn formats_by_extension() {
    assert_eq!(format_of("a.csv"), Some(Format::Csv));
    assert_eq!(format_of("dir/B.CSV"), Some(Format::Csv));
    assert_eq!(format_of("x.Json"), Some(Format::Json));
    assert_eq!(format_of("x.xml"), Some(Format::Xml));
    assert_eq!(format_of("notes.txt"), Some(Format::Txt));
    assert_eq!(format_of("book.XLSX"), Some(Format::Xlsx));
    assert_eq!(format_of("old.xls"), Some(Format::Xls));
    assert_eq!(format_of("archive.tar.gz"), None);
    assert_eq!(format_of("a.csv/b"), None);
    assert_eq!(format_of("csv"), None);
    assert_eq!(format_of(".csv"), None);
    assert_eq!(format_of("a.xlsm"), None);
    assert_eq!(format_of("folder/"), None);
    assert_eq!(Format::Xls.name(), "xls");
    assert_eq!(Format::Csv.max_bytes(), TEXT_MAX_BYTES);
    assert_eq!(Format::Xlsx.max_bytes(), SHEET_MAX_BYTES);
}

#[test]
fn csv_header_and_rows() {
    let p = ok(
        Format::Csv,
        b"name,age,city\nAda,36,London\n\"Lovelace, A\",\"3\"\"6\",\n",
        true,
    );
    assert_eq!(p.format, "csv");
    assert_eq!(p.columns, strings(&["name", "age", "city"]));
    assert_eq!(
        p.rows,
        vec![
            strings(&["Ada", "36", "London"]),
            strings(&["Lovelace, A", "3\"6", ""])
        ]
    );
    assert!(!p.truncated);
    assert_eq!(p.text, None);
    assert_eq!(p.sheet, None);
}

#[test]
fn csv_ragged_rows_bom_crlf_and_other_delimiters() {
    let p = ok(Format::Csv, b"\xEF\xBB\xBFa,b\r\n1\r\n1,2,3\r\n", true);
    assert_eq!(p.columns, strings(&["a", "b", "Column 3"]));
    assert_eq!(p.rows, vec![strings(&["1", "", ""]), strings(&["1", "2", "3"])]);
    let p = ok(Format::Csv, "x;y\n1,5;2\n".as_bytes(), true);
    assert_eq!(p.columns, strings(&["x", "y"]));
    assert_eq!(p.rows, vec![strings(&["1,5", "2"])]);
    let p = ok(Format::Csv, b"x\ty\n1\t2\n", true);
    assert_eq!(p.rows, vec![strings(&["1", "2"])]);
}

#[test]
fn csv_cut_short_drops_its_last_line_and_limits_rows() {
    let p = ok(Format::Csv, b"a,b\n1,2\n3,4\n5,", false);
    assert_eq!(p.rows, vec![strings(&["1", "2"]), strings(&["3", "4"])]);
    assert!(p.truncated);
    // A cut in the middle of a multi-byte character in the dropped line is harmless.
    let cut = "a\nété\nét".as_bytes();
    let p = ok(Format::Csv, &cut[..cut.len() - 1], false);
    assert_eq!(p.rows, vec![strings(&["été"])]);

    let mut many = String::from("n\n");
    for i in 0..200 {
        many.push_str(&format!("{i}\n"));
    }
    let p = ok(Format::Csv, many.as_bytes(), true);
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert_eq!(p.rows[49], strings(&["49"]));
    assert!(p.truncated);
    let exactly: String = std::iter::once("n\n".to_string())
        .chain((0..PREVIEW_ROWS).map(|i| format!("{i}\n")))
        .collect();
    let p = ok(Format::Csv, exactly.as_bytes(), true);
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert!(!p.truncated);
}

#[test]
fn csv_wide_rows_and_long_cells_are_cut() {
    let header: Vec<String> = (0..150).map(|i| format!("c{i}")).collect();
    let body = format!("{}\n{}\n", header.join(","), "x".repeat(5000));
    let p = ok(Format::Csv, body.as_bytes(), true);
    assert_eq!(p.columns.len(), PREVIEW_COLUMNS);
    assert!(p.truncated);
    assert_eq!(p.rows[0].len(), PREVIEW_COLUMNS);
    assert_eq!(p.rows[0][0].chars().count(), CELL_MAX_CHARS + 1);
    assert!(p.rows[0][0].ends_with('…'));
}

#[test]
fn csv_empty_and_invalid_utf8() {
    let p = ok(Format::Csv, b"", true);
    assert!(p.columns.is_empty() && p.rows.is_empty() && !p.truncated);
    let p = ok(Format::Csv, b"caf\xe9,x\n1,2\n", true);
    assert_eq!(p.columns, strings(&["caf\u{fffd}", "x"]));
}

#[test]
fn json_array_of_objects_keeps_first_seen_key_order() {
    let p = ok(
        Format::Json,
        br#"[{"zeta":1,"alpha":"a","nested":{"k":[1,2]}},{"alpha":"b","new":null,"zeta":2.5,"t":true}]"#,
        true,
    );
    assert_eq!(p.format, "json");
    assert_eq!(p.columns, strings(&["zeta", "alpha", "nested", "new", "t"]));
    assert_eq!(
        p.rows,
        vec![
            strings(&["1", "a", r#"{"k":[1,2]}"#, "", ""]),
            strings(&["2.5", "b", "", "", "true"])
        ]
    );
    assert!(!p.truncated);
    assert_eq!(p.text, None);
}

#[test]
fn json_array_of_arrays_and_ndjson() {
    let p = ok(Format::Json, br#"[[1,"x"],[2,"y",null]]"#, true);
    assert_eq!(p.columns, strings(&["Column 1", "Column 2", "Column 3"]));
    assert_eq!(p.rows, vec![strings(&["1", "x", ""]), strings(&["2", "y", ""])]);

    let p = ok(Format::Json, b"{\"a\":1}\n{\"b\":2,\"a\":3}\n", true);
    assert_eq!(p.columns, strings(&["a", "b"]));
    assert_eq!(p.rows, vec![strings(&["1", ""]), strings(&["3", "2"])]);
    assert!(!p.truncated);

    // Cut in the middle of the third line.
    let p = ok(Format::Json, b"{\"a\":1}\n{\"a\":2}\n{\"a\":", false);
    assert_eq!(p.rows, vec![strings(&["1"]), strings(&["2"])]);
    assert!(p.truncated);
}

#[test]
fn json_cut_short_array_shows_the_items_before_the_cut() {
    let mut body = String::from("[");
    for i in 0..10 {
        body.push_str(&format!("{{\"i\":{i},\"s\":\"row {i}\"}},"));
    }
    let cut = &body.as_bytes()[..body.len() - 10];
    let p = ok(Format::Json, cut, false);
    assert_eq!(p.columns, strings(&["i", "s"]));
    assert_eq!(p.rows.len(), 9);
    assert!(p.truncated);
}

#[test]
fn json_long_arrays_stop_at_the_preview_rows() {
    let items: Vec<String> = (0..500).map(|i| format!("{{\"i\":{i}}}")).collect();
    let p = ok(Format::Json, format!("[{}]", items.join(",")).as_bytes(), true);
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert!(p.truncated);
    let items: Vec<String> = (0..PREVIEW_ROWS).map(|i| format!("{{\"i\":{i}}}")).collect();
    let p = ok(
        Format::Json,
        format!(" [ {} ] ", items.join(" , ")).as_bytes(),
        true,
    );
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert!(!p.truncated);
}

#[test]
fn json_other_values_are_pretty_text() {
    let p = ok(Format::Json, br#"{"b":1,"a":[1,2]}"#, true);
    assert!(p.columns.is_empty() && p.rows.is_empty());
    assert_eq!(
        p.text.as_deref(),
        Some("{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": 1\n}\n")
    );
    let p = ok(Format::Json, b"[1, \"two\", {\"x\": 3}]", true);
    assert!(p.text.unwrap().starts_with("[\n  1,\n  \"two\""));
    let p = ok(Format::Json, b"[]", true);
    assert_eq!(p.text.as_deref(), Some("[]\n"));
    let p = ok(Format::Json, b"42", true);
    assert_eq!(p.text.as_deref(), Some("42\n"));
    // A big object cut short: its first lines as they are.
    let p = ok(Format::Json, b"{\n  \"a\": 1,\n  \"b\": [", false);
    assert_eq!(p.text.as_deref(), Some("{\n  \"a\": 1,\n  \"b\": [\n"));
    assert!(p.truncated);
}

#[test]
fn json_invalid_is_refused_with_a_sentence() {
    for bad in [&b"{\"a\":"[..], b"[1,2", b"{a:1}", b"", b"nul"] {
        let e = preview(Format::Json, bad, true).unwrap_err().to_string();
        assert!(e.starts_with("The file is not valid JSON"), "{e}");
    }
}

#[test]
fn text_and_xml_first_lines() {
    let body: String = (0..80).map(|i| format!("line {i}\r\n")).collect();
    let p = ok(Format::Txt, body.as_bytes(), true);
    assert_eq!(p.format, "txt");
    let text = p.text.unwrap();
    assert_eq!(text.lines().count(), PREVIEW_ROWS);
    assert!(text.starts_with("line 0\nline 1\n"));
    assert!(p.truncated);
    assert!(p.columns.is_empty() && p.rows.is_empty());

    let p = ok(
        Format::Xml,
        b"<?xml version=\"1.0\"?>\n<a>\xc3\xa9t\xc3\xa9</a>\n",
        true,
    );
    assert_eq!(p.format, "xml");
    assert_eq!(p.text.as_deref(), Some("<?xml version=\"1.0\"?>\n<a>été</a>\n"));
    assert!(!p.truncated);

    // A cut inside a multi-byte character drops that character, not the whole text.
    let p = ok(Format::Txt, &"ab€".as_bytes()[..4], false);
    assert_eq!(p.text.as_deref(), Some("ab\n"));
    assert!(p.truncated);
}

#[test]
fn text_is_cut_at_the_text_limit_on_a_character_boundary() {
    let long = "é".repeat(TEXT_PREVIEW_BYTES);
    let p = ok(Format::Txt, long.as_bytes(), true);
    let text = p.text.unwrap();
    assert!(text.len() <= TEXT_PREVIEW_BYTES && text.len() > TEXT_PREVIEW_BYTES - 4);
    assert!(p.truncated);
}

#[test]
fn binary_data_is_not_text() {
    for format in [Format::Txt, Format::Xml, Format::Csv, Format::Json] {
        assert_eq!(
            preview(format, b"PK\x03\x04\0\0binary", true)
                .unwrap_err()
                .to_string(),
            "The file is not a text file"
        );
    }
}

fn xlsx_fixture(rows: u32) -> Vec<u8> {
    use rust_xlsxwriter::{ExcelDateTime as XDate, Format as XFormat, Workbook};
    let mut book = Workbook::new();
    let date = XFormat::new().set_num_format("yyyy-mm-dd");
    let stamp = XFormat::new().set_num_format("yyyy-mm-dd hh:mm:ss");
    let sheet = book.add_worksheet();
    sheet.set_name("Ventes").unwrap();
    // The table starts at B2.
    for (c, name) in ["Name", "Count", "Price", "Day", "At", "Ok"].iter().enumerate() {
        sheet.write_string(1, 1 + c as u16, *name).unwrap();
    }
    for r in 0..rows {
        let row = 2 + r;
        sheet.write_string(row, 1, format!("Ünïcode {r}")).unwrap();
        sheet.write_number(row, 2, f64::from(r) * 100.0).unwrap();
        sheet.write_number(row, 3, f64::from(r) + 0.25).unwrap();
        let day = XDate::from_ymd(2024, 2, 1 + (r % 28) as u8).unwrap();
        sheet.write_datetime_with_format(row, 4, &day, &date).unwrap();
        let at = XDate::from_ymd(2024, 2, 29).unwrap().and_hms(13, 45, 30).unwrap();
        sheet.write_datetime_with_format(row, 5, &at, &stamp).unwrap();
        sheet.write_boolean(row, 6, r % 2 == 0).unwrap();
    }
    let other = book.add_worksheet();
    other.write_string(0, 0, "second sheet").unwrap();
    book.save_to_buffer().unwrap()
}

#[test]
fn xlsx_first_sheet_header_and_typed_cells() {
    let p = ok(Format::Xlsx, &xlsx_fixture(3), true);
    assert_eq!(p.format, "xlsx");
    assert_eq!(p.sheet.as_deref(), Some("Ventes"));
    assert_eq!(p.columns, strings(&["Name", "Count", "Price", "Day", "At", "Ok"]));
    assert_eq!(
        p.rows,
        vec![
            strings(&[
                "Ünïcode 0",
                "0",
                "0.25",
                "2024-02-01",
                "2024-02-29T13:45:30",
                "TRUE"
            ]),
            strings(&[
                "Ünïcode 1",
                "100",
                "1.25",
                "2024-02-02",
                "2024-02-29T13:45:30",
                "FALSE"
            ]),
            strings(&[
                "Ünïcode 2",
                "200",
                "2.25",
                "2024-02-03",
                "2024-02-29T13:45:30",
                "TRUE"
            ]),
        ]
    );
    assert!(!p.truncated);
    assert_eq!(p.text, None);
}

#[test]
fn xlsx_long_sheets_stop_at_the_preview_rows() {
    let p = ok(Format::Xlsx, &xlsx_fixture(120), true);
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert_eq!(p.rows[49][0], "Ünïcode 49");
    assert!(p.truncated);
}

#[test]
fn xlsx_empty_sheet() {
    let mut book = rust_xlsxwriter::Workbook::new();
    book.add_worksheet();
    let p = ok(Format::Xlsx, &book.save_to_buffer().unwrap(), true);
    assert_eq!(p.sheet.as_deref(), Some("Sheet1"));
    assert!(p.columns.is_empty() && p.rows.is_empty() && !p.truncated);
}

#[test]
fn xls_first_sheet_header_and_typed_cells() {
    let bytes = include_bytes!("../../tests/fixtures/sales.xls");
    let p = ok(Format::Xls, bytes, true);
    assert_eq!(p.format, "xls");
    assert_eq!(p.sheet.as_deref(), Some("Sales"));
    assert_eq!(p.columns, strings(&["Region", "Units", "Price", "Day", "Active"]));
    assert_eq!(p.rows.len(), PREVIEW_ROWS);
    assert_eq!(
        p.rows[0],
        strings(&["Région 1", "10", "1.5", "2024-01-01", "FALSE"])
    );
    assert_eq!(
        p.rows[49],
        strings(&["Région 50", "500", "50.5", "2024-02-19", "TRUE"])
    );
    assert!(p.truncated, "the sheet has 60 rows");
}

#[test]
fn spreadsheets_need_the_whole_file() {
    let whole = xlsx_fixture(1);
    for format in [Format::Xlsx, Format::Xls] {
        assert_eq!(
            preview(format, &whole, false).unwrap_err().to_string(),
            "The file is too large to preview (spreadsheets up to 20 MB)"
        );
    }
    let huge = vec![0u8; SHEET_MAX_BYTES + 1];
    assert_eq!(
        preview(Format::Xlsx, &huge, true).unwrap_err().to_string(),
        TOO_LARGE
    );
}

#[test]
fn invalid_spreadsheets_are_refused_with_a_sentence() {
    let xls = include_bytes!("../../tests/fixtures/sales.xls");
    let xlsx = xlsx_fixture(2);
    let cases: Vec<(Format, Vec<u8>, &str)> = vec![
        (
            Format::Xlsx,
            b"".to_vec(),
            "The file is not a valid XLSX workbook",
        ),
        (
            Format::Xlsx,
            b"name,age\n1,2\n".to_vec(),
            "The file is not a valid XLSX workbook",
        ),
        (
            Format::Xlsx,
            xlsx[..xlsx.len() / 2].to_vec(),
            "The file is not a valid XLSX workbook",
        ),
        (
            Format::Xlsx,
            xls.to_vec(),
            "The file is not a valid XLSX workbook",
        ),
        (Format::Xls, b"".to_vec(), "The file is not a valid XLS workbook"),
        (
            Format::Xls,
            b"hello".to_vec(),
            "The file is not a valid XLS workbook",
        ),
        (Format::Xls, xlsx.clone(), "The file is not a valid XLS workbook"),
        (
            Format::Xls,
            xls[..xls.len() / 2].to_vec(),
            "The file is not a valid XLS workbook",
        ),
    ];
    for (format, bytes, want) in cases {
        assert_eq!(
            preview(format, &bytes, true).unwrap_err().to_string(),
            want,
            "{format:?} of {} bytes",
            bytes.len()
        );
    }
}

#[test]
fn damaged_xlsx_never_panics() {
    // Flip bytes all over a valid workbook: each preview is Ok or Err, never a panic. (Damaged XLS
    // files can abort the process, so their test runs them in workers: tests/preview_worker.rs.)
    let xlsx = xlsx_fixture(5);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (format, original) in [(Format::Xlsx, xlsx)] {
        for _ in 0..300 {
            let mut bytes = original.clone();
            for _ in 0..4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % bytes.len() as u64) as usize;
                bytes[at] = (seed >> 32) as u8;
            }
            let _ = preview(format, &bytes, true);
        }
    }
}

#[test]
fn previews_serialise_as_the_api_shows_them() {
    let p = ok(Format::Csv, b"a\n1\n", true);
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"format":"csv","columns":["a"],"rows":[["1"]],"text":null,"sheet":null,"truncated":false})
    );
}

/// The fixture's parts, with `edit` applied to each part's text.
fn rezip(xlsx: &[u8], edit: impl Fn(&str, String) -> String) -> Vec<u8> {
    use std::io::{Read, Write};
    let mut from = zip::ZipArchive::new(Cursor::new(xlsx)).unwrap();
    let mut to = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..from.len() {
        let mut part = from.by_index(i).unwrap();
        let name = part.name().unwrap().into_owned();
        let mut text = String::new();
        part.read_to_string(&mut text).unwrap();
        let options =
            zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        to.start_file(name.as_str(), options).unwrap();
        to.write_all(edit(&name, text).as_bytes()).unwrap();
    }
    to.finish().unwrap().into_inner()
}

#[test]
fn xlsx_with_a_lying_shared_string_count_is_refused_before_it_is_read() {
    let xlsx = xlsx_fixture(2);
    // Unchanged, the rewritten archive still previews.
    let same = rezip(&xlsx, |_, text| text);
    assert_eq!(ok(Format::Xlsx, &same, true).rows.len(), 2);
    // calamine reserves room for `uniqueCount` strings up front: a huge count would abort the
    // process on the allocation, so the check must refuse it first.
    let lying = rezip(&xlsx, |name, text| {
        if name.ends_with("sharedStrings.xml") {
            assert!(text.contains("uniqueCount=\""), "{text}");
            text.replacen("uniqueCount=\"", "uniqueCount=\"99999999999999", 1)
        } else {
            text
        }
    });
    assert_eq!(
        preview(Format::Xlsx, &lying, true).unwrap_err().to_string(),
        "The file is not a valid XLSX workbook"
    );
}

#[test]
fn xlsx_parts_that_unpack_too_large_are_refused() {
    let xlsx = xlsx_fixture(2);
    assert_eq!(
        check_xlsx_archive(&xlsx, SHEET_MAX_UNPACKED_BYTES).map_err(|e| e.to_string()),
        Ok(())
    );
    // Two MiB of padding compresses to a few KiB; with a 1 MiB limit it is refused.
    let padded = rezip(&xlsx, |name, text| {
        if name.ends_with("sheet1.xml") {
            text.replacen("<sheetData>", &format!("<sheetData>{}", " ".repeat(2 << 20)), 1)
        } else {
            text
        }
    });
    assert!(padded.len() < 100_000);
    assert_eq!(
        ok(Format::Xlsx, &padded, true).rows.len(),
        2,
        "within the real limit it is read"
    );
    assert_eq!(
        check_xlsx_archive(&padded, 1 << 20).unwrap_err().to_string(),
        "The workbook is too large to preview (more than 1 MB unpacked)"
    );
}

#[test]
fn a_workbooks_first_sheet_reads_as_csv_records() {
    let mut out = Vec::new();
    let rows = sheet_csv(Format::Xlsx, &xlsx_fixture(3), &mut out).unwrap();
    assert_eq!(rows, 4, "the header and three rows");
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "Name,Count,Price,Day,At,Ok",
        "from B2, the table's start"
    );
    assert_eq!(lines[1], "Ünïcode 0,0,0.25,2024-02-01,2024-02-29T13:45:30,TRUE");
    assert_eq!(lines[3], "Ünïcode 2,200,2.25,2024-02-03,2024-02-29T13:45:30,TRUE");
    assert!(!text.contains("second sheet"));
    assert!(sheet_csv(Format::Xlsx, b"not a zip", &mut Vec::new()).is_err());
    assert!(sheet_csv(Format::Csv, b"a,b", &mut Vec::new()).is_err());
}
