//! Jupyter notebook files (nbformat 4), pure: a new empty notebook, checking an uploaded one,
//! the file name a notebook's name gives, and the read-only rendering the preview shows.
//!
//! The rendering is made here rather than by running nbconvert in a pod: it needs nothing
//! running, and it is safe to show anywhere. Markdown is rendered with pulldown-cmark; every piece
//! of HTML (markdown's and the outputs' `text/html`) is cleaned by ammonia (no scripts, no event
//! handlers, no styles from the notebook); images are PNG/JPEG/GIF data URLs checked to be
//! base64; the page forbids scripts and any request with its Content-Security-Policy. The
//! console shows it in a sandboxed frame as well.

use std::fmt::Write as _;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::domain::Language;

/// The largest notebook file read or written (the git layer's limit on a file).
pub const MAX_NOTEBOOK_BYTES: usize = ludis_git::MAX_FILE_BYTES as usize;

/// Pure: a new notebook with one empty code cell, for `language`'s kernel.
pub fn empty_notebook(language: Language) -> String {
    let (kernel, display, lang) = match language {
        Language::R => ("ir", "R", "R"),
        Language::Python => ("python3", "Python 3", "python"),
    };
    let nb = json!({
        "cells": [{
            "cell_type": "code",
            "execution_count": null,
            "id": "a1b2c3d4",
            "metadata": {},
            "outputs": [],
            "source": []
        }],
        "metadata": {
            "kernelspec": {"display_name": display, "language": lang, "name": kernel},
            "language_info": {"name": lang}
        },
        "nbformat": 4,
        "nbformat_minor": 5
    });
    pretty(&nb)
}

/// Pure: a notebook as JupyterLab writes it (one-space indent, a final newline).
fn pretty(nb: &Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(nb, &mut ser).expect("a JSON value serializes");
    let mut s = String::from_utf8(out).expect("JSON is UTF-8");
    s.push('\n');
    s
}

/// Why a file is not a notebook we take.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotebookError {
    #[error("The notebook is larger than 10 MiB")]
    TooLarge,
    #[error("This is not a Jupyter notebook: {0}")]
    Invalid(String),
}

/// Pure: `text` checked to be an nbformat 4 notebook (a JSON object with a `cells` list whose
/// cells have a known type and a source); answered as parsed.
pub fn parse(text: &str) -> Result<Value, NotebookError> {
    if text.len() > MAX_NOTEBOOK_BYTES {
        return Err(NotebookError::TooLarge);
    }
    let nb: Value =
        serde_json::from_str(text).map_err(|e| NotebookError::Invalid(format!("it is not JSON ({e})")))?;
    if nb.get("nbformat").and_then(Value::as_i64) != Some(4) {
        return Err(NotebookError::Invalid("only nbformat 4 is supported".into()));
    }
    let Some(cells) = nb.get("cells").and_then(Value::as_array) else {
        return Err(NotebookError::Invalid("it has no list of cells".into()));
    };
    for (i, cell) in cells.iter().enumerate() {
        let kind = cell.get("cell_type").and_then(Value::as_str);
        if !matches!(kind, Some("code" | "markdown" | "raw")) || cell.get("source").is_none() {
            return Err(NotebookError::Invalid(format!("cell {} is malformed", i + 1)));
        }
    }
    Ok(nb)
}

/// Pure: the file a notebook named `name` is kept in: letters, digits, `-`, `_` and `.` kept,
/// any other run of characters one `-`, at most 80 characters, `.ipynb` added; `-2`, `-3`, …
/// before the extension while `taken` has it.
pub fn file_name(name: &str, taken: &[String]) -> String {
    let mut stem = String::new();
    for c in name.trim().trim_end_matches(".ipynb").chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.') || (c == '-' && !stem.ends_with('-')) {
            stem.push(c);
        } else if !stem.ends_with('-') {
            stem.push('-');
        }
    }
    let stem: String = stem.trim_matches(['-', '.']).chars().take(80).collect();
    let stem = if stem.is_empty() {
        "notebook".to_owned()
    } else {
        stem
    };
    let taken = |f: &str| taken.iter().any(|t| t.eq_ignore_ascii_case(f));
    let mut candidate = format!("{stem}.ipynb");
    let mut n = 2;
    while taken(&candidate) {
        candidate = format!("{stem}-{n}.ipynb");
        n += 1;
    }
    candidate
}

/// A cell's or output's text: nbformat keeps it as a string or a list of lines.
fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(lines)) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// Pure: `s` without ANSI escape sequences (tracebacks are coloured).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Pure: `s` as HTML text (in an element or a quoted attribute).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn markdown(source: &str) -> String {
    let parser = pulldown_cmark::Parser::new_ext(source, pulldown_cmark::Options::all());
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    ammonia::clean(&html)
}

/// One output of a code cell, as HTML.
fn output(o: &Value) -> String {
    match o.get("output_type").and_then(Value::as_str) {
        Some("stream") => {
            let class = if o.get("name").and_then(Value::as_str) == Some("stderr") {
                "stderr"
            } else {
                "stream"
            };
            format!("<pre class=\"{class}\">{}</pre>", escape(&text_of(o.get("text"))))
        }
        Some("error") => {
            let trace: Vec<String> = o
                .get("traceback")
                .and_then(Value::as_array)
                .map(|t| t.iter().filter_map(Value::as_str).map(strip_ansi).collect())
                .unwrap_or_default();
            let text = if trace.is_empty() {
                format!(
                    "{}: {}",
                    o.get("ename").and_then(Value::as_str).unwrap_or("Error"),
                    o.get("evalue").and_then(Value::as_str).unwrap_or("")
                )
            } else {
                trace.join("\n")
            };
            format!("<pre class=\"stderr\">{}</pre>", escape(&text))
        }
        Some("execute_result" | "display_data") => {
            let data = o.get("data");
            let get = |mime: &str| data.and_then(|d| d.get(mime));
            for mime in ["image/png", "image/jpeg", "image/gif"] {
                let b64: String = text_of(get(mime)).split_whitespace().collect();
                if !b64.is_empty() && base64::engine::general_purpose::STANDARD.decode(&b64).is_ok() {
                    return format!("<img alt=\"output\" src=\"data:{mime};base64,{b64}\">");
                }
            }
            if let Some(html) = get("text/html") {
                return format!(
                    "<div class=\"html\">{}</div>",
                    ammonia::clean(&text_of(Some(html)))
                );
            }
            if let Some(md) = get("text/markdown") {
                return format!("<div class=\"md\">{}</div>", markdown(&text_of(Some(md))));
            }
            format!("<pre>{}</pre>", escape(&text_of(get("text/plain"))))
        }
        _ => String::new(),
    }
}

/// The page's style and policy: no script runs and nothing is fetched.
const HEAD: &str = r#"<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:960px;color:#1f2933;line-height:1.5;padding:0 16px}
.cell{margin:0 0 16px}
.in{display:flex;gap:8px}
.prompt{color:#52606d;font-family:ui-monospace,monospace;font-size:12px;min-width:56px;text-align:right;padding-top:8px}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
.code pre{background:#f5f7fa;border:1px solid #e4e7eb;border-radius:6px;padding:8px;flex:1}
.out{margin-left:64px;padding:4px 0}
.stderr{background:#fff1f0;color:#a61b1b;padding:4px}
img{max-width:100%}
table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #e4e7eb;padding:2px 6px}
</style>"#;

/// Pure: a read-only HTML page of notebook `nb` titled `title`.
pub fn render_html(title: &str, nb: &Value) -> String {
    let mut body = String::new();
    let cells = nb
        .get("cells")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for cell in &cells {
        let source = text_of(cell.get("source"));
        match cell.get("cell_type").and_then(Value::as_str) {
            Some("markdown") => {
                let _ = write!(body, "<div class=\"cell md\">{}</div>", markdown(&source));
            }
            Some("code") => {
                let count = cell
                    .get("execution_count")
                    .and_then(Value::as_i64)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| " ".into());
                let _ = write!(
                    body,
                    "<div class=\"cell code\"><div class=\"in\"><div class=\"prompt\">[{count}]:</div><pre>{}</pre></div>",
                    escape(&source)
                );
                for o in cell
                    .get("outputs")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let _ = write!(body, "<div class=\"out\">{}</div>", output(o));
                }
                body.push_str("</div>");
            }
            _ => {
                let _ = write!(
                    body,
                    "<div class=\"cell raw\"><pre>{}</pre></div>",
                    escape(&source)
                );
            }
        }
    }
    if cells.is_empty() {
        body.push_str("<p>This notebook has no cells.</p>");
    }
    format!(
        "<!doctype html><html><head>{HEAD}<title>{}</title></head><body>{body}</body></html>",
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_notebook_is_valid_for_its_language() {
        let nb = parse(&empty_notebook(Language::Python)).unwrap();
        assert_eq!(nb["metadata"]["kernelspec"]["name"], "python3");
        let nb = parse(&empty_notebook(Language::R)).unwrap();
        assert_eq!(nb["metadata"]["kernelspec"]["name"], "ir");
    }

    #[test]
    fn only_nbformat_4_notebooks_are_taken() {
        assert!(matches!(parse("{"), Err(NotebookError::Invalid(_))));
        assert!(matches!(
            parse(r#"{"nbformat":3,"cells":[]}"#),
            Err(NotebookError::Invalid(_))
        ));
        assert!(matches!(
            parse(r#"{"nbformat":4}"#),
            Err(NotebookError::Invalid(_))
        ));
        let bad_cell = r#"{"nbformat":4,"cells":[{"cell_type":"widget","source":""}]}"#;
        assert_eq!(
            parse(bad_cell).unwrap_err().to_string(),
            "This is not a Jupyter notebook: cell 1 is malformed"
        );
        assert!(parse(r#"{"nbformat":4,"cells":[]}"#).is_ok());
        let huge = format!(
            r#"{{"nbformat":4,"cells":[],"x":"{}"}}"#,
            "a".repeat(MAX_NOTEBOOK_BYTES)
        );
        assert_eq!(parse(&huge).unwrap_err(), NotebookError::TooLarge);
    }

    #[test]
    fn file_names_are_safe_and_unique() {
        assert_eq!(file_name("Sales review", &[]), "Sales-review.ipynb");
        assert_eq!(file_name("../../etc/passwd", &[]), "etc-passwd.ipynb");
        assert_eq!(file_name("Q1 / Q2: growth?", &[]), "Q1-Q2-growth.ipynb");
        assert_eq!(file_name("naïve", &[]), "na-ve.ipynb");
        assert_eq!(file_name("!!!", &[]), "notebook.ipynb");
        assert_eq!(file_name("model.ipynb", &[]), "model.ipynb");
        let taken = vec!["Sales-review.ipynb".to_owned(), "sales-review-2.ipynb".to_owned()];
        assert_eq!(file_name("Sales review", &taken), "Sales-review-3.ipynb");
        assert!(file_name(&"x".repeat(300), &[]).len() <= 86);
    }

    #[test]
    fn the_rendering_shows_cells_and_outputs_and_runs_nothing() {
        let nb = json!({"nbformat": 4, "cells": [
            {"cell_type": "markdown", "source": ["# Title\n", "<script>alert(1)</script>\n\n*em*"]},
            {"cell_type": "code", "execution_count": 3, "source": "1 + 1 < 3",
             "outputs": [
                {"output_type": "execute_result", "data": {"text/plain": "True"}},
                {"output_type": "stream", "name": "stdout", "text": ["a\n", "b"]},
                {"output_type": "display_data", "data": {"text/html": "<b onclick=\"x()\">bold</b><img src=\"https://evil/x.png\">"}},
                {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo=\n"}},
                {"output_type": "display_data", "data": {"image/png": "not base64!"}},
                {"output_type": "error", "ename": "ValueError", "evalue": "bad",
                 "traceback": ["\u{1b}[0;31mValueError\u{1b}[0m: bad"]}
             ]}
        ]});
        let html = render_html("My <notebook>", &nb);
        assert!(html.contains("<h1>Title</h1>"), "{html}");
        assert!(html.contains("<em>em</em>"));
        assert!(!html.contains("<script>alert"));
        assert!(html.contains("[3]:"), "{html}");
        assert!(html.contains("1 + 1 &lt; 3"));
        assert!(html.contains("<pre>True</pre>"));
        assert!(html.contains("a\nb"));
        assert!(html.contains("<b>bold</b>"));
        assert!(!html.contains("onclick"));
        assert!(html.contains("data:image/png;base64,iVBORw0KGgo="));
        assert!(!html.contains("not base64"));
        assert!(html.contains("ValueError: bad") && !html.contains('\u{1b}'));
        assert!(html.contains("<title>My &lt;notebook&gt;</title>"));
        assert!(html.contains("default-src 'none'"));
    }
}
