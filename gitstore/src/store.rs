//! [`GitStore`]: the operations the API calls on a project's repository, hosted or external, each
//! running its git2 work on tokio's blocking pool.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::blocking;
use crate::change::{Change, Committed, FileCommit, FileDelete};
use crate::error::Result;
use crate::external::{self, Caches, External};
use crate::hosted::{self, NewRepository};
use crate::input::{BranchName, RepoId, Sha};
use crate::outbound::Outbound;
use crate::paths::RepoPath;
use crate::tree::{self, Contents, File, Listing};

/// Where repositories live and how external remotes are treated.
#[derive(Debug, Clone)]
pub struct StoreConfig {
    /// Hosted repositories: `<hosted_root>/<namespace>/<project>.git`. Shared by every API
    /// replica (one volume), since git's own locking keeps concurrent writers apart.
    pub hosted_root: PathBuf,
    /// External remotes' caches: `<cache_root>/<namespace>/<project>.git`; per replica.
    pub cache_root: PathBuf,
    /// A cache fetched this recently is read without fetching again.
    pub fetch_freshness: Duration,
    /// What external remotes may be reached and how much is taken from them: the URL rule
    /// (`http://` on loopback and private addresses for development and tests only), allowed
    /// private networks, the size and time of a fetch.
    pub outbound: Outbound,
}

impl StoreConfig {
    /// Both roots under one folder (`hosted/`, `cache/`), a 5 s freshness window, HTTPS only.
    pub fn under(folder: impl Into<PathBuf>) -> Self {
        let folder = folder.into();
        StoreConfig {
            hosted_root: folder.join("hosted"),
            cache_root: folder.join("cache"),
            fetch_freshness: DEFAULT_FETCH_FRESHNESS,
            outbound: Outbound::default(),
        }
    }
}

/// How long a fetched cache is read without fetching again: a burst of reads (opening a folder,
/// then a file) fetches once, and a change made elsewhere shows within seconds.
pub const DEFAULT_FETCH_FRESHNESS: Duration = Duration::from_secs(5);

/// Which repository a project keeps its code in, and on which branch.
#[derive(Debug, Clone)]
pub struct ProjectRepo {
    pub id: RepoId,
    pub branch: BranchName,
    pub location: Location,
}

impl ProjectRepo {
    /// A repository hosted by Ludis, on `main`.
    pub fn hosted(id: RepoId) -> Self {
        ProjectRepo {
            id,
            branch: BranchName::main(),
            location: Location::Hosted,
        }
    }

    pub fn external(id: RepoId, branch: BranchName, external: External) -> Self {
        ProjectRepo {
            id,
            branch,
            location: Location::External(external),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Location {
    /// Hosted by Ludis under [`StoreConfig::hosted_root`].
    Hosted,
    /// An external remote reached with a user's credentials.
    External(External),
}

/// Where [`GitStore::serve`] put a repository for git clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// Under [`StoreConfig::hosted_root`].
    Hosted,
    /// Under [`StoreConfig::cache_root`], mirroring the external remote's branch.
    Mirror,
}

/// The repository operations. Cheap to clone (one shared state).
#[derive(Clone)]
pub struct GitStore {
    inner: Arc<Inner>,
}

struct Inner {
    config: StoreConfig,
    caches: Caches,
}

impl GitStore {
    pub fn new(config: StoreConfig) -> Self {
        let caches = Caches::new(
            config.cache_root.clone(),
            config.fetch_freshness,
            config.outbound.clone(),
        );
        GitStore {
            inner: Arc::new(Inner { config, caches }),
        }
    }

    pub fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// Creates a hosted repository with its first commit on `main`; answers that commit.
    /// [`Error::RepositoryExists`] when the project already has one.
    pub async fn create_hosted(&self, id: &RepoId, new: NewRepository) -> Result<Sha> {
        let (root, id) = (self.inner.config.hosted_root.clone(), id.clone());
        blocking(move || hosted::create(&root, &id, &new)).await
    }

    /// Deletes a hosted repository and everything in it.
    pub async fn delete_hosted(&self, id: &RepoId) -> Result<()> {
        let (root, id) = (self.inner.config.hosted_root.clone(), id.clone());
        blocking(move || hosted::delete(&root, &id)).await
    }

    /// Whether a hosted repository exists.
    pub async fn hosted_exists(&self, id: &RepoId) -> Result<bool> {
        let path = hosted::path(&self.inner.config.hosted_root, id);
        blocking(move || Ok(path.is_dir())).await
    }

    /// Removes an external project's local cache (the project was deleted or its remote changed).
    pub async fn forget_cache(&self, id: &RepoId) -> Result<()> {
        self.inner.caches.forget(id).await
    }

    /// Makes the repository ready to be served to git clients and says where it is: a hosted
    /// one is always ready ([`Served::Hosted`]); an external one is fetched into its cache, which
    /// then mirrors the branch ([`Served::Mirror`], see [`crate::server::Access::ReadMirror`]).
    pub async fn serve(&self, repo: &ProjectRepo) -> Result<Served> {
        match &repo.location {
            Location::Hosted => Ok(Served::Hosted),
            Location::External(external) => {
                self.inner.caches.mirror(&repo.id, external, &repo.branch).await?;
                Ok(Served::Mirror)
            }
        }
    }

    /// Checks the user's credentials against an external remote and answers its default branch
    /// (`None` for an empty repository), without downloading anything: for "import project".
    pub async fn remote_default_branch(
        &self,
        id: &RepoId,
        external: &External,
    ) -> Result<Option<BranchName>> {
        self.inner.caches.default_branch(id, external).await
    }

    /// The commit at the branch head (`None` for a repository without commits): what a workflow
    /// pins when it is published.
    pub async fn head(&self, repo: &ProjectRepo) -> Result<Option<Sha>> {
        self.read_head(repo, |_, head| Ok(head.map(|c| Sha::from_oid(c.id()))))
            .await
    }

    /// A folder's listing or a file, whichever `path` names at the branch head.
    pub async fn contents(&self, repo: &ProjectRepo, path: &RepoPath) -> Result<Contents> {
        let path = path.clone();
        self.read_head(repo, move |git, head| tree::contents(git, head, &path))
            .await
    }

    /// The folder at `path` at the branch head.
    pub async fn list(&self, repo: &ProjectRepo, path: &RepoPath) -> Result<Listing> {
        let path = path.clone();
        self.read_head(repo, move |git, head| tree::list(git, head, &path))
            .await
    }

    /// The file at `path` at the branch head (at most [`crate::MAX_FILE_BYTES`]).
    pub async fn read(&self, repo: &ProjectRepo, path: &RepoPath) -> Result<File> {
        let path = path.clone();
        self.read_head(repo, move |git, head| tree::read(git, head, &path))
            .await
    }

    /// Creates or updates one file in a commit by the author, on top of the branch head. Refused
    /// when the file is not the version the client loaded (see [`crate::change`]).
    pub async fn commit_file(&self, repo: &ProjectRepo, commit: FileCommit) -> Result<Committed> {
        self.apply(repo, Change::Put(commit)).await
    }

    /// Deletes one file in a commit by the author; refused when it changed since it was loaded.
    pub async fn delete_file(&self, repo: &ProjectRepo, delete: FileDelete) -> Result<Committed> {
        self.apply(repo, Change::Delete(delete)).await
    }

    async fn apply(&self, repo: &ProjectRepo, change: Change) -> Result<Committed> {
        change.check()?;
        match &repo.location {
            Location::Hosted => {
                let (root, id, branch) = (
                    self.inner.config.hosted_root.clone(),
                    repo.id.clone(),
                    repo.branch.clone(),
                );
                blocking(move || hosted::apply(&hosted::open(&root, &id)?, &branch, &change)).await
            }
            Location::External(external) => {
                self.inner
                    .caches
                    .apply(&repo.id, external, &repo.branch, change)
                    .await
            }
        }
    }

    /// Runs `read` on the repository and its branch head (fetched first for an external remote).
    async fn read_head<T, F>(&self, repo: &ProjectRepo, read: F) -> Result<T>
    where
        F: FnOnce(&git2::Repository, Option<&git2::Commit<'_>>) -> Result<T> + Send + 'static,
        T: Send + 'static,
    {
        type Open = Box<dyn FnOnce() -> Result<git2::Repository> + Send>;
        let (open, reference): (Open, String) = match &repo.location {
            Location::Hosted => {
                let (root, id) = (self.inner.config.hosted_root.clone(), repo.id.clone());
                (
                    Box::new(move || hosted::open(&root, &id)),
                    repo.branch.reference(),
                )
            }
            Location::External(external) => {
                let path = self
                    .inner
                    .caches
                    .refresh(&repo.id, external, &repo.branch)
                    .await?;
                (
                    Box::new(move || external::open_cache(&path)),
                    external::tracking_reference(&repo.branch),
                )
            }
        };
        blocking(move || {
            let git = open()?;
            let head = tree::head(&git, &reference)?;
            read(&git, head.as_ref())
        })
        .await
    }
}
