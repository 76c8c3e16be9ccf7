//! Reading a branch head's tree: a folder's entries and a file's bytes. Blocking (git2): the
//! store calls these inside `spawn_blocking`.

use std::path::Path;

use git2::{Commit, ErrorCode, ObjectType, Oid, Repository, Tree, TreeEntry};

use crate::error::{Error, Result};
use crate::input::Sha;
use crate::paths::RepoPath;
use crate::{MAX_FILE_BYTES, MAX_LISTED_ENTRIES};

/// What a folder entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A blob: a file, an executable or a symbolic link (whose content is its target).
    File,
    /// A tree.
    Folder,
    /// A commit of another repository (a submodule); it cannot be opened here.
    Submodule,
}

/// One entry of a folder listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// From the repository's root, as [`RepoPath`] names it.
    pub path: String,
    pub kind: EntryKind,
    /// The blob's, tree's or submodule commit's object id.
    pub sha: Sha,
    /// A file's size in bytes; 0 for folders and submodules.
    pub size: u64,
}

/// A folder's entries in git's order (by name, byte-wise). At most [`MAX_LISTED_ENTRIES`];
/// `total` is the real count, so a caller can say that the listing is cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub path: String,
    pub entries: Vec<Entry>,
    pub total: usize,
}

impl Listing {
    pub fn is_truncated(&self) -> bool {
        self.total > self.entries.len()
    }
}

/// A file at the branch head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    pub path: String,
    /// The blob's object id: what a client sends back to commit on top of this version.
    pub sha: Sha,
    pub size: u64,
    pub bytes: Vec<u8>,
}

/// What a path names at the branch head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contents {
    Folder(Listing),
    File(File),
}

/// The commit a branch reference points at; `None` while the branch has no commits.
pub(crate) fn head<'r>(repo: &'r Repository, reference: &str) -> Result<Option<Commit<'r>>> {
    match repo.find_reference(reference) {
        Ok(found) => found
            .peel_to_commit()
            .map(Some)
            .map_err(Error::git("read the branch head")),
        Err(error) if error.code() == ErrorCode::NotFound => Ok(None),
        Err(error) => Err(Error::git("read the branch head")(error)),
    }
}

/// The entry at `path` in `tree`; `None` when nothing is there. The root is not an entry.
pub(crate) fn entry<'t>(tree: &Tree<'t>, path: &RepoPath) -> Result<Option<TreeEntry<'static>>> {
    match tree.get_path(Path::new(path.as_str())) {
        Ok(found) => Ok(Some(found)),
        Err(error) if error.code() == ErrorCode::NotFound => Ok(None),
        Err(error) => Err(Error::git("look up a path")(error)),
    }
}

/// A folder listing or a file, whichever `path` names.
pub(crate) fn contents(repo: &Repository, head: Option<&Commit<'_>>, path: &RepoPath) -> Result<Contents> {
    let Some(tree) = head_tree(head)? else {
        return empty_repository(path).map(Contents::Folder);
    };
    if path.is_root() {
        return list_tree(repo, &tree, path).map(Contents::Folder);
    }
    let found = entry(&tree, path)?.ok_or_else(|| not_found(path))?;
    match found.kind() {
        Some(ObjectType::Tree) => {
            let folder = repo.find_tree(found.id()).map_err(Error::git("read a folder"))?;
            list_tree(repo, &folder, path).map(Contents::Folder)
        }
        Some(ObjectType::Blob) => read_blob(repo, found.id(), path).map(Contents::File),
        _ => Err(Error::IsAFolder {
            path: path.as_str().to_owned(),
        }),
    }
}

/// The folder at `path`.
pub(crate) fn list(repo: &Repository, head: Option<&Commit<'_>>, path: &RepoPath) -> Result<Listing> {
    match contents(repo, head, path)? {
        Contents::Folder(listing) => Ok(listing),
        Contents::File(_) => Err(Error::IsAFile {
            path: path.as_str().to_owned(),
        }),
    }
}

/// The file at `path`.
pub(crate) fn read(repo: &Repository, head: Option<&Commit<'_>>, path: &RepoPath) -> Result<File> {
    let tree = head_tree(head)?.ok_or_else(|| not_found(path))?;
    if path.is_root() {
        return Err(Error::IsAFolder { path: String::new() });
    }
    let found = entry(&tree, path)?.ok_or_else(|| not_found(path))?;
    match found.kind() {
        Some(ObjectType::Blob) => read_blob(repo, found.id(), path),
        _ => Err(Error::IsAFolder {
            path: path.as_str().to_owned(),
        }),
    }
}

fn head_tree<'r>(head: Option<&Commit<'r>>) -> Result<Option<Tree<'r>>> {
    head.map(|commit| commit.tree().map_err(Error::git("read the head's tree")))
        .transpose()
}

/// A repository without commits has an empty root and nothing else.
fn empty_repository(path: &RepoPath) -> Result<Listing> {
    if path.is_root() {
        Ok(Listing {
            path: String::new(),
            entries: Vec::new(),
            total: 0,
        })
    } else {
        Err(not_found(path))
    }
}

fn not_found(path: &RepoPath) -> Error {
    Error::NotFound {
        path: path.as_str().to_owned(),
    }
}

fn list_tree(repo: &Repository, tree: &Tree<'_>, path: &RepoPath) -> Result<Listing> {
    let odb = repo.odb().map_err(Error::git("open the object database"))?;
    let mut entries = Vec::with_capacity(tree.len().min(MAX_LISTED_ENTRIES));
    for item in tree.iter().take(MAX_LISTED_ENTRIES) {
        let name = String::from_utf8_lossy(item.name_bytes()).into_owned();
        let (kind, size) = match item.kind() {
            Some(ObjectType::Tree) => (EntryKind::Folder, 0),
            Some(ObjectType::Blob) => {
                let (size, _) = odb
                    .read_header(item.id())
                    .map_err(Error::git("read a file's size"))?;
                (EntryKind::File, size as u64)
            }
            _ => (EntryKind::Submodule, 0),
        };
        entries.push(Entry {
            path: path.child(&name),
            name,
            kind,
            sha: Sha::from_oid(item.id()),
            size,
        });
    }
    Ok(Listing {
        path: path.as_str().to_owned(),
        entries,
        total: tree.len(),
    })
}

fn read_blob(repo: &Repository, id: Oid, path: &RepoPath) -> Result<File> {
    let odb = repo.odb().map_err(Error::git("open the object database"))?;
    let (size, _) = odb.read_header(id).map_err(Error::git("read a file's size"))?;
    let size = size as u64;
    if size > MAX_FILE_BYTES {
        return Err(Error::FileTooLarge {
            path: path.as_str().to_owned(),
            limit_mib: MAX_FILE_BYTES >> 20,
        });
    }
    let blob = repo.find_blob(id).map_err(Error::git("read a file"))?;
    Ok(File {
        path: path.as_str().to_owned(),
        sha: Sha::from_oid(id),
        size,
        bytes: blob.content().to_vec(),
    })
}
