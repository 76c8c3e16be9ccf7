//! The crate's error: client errors carry a sentence for the user (their `Display`), internal
//! ones say what failed ("failed to …") and keep the cause for the log, and [`Error::kind`] tells
//! the API which HTTP status to answer. No message contains a git token.

use crate::input::InputError;
use crate::paths::PathError;
use crate::remote_url::UrlError;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Path(#[from] PathError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Url(#[from] UrlError),

    #[error("The project's repository does not exist")]
    RepositoryNotFound,
    #[error("The project's repository already exists")]
    RepositoryExists,
    #[error("'{path}' does not exist")]
    NotFound { path: String },
    #[error("'{path}' is a folder, not a file")]
    IsAFolder { path: String },
    #[error("'{path}' is a file, not a folder")]
    IsAFile { path: String },
    #[error("The file changed since you opened it; reload it to see the latest version")]
    FileChanged { path: String },
    #[error("The file was deleted since you opened it; reload the folder to see the latest version")]
    FileDeleted { path: String },
    #[error("A file named '{path}' already exists; reload the folder to see it")]
    FileExists { path: String },
    #[error("The file is too large to open or save here (at most {limit_mib} MiB)")]
    FileTooLarge { path: String, limit_mib: u64 },

    #[error(
        "The git server refused the username or token; check your git username and personal access token"
    )]
    RemoteAuth,
    #[error("Your git token is not allowed to do this on {host}; check the token's permissions")]
    RemoteForbidden { host: String },
    #[error("The repository was not found at {host}, or your token cannot see it")]
    RemoteNotFound { host: String },
    #[error("The git server at {host} could not be reached")]
    RemoteUnreachable {
        host: String,
        #[source]
        source: git2::Error,
    },
    #[error("The git server at {host} answered with an error")]
    Remote {
        host: String,
        #[source]
        source: git2::Error,
    },
    #[error("The repository at {host} is larger than {limit_mib} MiB, the most Ludis downloads")]
    RemoteTooLarge { host: String, limit_mib: u64 },
    #[error("The git server at {host} took longer than {seconds} s to send the repository")]
    RemoteTooSlow { host: String, seconds: u64 },
    #[error("The git server at {host} refused the change: {reason}")]
    PushRefused { host: String, reason: String },
    #[error("The repository is busy with other changes; please try again")]
    Busy,

    #[error("failed to {op}")]
    Git {
        op: &'static str,
        #[source]
        source: git2::Error,
    },
    #[error("failed to {op}")]
    Io {
        op: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("a git task stopped unexpectedly")]
    Task(#[source] tokio::task::JoinError),
}

/// What an [`Error`] means for the caller; the API maps each to one HTTP status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request is malformed (a path, a name, a URL, a message): 400.
    Invalid,
    /// The repository, file or folder does not exist: 404.
    NotFound,
    /// The file changed or exists already; the user reloads: 409.
    Conflict,
    /// Over a stated size limit: 413.
    TooLarge,
    /// The remote refused the user's git credentials (or their permissions): 400 — never 401,
    /// which the console reads as its own session expiring; the user fixes their git details.
    RemoteCredentials,
    /// The remote could not be reached or failed: 502.
    RemoteFailed,
    /// Too many concurrent changes; retry: 503.
    Busy,
    /// Anything else: 500 with a generic message; log the error with its sources.
    Internal,
}

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Path(_)
            | Error::Input(_)
            | Error::Url(_)
            | Error::IsAFolder { .. }
            | Error::IsAFile { .. } => ErrorKind::Invalid,
            Error::RepositoryNotFound | Error::NotFound { .. } | Error::RemoteNotFound { .. } => {
                ErrorKind::NotFound
            }
            Error::FileChanged { .. }
            | Error::FileDeleted { .. }
            | Error::FileExists { .. }
            | Error::RepositoryExists => ErrorKind::Conflict,
            Error::FileTooLarge { .. } | Error::RemoteTooLarge { .. } => ErrorKind::TooLarge,
            Error::RemoteAuth | Error::RemoteForbidden { .. } => ErrorKind::RemoteCredentials,
            Error::RemoteUnreachable { .. }
            | Error::Remote { .. }
            | Error::RemoteTooSlow { .. }
            | Error::PushRefused { .. } => ErrorKind::RemoteFailed,
            Error::Busy => ErrorKind::Busy,
            Error::Git { .. } | Error::Io { .. } | Error::Task(_) => ErrorKind::Internal,
        }
    }

    /// Whether the message may be shown to the user as it is.
    pub fn is_client_error(&self) -> bool {
        self.kind() != ErrorKind::Internal
    }

    pub(crate) fn git(op: &'static str) -> impl FnOnce(git2::Error) -> Error {
        move |source| Error::Git { op, source }
    }

    pub(crate) fn io(op: &'static str) -> impl FnOnce(std::io::Error) -> Error {
        move |source| Error::Io { op, source }
    }
}
