//! Project repositories for Ludis, through git2.
//!
//! A project's code is a git repository, either **hosted** by Ludis (a bare repository under a
//! root folder, served to git clients by [`server`]) or **external** (any HTTPS remote, reached
//! with the user's git username and token, through a local bare cache). [`GitStore`] lists a
//! folder and reads a file at the branch head, and commits or deletes one file as the user
//! without a working tree. A concurrent edit is never lost: a change names the file version it
//! was made on, and is refused when that file changed since (see [`change`](crate::FileCommit)).
//!
//! - [`paths`]: client paths → repository paths that cannot reach `.git` or leave the tree;
//! - [`input`]: checked ids, branch names, shas, authors, messages and credentials;
//! - [`remote_url`]: external remote URLs, and what "import project" derives from them;
//! - [`server`]: the smart-HTTP server (git's own `http-backend`) for hosted repositories.
//!
//! Every git2 call runs on tokio's blocking pool.

mod change;
mod error;
mod external;
mod hosted;
pub mod input;
pub mod outbound;
pub mod paths;
pub mod remote_url;
pub mod server;
mod store;
mod tree;

pub use change::{Committed, Expected, FileCommit, FileDelete};
pub use error::{Error, ErrorKind, Result};
pub use external::External;
pub use hosted::{Language, NewRepository};
pub use input::{Author, BranchName, CommitMessage, GitCredentials, InputError, RepoId, Sha};
pub use outbound::Outbound;
pub use paths::{PathError, RepoPath};
pub use remote_url::{ImportedProject, RemoteUrl, UrlError, UrlPolicy};
pub use store::{DEFAULT_FETCH_FRESHNESS, GitStore, Location, ProjectRepo, Served, StoreConfig};
pub use tree::{Contents, Entry, EntryKind, File, Listing};

/// The largest file read or committed through the API, in bytes (10 MiB). Larger files stay in
/// the repository and can be cloned; the workspace refuses to open or save them.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// The most entries a folder listing returns; [`Listing::total`] says how many there are.
pub const MAX_LISTED_ENTRIES: usize = 5_000;

/// Runs blocking git work (every git2 call) on tokio's blocking pool.
pub(crate) async fn blocking<T, F>(work: F) -> Result<T>
where
    F: FnOnce() -> Result<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(work).await.map_err(Error::Task)?
}
