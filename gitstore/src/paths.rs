//! Paths inside a project's repository: what a client may name, normalised once.
//!
//! Every path a client sends (a folder to list, a file to read, commit or delete) becomes a
//! [`RepoPath`] before it reaches git: repeated `/` collapse, `.` segments go, a trailing `/` is
//! dropped; `""`, `.` and a path of slashes only are the root. Refused, each with a sentence for the
//! user ([`PathError`]'s `Display`): a `..` segment, a leading `/`, a backslash, any control
//! character, a `.git` segment anywhere (also the spellings that some file systems treat as `.git`:
//! any case, trailing dots or spaces, `git~1`, or with characters macOS ignores), a segment longer
//! than [`MAX_SEGMENT_BYTES`] and a path longer than [`MAX_PATH_BYTES`]. Unicode names are kept as
//! they are.

use std::fmt;

/// The longest path accepted, in bytes, after normalisation.
pub const MAX_PATH_BYTES: usize = 1024;

/// The longest file or folder name accepted, in bytes (the common file-system limit).
pub const MAX_SEGMENT_BYTES: usize = 255;

/// Why a client path is refused; `Display` gives the user-facing message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathError {
    /// A `..` segment.
    ParentSegment,
    /// A leading `/` (other than a path made of slashes only, which is the root).
    Absolute,
    /// A `\` anywhere.
    Backslash,
    /// A control character (NUL, newline, DEL, C1 controls, ...).
    ControlCharacter,
    /// A segment that is, or that some file system reads as, `.git`.
    GitDirectory,
    /// One segment longer than [`MAX_SEGMENT_BYTES`].
    NameTooLong,
    /// Longer than [`MAX_PATH_BYTES`] after normalisation.
    TooLong,
    /// A file path that names the root.
    EmptyFile,
    /// A file path that ends with `/`.
    NotAFile,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathError::ParentSegment => "The path may not contain '..'",
            PathError::Absolute => "The path must be relative to the repository (no leading '/')",
            PathError::Backslash => "The path may not contain backslashes",
            PathError::ControlCharacter => "The path may not contain control characters",
            PathError::GitDirectory => "The path may not contain a '.git' folder",
            PathError::NameTooLong => "A file or folder name is too long (at most 255 bytes)",
            PathError::TooLong => "The path is too long (at most 1024 bytes)",
            PathError::EmptyFile => "The path must name a file",
            PathError::NotAFile => "The path names a folder, not a file",
        })
    }
}

impl std::error::Error for PathError {}

/// A normalised path inside a repository: segments joined by `/`, no leading or trailing `/`;
/// the root is `""`. Only [`RepoPath::parse`] and [`RepoPath::file`] make one from client text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoPath(String);

impl RepoPath {
    /// The repository's root folder.
    pub fn root() -> Self {
        RepoPath(String::new())
    }

    /// A path that may name a folder (the root included) or a file: a listing, or a read that
    /// answers whichever it is. See the module documentation for the rules.
    pub fn parse(input: &str) -> Result<Self, PathError> {
        normalise(input).map(|(path, _)| RepoPath(path))
    }

    /// A path that must name a file: [`RepoPath::parse`], and not the root, not ending with `/`.
    pub fn file(input: &str) -> Result<Self, PathError> {
        let (path, trailing_slash) = normalise(input)?;
        if path.is_empty() {
            Err(PathError::EmptyFile)
        } else if trailing_slash {
            Err(PathError::NotAFile)
        } else {
            Ok(RepoPath(path))
        }
    }

    /// The path as git names it (`""` for the root).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The last segment (`""` for the root).
    pub fn name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or_default()
    }

    /// Every proper ancestor folder except the root, outermost first: `a/b/c` → `a`, `a/b`.
    pub(crate) fn ancestors(&self) -> impl Iterator<Item = &str> {
        self.0.match_indices('/').map(|(index, _)| &self.0[..index])
    }

    /// The path of an entry named `name` inside this folder. `name` comes from a git tree, where
    /// it is one segment (git refuses `/` and NUL in tree entry names).
    pub(crate) fn child(&self, name: &str) -> String {
        if self.0.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", self.0)
        }
    }
}

impl fmt::Display for RepoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "/" } else { &self.0 })
    }
}

/// The normalised path and whether the input named a folder explicitly (a trailing `/`, or a
/// trailing `.` segment).
fn normalise(input: &str) -> Result<(String, bool), PathError> {
    if input.contains('\\') {
        return Err(PathError::Backslash);
    }
    if input.chars().any(char::is_control) {
        return Err(PathError::ControlCharacter);
    }
    if input.bytes().all(|b| b == b'/') {
        return Ok((String::new(), true));
    }
    if input.starts_with('/') {
        return Err(PathError::Absolute);
    }
    let trailing_slash = input.ends_with('/') || input.rsplit('/').next() == Some(".");
    let mut out = String::with_capacity(input.len());
    for segment in input.split('/') {
        match segment {
            "" | "." => continue,
            ".." => return Err(PathError::ParentSegment),
            name if is_git_directory(name) => return Err(PathError::GitDirectory),
            name if name.len() > MAX_SEGMENT_BYTES => return Err(PathError::NameTooLong),
            name => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(name);
            }
        }
    }
    if out.len() > MAX_PATH_BYTES {
        return Err(PathError::TooLong);
    }
    Ok((out, trailing_slash))
}

/// Whether a segment is `.git` as git itself guards it on any file system: case-insensitive,
/// with trailing dots and spaces ignored (NTFS), the 8.3 short name `git~1` (NTFS), and with the
/// code points HFS+ ignores in names removed.
fn is_git_directory(segment: &str) -> bool {
    let visible: String = segment
        .chars()
        .filter(|c| !is_hfs_ignorable(*c))
        .collect::<String>()
        .to_lowercase();
    let trimmed = visible.trim_end_matches(['.', ' ']);
    trimmed == ".git" || trimmed == "git~1"
}

/// The code points HFS+ drops when it compares names (git's `is_hfs_dotgit` list).
fn is_hfs_ignorable(c: char) -> bool {
    matches!(c,
        '\u{200c}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{206a}'..='\u{206f}' | '\u{feff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_folder_paths() {
        let cases = [
            ("", ""),
            (".", ""),
            ("/", ""),
            ("///", ""),
            ("./", ""),
            ("src", "src"),
            ("src/", "src"),
            ("a//b", "a/b"),
            ("./a/./b/.", "a/b"),
            ("a/b/", "a/b"),
            ("données/été.csv", "données/été.csv"),
            (".gitignore", ".gitignore"),
            ("a/.github/workflows", "a/.github/workflows"),
            ("git", "git"),
            ("my.git", "my.git"),
            (".gitmodules", ".gitmodules"),
            ("...", "..."),
        ];
        for (input, expected) in cases {
            assert_eq!(
                RepoPath::parse(input).map(|p| p.0),
                Ok(expected.to_owned()),
                "{input:?}"
            );
        }
    }

    #[test]
    fn refuses_every_path_attack() {
        let long_name = "n".repeat(MAX_SEGMENT_BYTES + 1);
        let long_path = vec!["abcdefghij"; 100].join("/") + "/abcdefghijklmnopqrstuvwxyz";
        let cases: Vec<(&str, PathError)> = vec![
            ("..", PathError::ParentSegment),
            ("../etc/passwd", PathError::ParentSegment),
            ("a/../../b", PathError::ParentSegment),
            ("a/..", PathError::ParentSegment),
            ("a/../b", PathError::ParentSegment),
            ("./../a", PathError::ParentSegment),
            ("/etc/passwd", PathError::Absolute),
            ("/a", PathError::Absolute),
            ("//a", PathError::Absolute),
            ("a\\b", PathError::Backslash),
            ("..\\..\\windows", PathError::Backslash),
            ("C:\\x", PathError::Backslash),
            ("a\0b", PathError::ControlCharacter),
            ("a\nb", PathError::ControlCharacter),
            ("a\rb", PathError::ControlCharacter),
            ("a\tb", PathError::ControlCharacter),
            ("a\u{7f}", PathError::ControlCharacter),
            ("a\u{85}", PathError::ControlCharacter),
            ("\u{1b}[31m", PathError::ControlCharacter),
            (".git", PathError::GitDirectory),
            (".git/", PathError::GitDirectory),
            (".git/config", PathError::GitDirectory),
            ("./.git/hooks/pre-commit", PathError::GitDirectory),
            ("a/.git/config", PathError::GitDirectory),
            ("a//.git", PathError::GitDirectory),
            (".GIT/config", PathError::GitDirectory),
            (".Git", PathError::GitDirectory),
            (".git./config", PathError::GitDirectory),
            (".git ", PathError::GitDirectory),
            (".git . .", PathError::GitDirectory),
            ("GIT~1/config", PathError::GitDirectory),
            ("git~1", PathError::GitDirectory),
            (".g\u{200c}it/config", PathError::GitDirectory),
            ("\u{feff}.git", PathError::GitDirectory),
            (".gi\u{206f}t", PathError::GitDirectory),
            (&long_name, PathError::NameTooLong),
            (&long_path, PathError::TooLong),
        ];
        for (input, expected) in cases {
            assert_eq!(RepoPath::parse(input), Err(expected), "{input:?}");
            assert_eq!(RepoPath::file(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn a_file_path_names_a_file() {
        assert_eq!(RepoPath::file("src/main.py").unwrap().as_str(), "src/main.py");
        assert_eq!(RepoPath::file("a//b/./c.R").unwrap().as_str(), "a/b/c.R");
        for (input, expected) in [
            ("", PathError::EmptyFile),
            (".", PathError::EmptyFile),
            ("/", PathError::EmptyFile),
            ("src/", PathError::NotAFile),
            ("src/.", PathError::NotAFile),
        ] {
            assert_eq!(RepoPath::file(input), Err(expected), "{input:?}");
        }
    }

    #[test]
    fn names_ancestors_and_children() {
        let path = RepoPath::file("a/b/c.txt").unwrap();
        assert_eq!(path.name(), "c.txt");
        assert_eq!(path.ancestors().collect::<Vec<_>>(), ["a", "a/b"]);
        assert_eq!(RepoPath::file("top").unwrap().ancestors().count(), 0);
        assert_eq!(RepoPath::root().child("x"), "x");
        assert_eq!(RepoPath::parse("a/b").unwrap().child("x"), "a/b/x");
        assert_eq!(RepoPath::root().to_string(), "/");
    }

    #[test]
    fn every_message_is_a_sentence_for_the_user() {
        for error in [
            PathError::ParentSegment,
            PathError::Absolute,
            PathError::Backslash,
            PathError::ControlCharacter,
            PathError::GitDirectory,
            PathError::NameTooLong,
            PathError::TooLong,
            PathError::EmptyFile,
            PathError::NotAFile,
        ] {
            let message = error.to_string();
            assert!(
                message.starts_with("The ") || message.starts_with("A "),
                "{message}"
            );
        }
    }
}
