//! Object keys inside a dataset: what a client may name, and how it becomes an S3 key.
//!
//! Clients name files and folders by paths relative to the dataset's root (`folder/a.csv`,
//! `folder/`). Every such path goes through [`normalise`] (or [`file`], [`folder`],
//! [`new_folder`]) before it reaches S3, so a key can never leave the dataset's prefix: `..`
//! segments, absolute paths, backslashes and control characters are refused, and the folder
//! marker's name is reserved. Unicode names are allowed as they are.

use std::fmt;

/// The zero-byte object that keeps a folder alive: `<folder>/.ludis-folder`. S3 has no folders,
/// only keys, and some servers (the local one among them) do not list empty directories.
pub const FOLDER_MARKER: &str = ".ludis-folder";

/// The longest relative key accepted, in bytes (S3 allows 1024 for the whole key; the dataset
/// prefix is short and S3 servers here accept it).
pub const MAX_KEY_BYTES: usize = 1024;

/// Why a client path is refused; `Display` gives the user-facing message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// A `..` segment.
    ParentSegment,
    /// A leading `/` (other than a path made of slashes only, which is the root).
    Absolute,
    /// A `\` anywhere.
    Backslash,
    /// A control character (NUL, newline, DEL, C1 controls, ...).
    ControlCharacter,
    /// A segment equal to [`FOLDER_MARKER`].
    ReservedName,
    /// Longer than [`MAX_KEY_BYTES`] after normalisation.
    TooLong,
    /// A file path that names the root.
    EmptyFile,
    /// A file path that ends with `/`.
    NotAFile,
    /// A new folder's name that is empty or whitespace only.
    EmptyFolderName,
    /// A new folder's name with a `/` in it.
    FolderNameWithSlash,
    /// A new folder's name that is `.`.
    DotFolderName,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KeyError::ParentSegment => "The path may not contain '..'",
            KeyError::Absolute => "The path must be relative to the dataset (no leading '/')",
            KeyError::Backslash => "The path may not contain backslashes",
            KeyError::ControlCharacter => "The path may not contain control characters",
            KeyError::ReservedName => "The name '.ludis-folder' is reserved",
            KeyError::TooLong => "The path is too long (at most 1024 bytes)",
            KeyError::EmptyFile => "The path must name a file",
            KeyError::NotAFile => "The path names a folder, not a file",
            KeyError::EmptyFolderName => "The folder name may not be empty",
            KeyError::FolderNameWithSlash => "The folder name may not contain '/'",
            KeyError::DotFolderName => "The folder name may not be '.'",
        })
    }
}

impl std::error::Error for KeyError {}

/// Normalises a client path relative to a dataset root. `""`, a path of slashes only and `"."`
/// are the root, `""`. Repeated `/` collapse, `.` segments are dropped, and a trailing `/`
/// (folder) is kept (a trailing `.` segment also names a folder: `a/.` → `a/`).
///
/// Refuses `..` segments, a leading `/`, backslashes, control characters (NUL, newline, DEL, ...),
/// a segment equal to [`FOLDER_MARKER`], and a result longer than [`MAX_KEY_BYTES`].
pub fn normalise(path: &str) -> Result<String, KeyError> {
    if path.contains('\\') {
        return Err(KeyError::Backslash);
    }
    if path.chars().any(char::is_control) {
        return Err(KeyError::ControlCharacter);
    }
    if path.bytes().all(|b| b == b'/') {
        return Ok(String::new());
    }
    if path.starts_with('/') {
        return Err(KeyError::Absolute);
    }
    let folder = path.ends_with('/') || path.rsplit('/').next() == Some(".");
    let mut out = String::with_capacity(path.len());
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => return Err(KeyError::ParentSegment),
            FOLDER_MARKER => return Err(KeyError::ReservedName),
            name => {
                out.push_str(name);
                out.push('/');
            }
        }
    }
    if !folder {
        out.pop();
    }
    if out.len() > MAX_KEY_BYTES {
        return Err(KeyError::TooLong);
    }
    Ok(out)
}

/// A file key: [`normalise`], and it must name something (not the root) that is not a folder.
pub fn file(path: &str) -> Result<String, KeyError> {
    let key = normalise(path)?;
    if key.is_empty() {
        Err(KeyError::EmptyFile)
    } else if key.ends_with('/') {
        Err(KeyError::NotAFile)
    } else {
        Ok(key)
    }
}

/// A folder (listing) prefix: [`normalise`]; the root stays `""`, anything else ends with `/`.
pub fn folder(path: &str) -> Result<String, KeyError> {
    let mut key = normalise(path)?;
    if !key.is_empty() && !key.ends_with('/') {
        key.push('/');
        if key.len() > MAX_KEY_BYTES {
            return Err(KeyError::TooLong);
        }
    }
    Ok(key)
}

/// A new folder's key: `folder(current)` + `name` (trimmed; one segment) + `/`.
pub fn new_folder(current: &str, name: &str) -> Result<String, KeyError> {
    let base = folder(current)?;
    let name = name.trim();
    match name {
        "" => return Err(KeyError::EmptyFolderName),
        "." => return Err(KeyError::DotFolderName),
        _ if name.contains('/') => return Err(KeyError::FolderNameWithSlash),
        _ => {}
    }
    // `base` is normalised and `name` is one segment, so normalising only checks the name
    // (backslash, control characters, `..`, the marker) and the length.
    normalise(&format!("{base}{name}/"))
}

/// The absolute object key: the dataset prefix followed by a relative key from this module.
pub fn absolute(dataset_prefix: &str, relative: &str) -> String {
    debug_assert!(dataset_prefix.is_empty() || dataset_prefix.ends_with('/'));
    debug_assert!(!relative.starts_with('/'));
    let key = format!("{dataset_prefix}{relative}");
    debug_assert!(key.starts_with(dataset_prefix));
    key
}

/// Whether `key` (absolute or relative) is a folder marker object.
pub fn is_marker(key: &str) -> bool {
    key.rsplit('/').next() == Some(FOLDER_MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_accepts_and_rewrites() {
        let cases: &[(&str, &str)] = &[
            ("", ""),
            ("/", ""),
            ("///", ""),
            (".", ""),
            ("./", ""),
            ("./.", ""),
            ("a", "a"),
            ("a.csv", "a.csv"),
            ("a/b.csv", "a/b.csv"),
            ("a//b", "a/b"),
            ("a///b//c", "a/b/c"),
            ("./a", "a"),
            ("a/./b", "a/b"),
            (".//a", "a"),
            ("a/", "a/"),
            ("a//", "a/"),
            ("a/b/", "a/b/"),
            ("a/.", "a/"),
            ("a/b/./", "a/b/"),
            ("...", "..."),
            ("a/.../b", "a/.../b"),
            ("..a", "..a"),
            ("a..", "a.."),
            (".hidden", ".hidden"),
            (".ludis-folder.csv", ".ludis-folder.csv"),
            ("my file.csv", "my file.csv"),
            (" spaced /x", " spaced /x"),
            ("données/été.csv", "données/été.csv"),
            ("数据/表.xlsx", "数据/表.xlsx"),
            ("emoji 🎉.txt", "emoji 🎉.txt"),
            ("a+b%20c.csv", "a+b%20c.csv"),
            ("%2e%2e/x", "%2e%2e/x"),
        ];
        for (input, want) in cases {
            assert_eq!(normalise(input).as_deref(), Ok(*want), "normalise({input:?})");
        }
    }

    #[test]
    fn normalise_refuses() {
        let long = "a".repeat(MAX_KEY_BYTES + 1);
        let long_segments = "ab/".repeat(MAX_KEY_BYTES / 3 + 1);
        let cases: &[(&str, KeyError)] = &[
            ("..", KeyError::ParentSegment),
            ("../x", KeyError::ParentSegment),
            ("a/..", KeyError::ParentSegment),
            ("a/../b", KeyError::ParentSegment),
            ("a/../../etc/passwd", KeyError::ParentSegment),
            ("./../x", KeyError::ParentSegment),
            ("a//..//b", KeyError::ParentSegment),
            ("../", KeyError::ParentSegment),
            ("/a", KeyError::Absolute),
            ("/a/b", KeyError::Absolute),
            ("//a", KeyError::Absolute),
            ("/.", KeyError::Absolute),
            ("a\\b", KeyError::Backslash),
            ("..\\x", KeyError::Backslash),
            ("\\", KeyError::Backslash),
            ("a\0b", KeyError::ControlCharacter),
            ("\0", KeyError::ControlCharacter),
            ("a\nb", KeyError::ControlCharacter),
            ("a\rb", KeyError::ControlCharacter),
            ("a\tb", KeyError::ControlCharacter),
            ("a\x1bb", KeyError::ControlCharacter),
            ("a\x7fb", KeyError::ControlCharacter),
            ("a\u{85}b", KeyError::ControlCharacter),
            ("a\u{9f}", KeyError::ControlCharacter),
            (".ludis-folder", KeyError::ReservedName),
            ("a/.ludis-folder", KeyError::ReservedName),
            (".ludis-folder/a", KeyError::ReservedName),
            ("a/.ludis-folder/", KeyError::ReservedName),
            (&long, KeyError::TooLong),
            (&long_segments, KeyError::TooLong),
        ];
        for (input, want) in cases {
            assert_eq!(normalise(input).as_ref(), Err(want), "normalise({input:?})");
        }
    }

    #[test]
    fn length_is_measured_after_normalisation_in_bytes() {
        let exact = "a".repeat(MAX_KEY_BYTES);
        assert_eq!(normalise(&exact), Ok(exact.clone()));
        // Collapsed slashes do not count.
        assert_eq!(
            normalise(&format!("{}//{}", "a".repeat(500), "b".repeat(523)))
                .unwrap()
                .len(),
            1024
        );
        // Multi-byte characters count by their bytes: 342 × 3 bytes = 1026.
        assert_eq!(normalise(&"€".repeat(342)), Err(KeyError::TooLong));
        assert!(normalise(&"€".repeat(341)).is_ok());
    }

    #[test]
    fn files() {
        assert_eq!(file("a/b.csv").as_deref(), Ok("a/b.csv"));
        assert_eq!(file("./a//b.csv").as_deref(), Ok("a/b.csv"));
        assert_eq!(file(""), Err(KeyError::EmptyFile));
        assert_eq!(file("/"), Err(KeyError::EmptyFile));
        assert_eq!(file("."), Err(KeyError::EmptyFile));
        assert_eq!(file("a/"), Err(KeyError::NotAFile));
        assert_eq!(file("a/."), Err(KeyError::NotAFile));
        assert_eq!(file("../a"), Err(KeyError::ParentSegment));
        assert_eq!(file("/etc/passwd"), Err(KeyError::Absolute));
    }

    #[test]
    fn folders() {
        assert_eq!(folder("").as_deref(), Ok(""));
        assert_eq!(folder("/").as_deref(), Ok(""));
        assert_eq!(folder(".").as_deref(), Ok(""));
        assert_eq!(folder("a").as_deref(), Ok("a/"));
        assert_eq!(folder("a/").as_deref(), Ok("a/"));
        assert_eq!(folder("a//b").as_deref(), Ok("a/b/"));
        assert_eq!(folder("a/.."), Err(KeyError::ParentSegment));
        assert_eq!(folder(&"a".repeat(MAX_KEY_BYTES)), Err(KeyError::TooLong));
        assert_eq!(
            folder(&"a".repeat(MAX_KEY_BYTES - 1)).unwrap().len(),
            MAX_KEY_BYTES
        );
    }

    #[test]
    fn new_folders() {
        let ok: &[(&str, &str, &str)] = &[
            ("", "New folder", "New folder/"),
            ("/", "x", "x/"),
            ("a/", "b", "a/b/"),
            ("a", "b", "a/b/"),
            ("a//", "  padded  ", "a/padded/"),
            ("", "\tdonnées\n", "données/"),
            ("", "...", ".../"),
        ];
        for (current, name, want) in ok {
            assert_eq!(
                new_folder(current, name).as_deref(),
                Ok(*want),
                "new_folder({current:?}, {name:?})"
            );
        }
        let refused: &[(&str, &str, KeyError)] = &[
            ("", "", KeyError::EmptyFolderName),
            ("", "   ", KeyError::EmptyFolderName),
            ("a/", " \t\n ", KeyError::EmptyFolderName),
            ("", "\u{3000}", KeyError::EmptyFolderName),
            ("", "a/b", KeyError::FolderNameWithSlash),
            ("", "/", KeyError::FolderNameWithSlash),
            ("", ".", KeyError::DotFolderName),
            ("", "..", KeyError::ParentSegment),
            ("", " .. ", KeyError::ParentSegment),
            ("", "a\\b", KeyError::Backslash),
            ("", "a\0", KeyError::ControlCharacter),
            ("", "a\u{7f}b", KeyError::ControlCharacter),
            ("", FOLDER_MARKER, KeyError::ReservedName),
            ("../", "x", KeyError::ParentSegment),
            ("/abs", "x", KeyError::Absolute),
        ];
        for (current, name, want) in refused {
            assert_eq!(
                new_folder(current, name).as_ref(),
                Err(want),
                "new_folder({current:?}, {name:?})"
            );
        }
        let deep = "a/".repeat(MAX_KEY_BYTES / 2 - 1);
        assert_eq!(new_folder(&deep, "bb"), Err(KeyError::TooLong));
    }

    #[test]
    fn messages_are_sentences_for_people() {
        assert_eq!(
            KeyError::ParentSegment.to_string(),
            "The path may not contain '..'"
        );
        assert_eq!(
            KeyError::Absolute.to_string(),
            "The path must be relative to the dataset (no leading '/')"
        );
        assert_eq!(
            KeyError::Backslash.to_string(),
            "The path may not contain backslashes"
        );
        assert_eq!(
            KeyError::ControlCharacter.to_string(),
            "The path may not contain control characters"
        );
        assert_eq!(
            KeyError::TooLong.to_string(),
            "The path is too long (at most 1024 bytes)"
        );
        assert_eq!(
            KeyError::EmptyFolderName.to_string(),
            "The folder name may not be empty"
        );
    }

    #[test]
    fn absolute_keys_and_markers() {
        assert_eq!(absolute("datasets/x/", "a/b.csv"), "datasets/x/a/b.csv");
        assert_eq!(absolute("datasets/x/", ""), "datasets/x/");
        assert!(is_marker("datasets/x/a/.ludis-folder"));
        assert!(is_marker(".ludis-folder"));
        assert!(!is_marker("datasets/x/a/.ludis-folder.csv"));
        assert!(!is_marker("datasets/x/a/"));
    }

    /// A small deterministic generator (xorshift64*), so the property test needs no extra crate
    /// and fails the same way every time.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn whatever_is_accepted_stays_inside_the_prefix() {
        const PIECES: &[&str] = &[
            "..",
            ".",
            "/",
            "//",
            "\\",
            "\0",
            "\n",
            "\r",
            "\x7f",
            "\u{85}",
            "a",
            "b.csv",
            "é",
            "数据",
            "🎉",
            " ",
            "\t",
            "%2e",
            "%2f",
            "%00",
            "+",
            "?",
            "#",
            "&",
            "=",
            "~",
            ".ludis-folder",
            "...",
            "..a",
            "\u{202e}",
            "\u{feff}",
            "\u{2215}",
            "\u{ff0e}\u{ff0e}",
            ":",
            "*",
            "\"",
            "'",
            "<",
        ];
        let prefix = "datasets/0190c0de-aaaa-7bbb-8ccc-123456789abc/";
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..200_000 {
            let mut path = String::new();
            for _ in 0..rng.below(12) {
                path.push_str(PIECES[rng.below(PIECES.len())]);
            }
            if rng.below(50) == 0 {
                path.push_str(&"x".repeat(1000));
            }
            let Ok(rel) = normalise(&path) else {
                refused += 1;
                continue;
            };
            accepted += 1;
            assert_eq!(
                normalise(&rel).as_ref(),
                Ok(&rel),
                "normalise is idempotent on {path:?}"
            );
            for key in [Some(rel.clone()), file(&path).ok(), folder(&path).ok()]
                .into_iter()
                .flatten()
            {
                let abs = absolute(prefix, &key);
                assert!(abs.starts_with(prefix), "{path:?} → {abs:?}");
                let rest = &abs[prefix.len()..];
                assert!(!rest.starts_with('/'), "{path:?} → {abs:?}");
                assert!(rest.len() <= MAX_KEY_BYTES, "{path:?} → {} bytes", rest.len());
                let segments: Vec<&str> = rest.strip_suffix('/').unwrap_or(rest).split('/').collect();
                for segment in &segments {
                    assert!(*segment != ".." && *segment != ".", "{path:?} → {abs:?}");
                    assert!(*segment != FOLDER_MARKER, "{path:?} → {abs:?}");
                    assert!(rest.is_empty() || !segment.is_empty(), "{path:?} → {abs:?}");
                }
                assert!(
                    !abs.contains('\\') && !abs.chars().any(char::is_control),
                    "{path:?}"
                );
            }
            if let Ok(name) = new_folder(&rel, &path) {
                let abs = absolute(prefix, &name);
                assert!(abs.starts_with(prefix) && abs.ends_with('/') && !abs.contains("/../"));
            }
        }
        // The generator reaches both sides.
        assert!(
            accepted > 10_000 && refused > 10_000,
            "accepted {accepted}, refused {refused}"
        );
    }
}
