//! `preview_isolated`: previews computed in a child process. This binary has its own `main`
//! (`harness = false`) because it is also the worker it starts: `main` first hands over to
//! `run_worker_if_asked`, as the API's `main` does.
//!
//! The workbook here is `sales.xls` with its first sheet's DIMENSIONS record claiming 2³² rows:
//! calamine reserves room for that many cells, the allocation fails and the process aborts. Run in
//! the caller's process that would end the caller; in a worker it is one failed preview.

use std::time::Duration;

use ludis_storage::preview::{
    Format, preview, preview_in_worker, preview_isolated, run_worker_if_asked, sheet_csv_isolated,
};

const TIMEOUT: Duration = Duration::from_secs(60);

fn xls_claiming_four_billion_rows() -> Vec<u8> {
    let mut bytes = include_bytes!("fixtures/sales.xls").to_vec();
    // DIMENSIONS (0x0200, 14 bytes): first row u32, last row + 1 u32, first column, last column + 1.
    let at = bytes
        .windows(8)
        .position(|w| w == [0x00, 0x02, 0x0E, 0x00, 0, 0, 0, 0])
        .expect("the fixture's first DIMENSIONS record");
    bytes[at + 8..at + 12].copy_from_slice(&u32::MAX.to_le_bytes());
    bytes
}

fn the_same_preview_as_in_process() {
    for (format, bytes) in [
        (Format::Csv, &b"a,b\n1,2\n"[..]),
        (Format::Json, br#"[{"x":"\u00e9"}]"#),
        (Format::Xls, include_bytes!("fixtures/sales.xls")),
    ] {
        let isolated = preview_isolated(format, bytes, true, TIMEOUT).map_err(|e| e.to_string());
        assert_eq!(
            isolated,
            preview(format, bytes, true).map_err(|e| e.to_string()),
            "{format:?}"
        );
        assert!(isolated.is_ok());
    }
    assert_eq!(
        preview_isolated(Format::Json, b"{", true, TIMEOUT).map_err(|e| e.to_string()),
        Err("The file is not valid JSON (line 1, column 1)".to_owned()),
        "the worker's own refusals come back as they are"
    );
    assert_eq!(
        preview_isolated(Format::Xlsx, b"x", false, TIMEOUT).map_err(|e| e.to_string()),
        Err("The file is too large to preview (spreadsheets up to 20 MB)".to_owned())
    );
}

fn a_workbook_that_aborts_the_reader_fails_only_the_worker() {
    let e = preview_isolated(Format::Xls, &xls_claiming_four_billion_rows(), true, TIMEOUT)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("The file could not be previewed (the reader failed"),
        "{e}"
    );
}

fn another_executable_can_be_the_worker() {
    let me = std::env::current_exe().unwrap();
    assert_eq!(
        preview_in_worker(&me, Format::Txt, b"hello\n", true, TIMEOUT).map_err(|e| e.to_string()),
        preview(Format::Txt, b"hello\n", true).map_err(|e| e.to_string())
    );
    // A program that is not a worker: an error, not a hang or a panic.
    let e = preview_in_worker(
        std::path::Path::new("/bin/true"),
        Format::Txt,
        b"x",
        true,
        TIMEOUT,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("The file could not be previewed (the reader's answer was unreadable"),
        "{e}"
    );
    let e = preview_in_worker(
        std::path::Path::new("/nonexistent/worker"),
        Format::Txt,
        b"x",
        true,
        TIMEOUT,
    );
    assert!(
        e.unwrap_err()
            .to_string()
            .starts_with("failed to start a preview worker")
    );
}

fn a_worker_that_takes_too_long_is_stopped() {
    let e = preview_isolated(Format::Csv, b"a\n1\n", true, Duration::ZERO)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("The file could not be previewed (it took longer than"),
        "{e}"
    );
}

fn damaged_workbooks_never_take_the_caller_down() {
    // Flip bytes all over the XLS fixture. Some copies make calamine panic (caught in the worker:
    // "not a valid workbook"), some make it abort or run for tens of seconds (the worker dies or
    // is stopped); the caller always gets an answer.
    let original = include_bytes!("fixtures/sales.xls").to_vec();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..120 {
        let mut bytes = original.clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed % bytes.len() as u64) as usize;
            bytes[at] = (seed >> 32) as u8;
        }
        match preview_isolated(Format::Xls, &bytes, true, Duration::from_secs(5)) {
            Ok(p) => {
                assert_eq!(p.format, "xls");
                ok += 1;
            }
            Err(e) => {
                assert!(e.to_string().starts_with("The file"), "{e}");
                refused += 1;
            }
        }
    }
    assert!(ok > 0 && refused > 0, "{ok} previewed, {refused} refused");
}

fn a_sheet_becomes_csv_in_the_worker_and_a_bad_one_fails_only_the_worker() {
    let dir = std::env::temp_dir().join(format!("ludis-sheet-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("rows.csv");
    std::fs::write(&out, b"").unwrap();
    let bytes = include_bytes!("fixtures/sales.xls");
    let rows = sheet_csv_isolated(None, Format::Xls, bytes, &out, TIMEOUT).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count() as u64, rows);
    let preview = preview(Format::Xls, bytes, true).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        preview.columns.join(","),
        "the header row"
    );
    let e = sheet_csv_isolated(
        None,
        Format::Xls,
        &xls_claiming_four_billion_rows(),
        &out,
        TIMEOUT,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("The workbook could not be read (the reader failed"),
        "{e}"
    );
    // A CSV preview still is one: the sheet mode is not a format's name.
    assert!(preview_isolated(Format::Csv, b"a\n1\n", true, TIMEOUT).is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn main() {
    run_worker_if_asked();
    let tests: [(&str, fn()); 6] = [
        ("the_same_preview_as_in_process", the_same_preview_as_in_process),
        (
            "a_workbook_that_aborts_the_reader_fails_only_the_worker",
            a_workbook_that_aborts_the_reader_fails_only_the_worker,
        ),
        (
            "another_executable_can_be_the_worker",
            another_executable_can_be_the_worker,
        ),
        (
            "a_worker_that_takes_too_long_is_stopped",
            a_worker_that_takes_too_long_is_stopped,
        ),
        (
            "damaged_workbooks_never_take_the_caller_down",
            damaged_workbooks_never_take_the_caller_down,
        ),
        (
            "a_sheet_becomes_csv_in_the_worker_and_a_bad_one_fails_only_the_worker",
            a_sheet_becomes_csv_in_the_worker_and_a_bad_one_fails_only_the_worker,
        ),
    ];
    let mut failed = 0;
    for (name, test) in tests {
        let ok = std::panic::catch_unwind(test).is_ok();
        println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
        failed += usize::from(!ok);
    }
    let passed = tests.len() - failed;
    println!(
        "\ntest result: {}. {passed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out",
        if failed == 0 { "ok" } else { "FAILED" }
    );
    if failed > 0 {
        std::process::exit(101);
    }
}
