//! The small values a caller hands in, each checked once when it is made: which repository
//! ([`RepoId`]), which branch ([`BranchName`]), which blob a client loaded ([`Sha`]), who commits
//! ([`Author`]), why ([`CommitMessage`]) and the user's git credentials ([`GitCredentials`]).

use std::fmt;

use uuid::Uuid;

/// The longest commit message accepted, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// The longest author name or e-mail accepted, in bytes.
pub const MAX_AUTHOR_BYTES: usize = 256;

/// Why an input value is refused; `Display` gives the user-facing message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputError {
    /// Not a Kubernetes namespace name (DNS-1123 label).
    Namespace,
    /// Not a project id (a UUID in its canonical form).
    ProjectId,
    /// Not a branch name git accepts (see [`BranchName`]).
    Branch,
    /// Not a 40-character hexadecimal object id.
    Sha,
    /// An author name that is empty, too long, or has `<`, `>` or control characters.
    AuthorName,
    /// An author e-mail that is empty, too long, has no `@`, or has `<`, `>`, spaces or controls.
    AuthorEmail,
    /// A commit message that is empty or whitespace only.
    EmptyMessage,
    /// A commit message longer than [`MAX_MESSAGE_BYTES`] or with a NUL byte.
    Message,
    /// A git username or token that is empty.
    MissingCredentials,
    /// A git username or token with control characters (or a `:` in the username).
    Credentials,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InputError::Namespace => "The namespace is not valid",
            InputError::ProjectId => "The project id is not valid",
            InputError::Branch => "The branch name is not valid",
            InputError::Sha => "The file version (sha) is not valid",
            InputError::AuthorName => "The author name for the commit is not valid",
            InputError::AuthorEmail => "The author e-mail for the commit is not valid",
            InputError::EmptyMessage => "Please enter a commit message",
            InputError::Message => "The commit message is too long (at most 16 KiB)",
            InputError::MissingCredentials => "Please save your git username and personal access token first",
            InputError::Credentials => "The git username or token contains characters that are not allowed",
        })
    }
}

impl std::error::Error for InputError {}

/// Which project repository: the organization's namespace and the project's id. Hosted
/// repositories live at `<root>/<namespace>/<project>.git`, external caches likewise under
/// their own root; both parts are checked here, so the path is made of nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RepoId {
    namespace: String,
    project: Uuid,
}

impl RepoId {
    /// `namespace` must be a DNS-1123 label (what Kubernetes accepts: `a-z`, `0-9`, `-`, at most
    /// 63 characters, starting and ending with a letter or digit).
    pub fn new(namespace: &str, project: Uuid) -> Result<Self, InputError> {
        let valid = (1..=63).contains(&namespace.len())
            && namespace
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !namespace.starts_with('-')
            && !namespace.ends_with('-');
        if !valid {
            return Err(InputError::Namespace);
        }
        Ok(RepoId {
            namespace: namespace.to_owned(),
            project,
        })
    }

    /// From text (a URL's path parts): the project id must be a UUID written the canonical way
    /// (lowercase, hyphenated), so one repository has exactly one name.
    pub fn parse(namespace: &str, project: &str) -> Result<Self, InputError> {
        let id = Uuid::try_parse(project).map_err(|_| InputError::ProjectId)?;
        if id.hyphenated().to_string() != project {
            return Err(InputError::ProjectId);
        }
        RepoId::new(namespace, id)
    }

    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    pub fn project(&self) -> Uuid {
        self.project
    }

    /// `<namespace>/<project>.git`, relative to a root folder.
    pub(crate) fn relative_path(&self) -> std::path::PathBuf {
        std::path::Path::new(&self.namespace).join(format!("{}.git", self.project.hyphenated()))
    }
}

impl fmt::Display for RepoId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.namespace, self.project.hyphenated())
    }
}

/// A branch name (without `refs/heads/`), by git's `check-ref-format` rules and a little
/// stricter: ASCII letters, digits and `._/-` only; no `..`, `//`, `@{`; no segment starting
/// with `.` or ending with `.lock`; not starting with `-` or `/`; not ending with `/` or `.`;
/// at most 200 bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BranchName(String);

impl BranchName {
    pub fn new(name: &str) -> Result<Self, InputError> {
        let valid = !name.is_empty()
            && name.len() <= 200
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._/-".contains(&b))
            && !name.contains("..")
            && !name.starts_with(['-', '/'])
            && !name.ends_with(['/', '.'])
            && name.split('/').all(|segment| {
                !segment.is_empty() && !segment.starts_with('.') && !segment.ends_with(".lock")
            });
        if valid {
            Ok(BranchName(name.to_owned()))
        } else {
            Err(InputError::Branch)
        }
    }

    /// `main`, the branch of every hosted repository.
    pub fn main() -> Self {
        BranchName("main".to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `refs/heads/<name>`.
    pub(crate) fn reference(&self) -> String {
        format!("refs/heads/{}", self.0)
    }
}

impl fmt::Display for BranchName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A git object id as 40 lowercase hexadecimal digits (SHA-1 repositories; git's default).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sha(String);

impl Sha {
    /// Accepts upper or lower case; keeps lower case.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        if text.len() == 40 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(Sha(text.to_ascii_lowercase()))
        } else {
            Err(InputError::Sha)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn from_oid(oid: git2::Oid) -> Self {
        Sha(oid.to_string())
    }

    pub(crate) fn to_oid(&self) -> git2::Oid {
        // Checked to be 40 hex digits when made.
        git2::Oid::from_str(&self.0).unwrap_or(git2::Oid::ZERO_SHA1)
    }
}

impl fmt::Display for Sha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who makes a commit (author and committer alike): the user's name and e-mail from their profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    name: String,
    email: String,
}

impl Author {
    /// Both trimmed; neither empty nor longer than [`MAX_AUTHOR_BYTES`], no `<`, `>` or control
    /// characters (they would break the commit header); the e-mail has an `@` and no spaces.
    pub fn new(name: &str, email: &str) -> Result<Self, InputError> {
        let (name, email) = (name.trim(), email.trim());
        let clean = |text: &str| {
            !text.is_empty()
                && text.len() <= MAX_AUTHOR_BYTES
                && !text.contains(['<', '>'])
                && !text.chars().any(char::is_control)
        };
        if !clean(name) {
            return Err(InputError::AuthorName);
        }
        if !clean(email) || !email.contains('@') || email.contains(char::is_whitespace) {
            return Err(InputError::AuthorEmail);
        }
        Ok(Author {
            name: name.to_owned(),
            email: email.to_owned(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn email(&self) -> &str {
        &self.email
    }
}

/// A commit message: trimmed, not empty, at most [`MAX_MESSAGE_BYTES`], no NUL; line breaks kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitMessage(String);

impl CommitMessage {
    pub fn new(text: &str) -> Result<Self, InputError> {
        let text = text.trim();
        if text.is_empty() {
            Err(InputError::EmptyMessage)
        } else if text.len() > MAX_MESSAGE_BYTES || text.contains('\0') {
            Err(InputError::Message)
        } else {
            Ok(CommitMessage(format!("{text}\n")))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A user's git username and personal access token for an external remote. The token is never
/// printed: `Debug` hides it, and nothing in this crate puts it in a URL, a log or an error.
#[derive(Clone)]
pub struct GitCredentials {
    username: String,
    token: String,
}

impl GitCredentials {
    /// Both trimmed and required; no control characters, no `:` in the username.
    pub fn new(username: &str, token: &str) -> Result<Self, InputError> {
        let (username, token) = (username.trim(), token.trim());
        if username.is_empty() || token.is_empty() {
            return Err(InputError::MissingCredentials);
        }
        if username.contains(':') || format!("{username}{token}").chars().any(char::is_control) {
            return Err(InputError::Credentials);
        }
        Ok(GitCredentials {
            username: username.to_owned(),
            token: token.to_owned(),
        })
    }

    pub fn username(&self) -> &str {
        &self.username
    }

    pub(crate) fn token(&self) -> &str {
        &self.token
    }
}

impl fmt::Debug for GitCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GitCredentials")
            .field("username", &self.username)
            .field("token", &"***")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_ids_are_checked_namespaces_and_canonical_uuids() {
        let id = "0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e";
        let repo = RepoId::parse("ludis-acme", id).unwrap();
        assert_eq!(
            repo.relative_path(),
            std::path::Path::new("ludis-acme").join(format!("{id}.git"))
        );
        assert_eq!(repo.to_string(), format!("ludis-acme/{id}"));
        for namespace in [
            "",
            "-a",
            "a-",
            "A",
            "a_b",
            "a.b",
            "../x",
            "a/b",
            ".",
            "..",
            &"a".repeat(64),
        ] {
            assert_eq!(
                RepoId::parse(namespace, id),
                Err(InputError::Namespace),
                "{namespace:?}"
            );
        }
        for project in [
            "",
            "..",
            "x",
            "0B6F2D1E-3C4A-4B5C-8D9E-0F1A2B3C4D5E",
            "0b6f2d1e3c4a4b5c8d9e0f1a2b3c4d5e",
            "{0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e}",
            "urn:uuid:0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e",
            "0b6f2d1e-3c4a-4b5c-8d9e-0f1a2b3c4d5e/..",
        ] {
            assert_eq!(
                RepoId::parse("ludis-acme", project),
                Err(InputError::ProjectId),
                "{project:?}"
            );
        }
    }

    #[test]
    fn branch_names_follow_git_and_a_little_more() {
        for name in ["main", "master", "feature/x-1", "release-2.0", "a_b"] {
            assert_eq!(
                BranchName::new(name).unwrap().reference(),
                format!("refs/heads/{name}")
            );
        }
        for name in [
            "", "-x", "/x", "x/", "x.", "a..b", "a//b", ".hidden", "a/.b", "a.lock", "a/b.lock", "a b",
            "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "@{u}", "é",
        ] {
            assert_eq!(BranchName::new(name), Err(InputError::Branch), "{name:?}");
        }
    }

    #[test]
    fn shas_are_forty_hex_digits() {
        let sha = Sha::parse("ABCDEF0123456789abcdef0123456789ABCDEF01").unwrap();
        assert_eq!(sha.as_str(), "abcdef0123456789abcdef0123456789abcdef01");
        assert_eq!(sha.to_oid().to_string(), sha.as_str());
        for text in ["", "abc", &"g".repeat(40), &"a".repeat(41), &"a".repeat(64)] {
            assert_eq!(Sha::parse(text), Err(InputError::Sha), "{text:?}");
        }
    }

    #[test]
    fn authors_and_messages_are_checked() {
        let author = Author::new("  Ada Lovelace ", " ada@example.org ").unwrap();
        assert_eq!(
            (author.name(), author.email()),
            ("Ada Lovelace", "ada@example.org")
        );
        for (name, email, expected) in [
            ("", "a@b", InputError::AuthorName),
            ("Ada <x>", "a@b", InputError::AuthorName),
            ("Ada\nEvil", "a@b", InputError::AuthorName),
            ("Ada", "", InputError::AuthorEmail),
            ("Ada", "ada", InputError::AuthorEmail),
            ("Ada", "a@b>x", InputError::AuthorEmail),
            ("Ada", "a @b", InputError::AuthorEmail),
        ] {
            assert_eq!(Author::new(name, email), Err(expected), "{name:?} {email:?}");
        }
        assert_eq!(CommitMessage::new("  Fix it \n").unwrap().as_str(), "Fix it\n");
        assert_eq!(CommitMessage::new(" \n\t"), Err(InputError::EmptyMessage));
        assert_eq!(CommitMessage::new("a\0b"), Err(InputError::Message));
        assert_eq!(
            CommitMessage::new(&"m".repeat(MAX_MESSAGE_BYTES + 1)),
            Err(InputError::Message)
        );
    }

    #[test]
    fn credentials_never_show_the_token() {
        let credentials = GitCredentials::new("ada", "ghp_secret-token").unwrap();
        assert!(!format!("{credentials:?}").contains("ghp_secret-token"));
        assert_eq!(credentials.token(), "ghp_secret-token");
        assert_eq!(
            GitCredentials::new("", "t").unwrap_err(),
            InputError::MissingCredentials
        );
        assert_eq!(
            GitCredentials::new("ada", "  ").unwrap_err(),
            InputError::MissingCredentials
        );
        assert_eq!(
            GitCredentials::new("a:b", "t").unwrap_err(),
            InputError::Credentials
        );
        assert_eq!(
            GitCredentials::new("ada", "t\nx").unwrap_err(),
            InputError::Credentials
        );
    }
}
