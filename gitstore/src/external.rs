//! External remotes (GitHub, GitLab, Gitea, any HTTPS git server) reached with the user's git
//! username and token. Each project has a local bare cache at `<cache root>/<namespace>/<project>.git`
//! holding the branch as `refs/ludis/remote/<branch>`. Reads fetch first unless the cache was
//! fetched within the freshness window; a change is planned on the cached head, pushed without
//! force, and when the remote moved in the meantime (a rejected push) fetched and planned again,
//! so the concurrency rule of [`crate::change`] holds against every other writer of the remote.
//!
//! The token only ever reaches libgit2's credential callback: it is not in a URL, a log or an
//! error. Redirects are not followed (the credentials go to the host the user named, nowhere else).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use git2::{
    AutotagOption, Cred, CredentialType, ErrorClass, ErrorCode, FetchOptions, Oid, PushOptions, Remote,
    RemoteCallbacks, RemoteRedirect, Repository,
};

use crate::blocking;
use crate::change::{Change, Committed, Planned, plan};
use crate::error::{Error, Result};
use crate::hosted::MAX_ATTEMPTS;
use crate::input::{BranchName, GitCredentials, RepoId};
use crate::outbound::{Outbound, Transfer};
use crate::remote_url::RemoteUrl;
use crate::tree;

/// An external remote and the credentials of the user on whose behalf it is reached.
#[derive(Debug, Clone)]
pub struct External {
    pub url: RemoteUrl,
    pub credentials: GitCredentials,
}

/// The local reference that holds the remote branch's head in a cache.
pub(crate) fn tracking_reference(branch: &BranchName) -> String {
    format!("refs/ludis/remote/{}", branch.as_str())
}

/// The project caches and when each was last fetched. One lock per project: fetches and
/// changes of one cache take turns; reads run beside them.
pub(crate) struct Caches {
    root: PathBuf,
    freshness: Duration,
    outbound: Arc<Outbound>,
    projects: Mutex<HashMap<RepoId, Arc<tokio::sync::Mutex<Option<Fetched>>>>>,
}

/// The last successful fetch: when, and of which URL and branch.
struct Fetched {
    at: Instant,
    url: String,
    branch: BranchName,
}

impl Caches {
    pub(crate) fn new(root: PathBuf, freshness: Duration, outbound: Outbound) -> Self {
        Caches {
            root,
            freshness,
            outbound: Arc::new(outbound),
            projects: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn path(&self, id: &RepoId) -> PathBuf {
        self.root.join(id.relative_path())
    }

    fn lock_of(&self, id: &RepoId) -> Arc<tokio::sync::Mutex<Option<Fetched>>> {
        let mut projects = self
            .projects
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        projects.entry(id.clone()).or_default().clone()
    }

    /// Makes sure the cache holds the remote branch as fetched within the freshness window, and
    /// returns the cache's path.
    pub(crate) async fn refresh(
        &self,
        id: &RepoId,
        external: &External,
        branch: &BranchName,
    ) -> Result<PathBuf> {
        let lock = self.lock_of(id);
        let mut fetched = lock.lock().await;
        self.refresh_locked(id, external, branch, &mut fetched).await
    }

    async fn refresh_locked(
        &self,
        id: &RepoId,
        external: &External,
        branch: &BranchName,
        fetched: &mut Option<Fetched>,
    ) -> Result<PathBuf> {
        let path = self.path(id);
        let fresh = fetched.as_ref().is_some_and(|last| {
            last.at.elapsed() < self.freshness && last.url == external.url.as_str() && &last.branch == branch
        });
        if !fresh {
            *fetched = None;
            let (cache, remote, branch_owned) = (path.clone(), external.clone(), branch.clone());
            let outbound = self.outbound.clone();
            let wait = outbound.wait_limit();
            let host = external.url.host();
            let fetching = blocking(move || fetch(&open_cache(&cache)?, &remote, &branch_owned, &outbound));
            // A server that sends nothing at all never reaches the progress callback's clock.
            tokio::time::timeout(wait, fetching)
                .await
                .map_err(|_| Error::RemoteTooSlow {
                    host,
                    seconds: self.outbound.fetch_timeout.as_secs(),
                })??;
            *fetched = Some(Fetched {
                at: Instant::now(),
                url: external.url.as_str().to_owned(),
                branch: branch.clone(),
            });
        }
        Ok(path)
    }

    /// Applies a change: plan on the cached head, push; on a rejected push fetch and plan again.
    pub(crate) async fn apply(
        &self,
        id: &RepoId,
        external: &External,
        branch: &BranchName,
        change: Change,
    ) -> Result<Committed> {
        change.check()?;
        let lock = self.lock_of(id);
        let mut fetched = lock.lock().await;
        let change = Arc::new(change);
        for _ in 0..MAX_ATTEMPTS {
            let path = self.refresh_locked(id, external, branch, &mut fetched).await?;
            let (external, branch, change) = (external.clone(), branch.clone(), change.clone());
            let outbound = self.outbound.clone();
            let pushed = blocking(move || {
                outbound.check_target(&external.url)?;
                push_change(&open_cache(&path)?, &external, &branch, &change)
            })
            .await?;
            match pushed {
                Pushed::Done(outcome) => return Ok(outcome),
                // The remote moved: fetch now, whatever the window says.
                Pushed::Stale => *fetched = None,
            }
        }
        Err(Error::Busy)
    }

    /// Makes the cache a mirror of the remote branch for git clients ([`crate::server`]):
    /// fetched within the freshness window, the branch at `refs/heads/<branch>` (where a clone
    /// looks for it) and `HEAD` naming it. Nothing else of the remote is copied.
    pub(crate) async fn mirror(&self, id: &RepoId, external: &External, branch: &BranchName) -> Result<()> {
        let lock = self.lock_of(id);
        let mut fetched = lock.lock().await;
        let path = self.refresh_locked(id, external, branch, &mut fetched).await?;
        let branch = branch.clone();
        blocking(move || publish_branch(&open_cache(&path)?, &branch)).await
    }

    /// Checks the credentials against the remote and answers its default branch, from the
    /// project's cache (created if need be) without downloading anything.
    pub(crate) async fn default_branch(
        &self,
        id: &RepoId,
        external: &External,
    ) -> Result<Option<BranchName>> {
        let lock = self.lock_of(id);
        let _turn = lock.lock().await;
        let (path, external, outbound) = (self.path(id), external.clone(), self.outbound.clone());
        blocking(move || default_branch(&open_cache(&path)?, &external, &outbound)).await
    }

    /// Removes a project's cache (when the project is deleted or its remote changes).
    pub(crate) async fn forget(&self, id: &RepoId) -> Result<()> {
        let lock = self.lock_of(id);
        let mut fetched = lock.lock().await;
        *fetched = None;
        let path = self.path(id);
        blocking(move || match std::fs::remove_dir_all(&path) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io("delete the cache")(error))
            }
            _ => Ok(()),
        })
        .await
    }
}

/// Opens a project's cache, creating an empty bare repository the first time.
pub(crate) fn open_cache(path: &Path) -> Result<Repository> {
    if path.is_dir() {
        Repository::open_bare(path).map_err(Error::git("open the cache"))
    } else {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(Error::io("create the cache folder"))?;
        }
        let repo = Repository::init_bare(path).map_err(Error::git("create the cache"))?;
        // Every connection from the cache stays on the host the user named.
        repo.config()
            .and_then(|mut config| config.set_bool("http.followRedirects", false))
            .map_err(Error::git("write the cache's settings"))?;
        Ok(repo)
    }
}

/// What the credential callback saw: a second request for credentials means the first were
/// refused (libgit2 asks again after a 401), so it stops there and remembers why.
struct Auth<'a> {
    credentials: &'a GitCredentials,
    asked: Cell<bool>,
    refused: Cell<bool>,
}

impl<'a> Auth<'a> {
    fn new(credentials: &'a GitCredentials) -> Self {
        Auth {
            credentials,
            asked: Cell::new(false),
            refused: Cell::new(false),
        }
    }

    fn callbacks(&'a self) -> RemoteCallbacks<'a> {
        let mut callbacks = RemoteCallbacks::new();
        callbacks.credentials(move |_url, _username, allowed| {
            if !allowed.contains(CredentialType::USER_PASS_PLAINTEXT) {
                return Err(git2::Error::from_str(
                    "the git server asks for a kind of credentials other than a token",
                ));
            }
            if self.asked.replace(true) {
                self.refused.set(true);
                return Err(git2::Error::from_str("the git server refused the credentials"));
            }
            Cred::userpass_plaintext(self.credentials.username(), self.credentials.token())
        });
        callbacks
    }

    /// A libgit2 error of a remote operation, as the user should hear it.
    fn error(&self, error: git2::Error, url: &RemoteUrl) -> Error {
        let host = url.host();
        let message = error.message();
        if self.refused.get() || error.code() == ErrorCode::Auth || message.contains("status code: 401") {
            return Error::RemoteAuth;
        }
        if message.contains("status code: 403") {
            return Error::RemoteForbidden { host };
        }
        if message.contains("status code: 404") {
            return Error::RemoteNotFound { host };
        }
        match error.class() {
            ErrorClass::Net | ErrorClass::Os | ErrorClass::Ssl => {
                Error::RemoteUnreachable { host, source: error }
            }
            _ => Error::Remote { host, source: error },
        }
    }
}

fn fetch_options<'a>(auth: &'a Auth<'a>, transfer: &'a Transfer<'a>) -> FetchOptions<'a> {
    let mut callbacks = auth.callbacks();
    callbacks.transfer_progress(|progress| transfer.go_on(progress.received_bytes()));
    let mut options = FetchOptions::new();
    options
        .remote_callbacks(callbacks)
        .download_tags(AutotagOption::None)
        .update_fetchhead(false)
        .follow_redirects(RemoteRedirect::None);
    options
}

/// Fetches the branch into the cache's tracking reference; removes that reference when the
/// remote has no such branch (an empty repository, or a branch deleted on the remote).
fn fetch(repo: &Repository, external: &External, branch: &BranchName, outbound: &Outbound) -> Result<()> {
    outbound.check_target(&external.url)?;
    let auth = Auth::new(&external.credentials);
    let transfer = Transfer::new(outbound);
    let mut remote = repo
        .remote_anonymous(external.url.as_str())
        .map_err(Error::git("set up the remote"))?;
    let refspec = format!("+{}:{}", branch.reference(), tracking_reference(branch));
    remote
        .fetch(&[refspec], Some(&mut fetch_options(&auth, &transfer)), None)
        .map_err(|error| {
            transfer
                .error(&external.url)
                .unwrap_or_else(|| auth.error(error, &external.url))
        })?;
    let on_remote = advertised(&remote, branch)?;
    if on_remote.is_none()
        && let Ok(mut stale) = repo.find_reference(&tracking_reference(branch))
    {
        stale
            .delete()
            .map_err(Error::git("forget a deleted remote branch"))?;
    }
    Ok(())
}

/// Points `refs/heads/<branch>` at the fetched head (removes it when the remote has no such
/// branch) and `HEAD` at it.
fn publish_branch(repo: &Repository, branch: &BranchName) -> Result<()> {
    let head = branch.reference();
    match repo.refname_to_id(&tracking_reference(branch)) {
        Ok(target) => {
            repo.reference(&head, target, true, "mirror")
                .map_err(Error::git("mirror the branch"))?;
        }
        Err(_) => {
            if let Ok(mut stale) = repo.find_reference(&head) {
                stale.delete().map_err(Error::git("mirror the branch"))?;
            }
        }
    }
    repo.set_head(&head).map_err(Error::git("mirror the branch"))
}

/// The remote branch's head as the remote advertised it on the last connection.
fn advertised(remote: &Remote<'_>, branch: &BranchName) -> Result<Option<Oid>> {
    let reference = branch.reference();
    let heads = remote.list().map_err(Error::git("list the remote's branches"))?;
    Ok(heads
        .iter()
        .find(|head| head.name() == reference)
        .map(|head| head.oid()))
}

enum Pushed {
    Done(Committed),
    /// The remote moved since the last fetch; fetch and plan again.
    Stale,
}

/// Reasons a git server gives for refusing a reference update because it moved meanwhile.
const STALE_REASONS: [&str; 5] = [
    "fetch first",
    "non-fast-forward",
    "stale info",
    "failed to update ref",
    "failed to lock",
];

/// Plans `change` on the cached head and pushes it (no force).
fn push_change(
    repo: &Repository,
    external: &External,
    branch: &BranchName,
    change: &Change,
) -> Result<Pushed> {
    let tracking = tracking_reference(branch);
    let head = tree::head(repo, &tracking)?;
    let (id, outcome) = match plan(repo, head.as_ref(), change)? {
        Planned::Unchanged(outcome) => return Ok(Pushed::Done(outcome)),
        Planned::Commit { id, outcome } => (id, outcome),
    };
    // libgit2 pushes from a reference, not from an object id.
    let outgoing = "refs/ludis/push";
    repo.reference(outgoing, id, true, "")
        .map_err(Error::git("prepare the push"))?;

    let auth = Auth::new(&external.credentials);
    let refusal = RefCell::new(None::<String>);
    let mut callbacks = auth.callbacks();
    callbacks.push_update_reference(|_reference, status| {
        if let Some(reason) = status {
            *refusal.borrow_mut() = Some(reason.to_owned());
        }
        Ok(())
    });
    let mut options = PushOptions::new();
    options
        .remote_callbacks(callbacks)
        .follow_redirects(RemoteRedirect::None);
    let mut remote = repo
        .remote_anonymous(external.url.as_str())
        .map_err(Error::git("set up the remote"))?;
    let pushed = remote.push(
        &[format!("{outgoing}:{}", branch.reference())],
        Some(&mut options),
    );
    drop(options);
    match pushed {
        Err(error) if error.code() == ErrorCode::NotFastForward => return Ok(Pushed::Stale),
        Err(error) => return Err(auth.error(error, &external.url)),
        Ok(()) => {}
    }
    if let Some(reason) = refusal.into_inner() {
        if STALE_REASONS.iter().any(|stale| reason.contains(stale)) {
            return Ok(Pushed::Stale);
        }
        let reason: String = reason.chars().filter(|c| !c.is_control()).take(200).collect();
        return Err(Error::PushRefused {
            host: external.url.host(),
            reason,
        });
    }
    repo.reference(&tracking, id, true, "ludis: pushed")
        .map_err(Error::git("record the pushed head"))?;
    Ok(Pushed::Done(outcome))
}

/// Connects to the remote from the project's cache without downloading anything: checks the
/// credentials and answers the remote's default branch (`None` for an empty repository).
fn default_branch(repo: &Repository, external: &External, outbound: &Outbound) -> Result<Option<BranchName>> {
    outbound.check_target(&external.url)?;
    let auth = Auth::new(&external.credentials);
    let transfer = Transfer::new(outbound);
    let mut remote = repo
        .remote_anonymous(external.url.as_str())
        .map_err(Error::git("set up the remote"))?;
    remote
        .fetch(&[] as &[&str], Some(&mut fetch_options(&auth, &transfer)), None)
        .map_err(|error| {
            transfer
                .error(&external.url)
                .unwrap_or_else(|| auth.error(error, &external.url))
        })?;
    let name = match remote.default_branch() {
        Ok(name) => name,
        Err(error) if error.code() == ErrorCode::NotFound => return Ok(None),
        Err(error) => return Err(Error::git("read the remote's default branch")(error)),
    };
    Ok(name
        .as_str()
        .ok()
        .and_then(|name| name.strip_prefix("refs/heads/"))
        .and_then(|name| BranchName::new(name).ok()))
}
