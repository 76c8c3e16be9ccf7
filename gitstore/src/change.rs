//! Making a commit without a working tree: the branch head's tree with one file put or removed
//! (git2's tree updater), committed on top of the head by the user.
//!
//! The concurrency rule lives here. The client says which version of the file it edited (the blob
//! it loaded, or "must not exist" for a new file). The change is planned against the *current*
//! head: if the file there is not the version the client loaded, the change is refused with a
//! message the user understands; if only other files changed, the change goes on top of them (a
//! rebase of a one-file change, which cannot conflict). Whoever then moves the branch (a
//! compare-and-swap on a hosted reference, a push to an external remote) fails if the head moved
//! in the meantime, and the store plans again from the new head.

use git2::{Commit, FileMode, ObjectType, Oid, Repository, Signature, build::TreeUpdateBuilder};

use crate::MAX_FILE_BYTES;
use crate::error::{Error, Result};
use crate::input::{Author, CommitMessage, Sha};
use crate::paths::RepoPath;
use crate::tree::entry;

/// Which version of a file the client edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// A new file: nothing may exist at the path yet.
    Absent,
    /// The blob the client loaded (a [`crate::File`]'s or [`crate::Entry`]'s `sha`).
    Blob(Sha),
}

/// Create or update one file.
#[derive(Debug, Clone)]
pub struct FileCommit {
    pub path: RepoPath,
    pub content: Vec<u8>,
    pub expected: Expected,
    pub message: CommitMessage,
    pub author: Author,
}

/// Delete one file (not a folder).
#[derive(Debug, Clone)]
pub struct FileDelete {
    pub path: RepoPath,
    /// The blob the client loaded: a file changed since is not deleted.
    pub expected: Sha,
    pub message: CommitMessage,
    pub author: Author,
}

/// The result of a commit or delete.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The branch head afterwards.
    pub commit: Sha,
    /// The file's blob afterwards (`None` after a delete).
    pub blob: Option<Sha>,
    /// `false` when the content was already the head's: no commit was made.
    pub changed: bool,
}

/// One change to plan.
#[derive(Debug, Clone)]
pub(crate) enum Change {
    Put(FileCommit),
    Delete(FileDelete),
}

impl Change {
    pub(crate) fn path(&self) -> &RepoPath {
        match self {
            Change::Put(put) => &put.path,
            Change::Delete(delete) => &delete.path,
        }
    }

    /// The limits that need no repository: the content's size.
    pub(crate) fn check(&self) -> Result<()> {
        match self {
            Change::Put(put) if put.content.len() as u64 > MAX_FILE_BYTES => Err(Error::FileTooLarge {
                path: put.path.as_str().to_owned(),
                limit_mib: MAX_FILE_BYTES >> 20,
            }),
            _ => Ok(()),
        }
    }
}

/// What the store does next.
pub(crate) enum Planned {
    /// Nothing to commit: the head already has this content.
    Unchanged(Committed),
    /// A new commit (written to the object database, not yet on the branch).
    Commit { id: Oid, outcome: Committed },
}

/// Plans `change` on `head` (`None`: the branch has no commits yet).
pub(crate) fn plan(repo: &Repository, head: Option<&Commit<'_>>, change: &Change) -> Result<Planned> {
    change.check()?;
    let path = change.path();
    let base = match head {
        Some(commit) => commit.tree().map_err(Error::git("read the head's tree"))?,
        None => {
            let empty = repo
                .treebuilder(None)
                .and_then(|builder| builder.write())
                .map_err(Error::git("write the empty tree"))?;
            repo.find_tree(empty).map_err(Error::git("read the empty tree"))?
        }
    };
    for ancestor in path.ancestors() {
        let ancestor_path = RepoPath::parse(ancestor)?;
        if let Some(found) = entry(&base, &ancestor_path)?
            && found.kind() != Some(ObjectType::Tree)
        {
            return Err(Error::IsAFile {
                path: ancestor.to_owned(),
            });
        }
    }
    let current = entry(&base, path)?;
    if let Some(found) = &current
        && found.kind() != Some(ObjectType::Blob)
    {
        return Err(Error::IsAFolder {
            path: path.as_str().to_owned(),
        });
    }
    let current_blob = current.as_ref().map(|found| found.id());
    let expected = match change {
        Change::Put(put) => match &put.expected {
            Expected::Absent => None,
            Expected::Blob(sha) => Some(sha),
        },
        Change::Delete(delete) => Some(&delete.expected),
    };
    check_expected(path, expected, current_blob)?;

    let head_sha = head.map(|commit| Sha::from_oid(commit.id()));
    let mut updates = TreeUpdateBuilder::new();
    let (blob, message, author) = match change {
        Change::Put(put) => {
            let blob = repo.blob(&put.content).map_err(Error::git("write a file"))?;
            if current_blob == Some(blob)
                && let Some(commit) = head_sha
            {
                return Ok(Planned::Unchanged(Committed {
                    commit,
                    blob: Some(Sha::from_oid(blob)),
                    changed: false,
                }));
            }
            let mode = match current.as_ref().map(|found| found.filemode()) {
                Some(mode) if mode == i32::from(FileMode::BlobExecutable) => FileMode::BlobExecutable,
                Some(mode) if mode == i32::from(FileMode::Link) => FileMode::Link,
                _ => FileMode::Blob,
            };
            updates.upsert(path.as_str(), blob, mode);
            (Some(blob), &put.message, &put.author)
        }
        Change::Delete(delete) => {
            updates.remove(path.as_str());
            (None, &delete.message, &delete.author)
        }
    };
    let tree_id = updates
        .create_updated(repo, &base)
        .map_err(Error::git("write the new tree"))?;
    let tree = repo.find_tree(tree_id).map_err(Error::git("read the new tree"))?;
    let signature = Signature::now(author.name(), author.email()).map_err(Error::git("sign the commit"))?;
    let parents: Vec<&Commit<'_>> = head.into_iter().collect();
    let id = repo
        .commit(None, &signature, &signature, message.as_str(), &tree, &parents)
        .map_err(Error::git("write the commit"))?;
    Ok(Planned::Commit {
        id,
        outcome: Committed {
            commit: Sha::from_oid(id),
            blob: blob.map(Sha::from_oid),
            changed: true,
        },
    })
}

/// The concurrency rule for one path: the client's version must be the head's.
fn check_expected(path: &RepoPath, expected: Option<&Sha>, current: Option<Oid>) -> Result<()> {
    let path = || path.as_str().to_owned();
    match (expected, current) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(Error::FileExists { path: path() }),
        (Some(_), None) => Err(Error::FileDeleted { path: path() }),
        (Some(sha), Some(blob)) if sha.to_oid() != blob => Err(Error::FileChanged { path: path() }),
        (Some(_), Some(_)) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(digit: char) -> Sha {
        Sha::parse(&digit.to_string().repeat(40)).unwrap()
    }

    #[test]
    fn the_client_version_must_be_the_heads() {
        let path = RepoPath::file("a.txt").unwrap();
        let blob = sha('1').to_oid();
        let cases: [(Option<Sha>, Option<Oid>, Option<&str>); 5] = [
            (None, None, None),
            (Some(sha('1')), Some(blob), None),
            (
                None,
                Some(blob),
                Some("A file named 'a.txt' already exists; reload the folder to see it"),
            ),
            (
                Some(sha('1')),
                None,
                Some("The file was deleted since you opened it; reload the folder to see the latest version"),
            ),
            (
                Some(sha('2')),
                Some(blob),
                Some("The file changed since you opened it; reload it to see the latest version"),
            ),
        ];
        for (expected, current, message) in cases {
            let result = check_expected(&path, expected.as_ref(), current);
            assert_eq!(
                result.err().map(|e| e.to_string()).as_deref(),
                message,
                "{expected:?} {current:?}"
            );
        }
    }
}
