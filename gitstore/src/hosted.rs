//! Repositories Ludis hosts itself: bare repositories at `<root>/<namespace>/<project>.git`,
//! created with a first commit on `main` (a README and a starter script for the project's
//! language), changed by compare-and-swap on the branch reference, served to git clients by
//! [`crate::server`]. Blocking (git2): the store calls these inside `spawn_blocking`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use git2::{ErrorCode, FileMode, Repository, RepositoryInitOptions, Signature, build::TreeUpdateBuilder};
use uuid::Uuid;

use crate::change::{Change, Committed, Planned, plan};
use crate::error::{Error, Result};
use crate::input::{Author, BranchName, RepoId, Sha};
use crate::tree;

/// How often a change is planned again because the branch moved underneath it. Each time means
/// another change landed, so N concurrent writers all succeed within N attempts; beyond this the
/// caller gets [`Error::Busy`].
pub(crate) const MAX_ATTEMPTS: u32 = 16;

/// How long a change waits in total for another writer's lock on the branch reference (git
/// waits 100 ms by default, `core.filesRefLockTimeout`; a push's update can take longer).
const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// The language of a new project, which picks its starter script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `main.py`.
    Python,
    /// `main.R`.
    R,
}

impl Language {
    fn starter(self) -> (&'static str, &'static str) {
        match self {
            Language::Python => ("main.py", STARTER_PYTHON),
            Language::R => ("main.R", STARTER_R),
        }
    }
}

/// What a new hosted repository starts with.
#[derive(Debug, Clone)]
pub struct NewRepository {
    /// The project's name, the README's title.
    pub name: String,
    pub language: Language,
    /// Who makes the first commit (the user creating the project).
    pub author: Author,
}

const STARTER_PYTHON: &str = r#""""Starter script: run it from the workspace toolbar, then make it yours."""


def main() -> None:
    print("Hello from Ludis")


if __name__ == "__main__":
    main()
"#;

const STARTER_R: &str = r#"# Starter script: run it from the workspace toolbar, then make it yours.

main <- function() {
  cat("Hello from Ludis\n")
}

main()
"#;

fn readme(name: &str, starter: &str) -> String {
    let title: String = name.chars().filter(|c| !c.is_control()).collect();
    let title = if title.trim().is_empty() {
        "Project"
    } else {
        title.trim()
    };
    format!(
        "# {title}\n\nThis project's code lives in this repository. Open it in the Ludis workspace, edit \
         `{starter}`, commit, and run it.\n"
    )
}

/// Where a hosted repository lives: made only of the checked namespace and project id.
pub(crate) fn path(root: &Path, id: &RepoId) -> PathBuf {
    root.join(id.relative_path())
}

/// Opens a hosted repository; [`Error::RepositoryNotFound`] when there is none.
pub(crate) fn open(root: &Path, id: &RepoId) -> Result<Repository> {
    let path = path(root, id);
    if !path.is_dir() {
        return Err(Error::RepositoryNotFound);
    }
    Repository::open_bare(&path).map_err(Error::git("open the repository"))
}

/// Creates the repository in a hidden folder beside its final place and renames it there, so a
/// half-made repository is never served; an existing one is never touched.
pub(crate) fn create(root: &Path, id: &RepoId, new: &NewRepository) -> Result<Sha> {
    let target = path(root, id);
    let parent = target.parent().ok_or(Error::RepositoryNotFound)?;
    std::fs::create_dir_all(parent).map_err(Error::io("create the namespace folder"))?;
    if target.exists() {
        return Err(Error::RepositoryExists);
    }
    let staging = parent.join(format!(".creating-{}-{}", id.project(), Uuid::new_v4()));
    let result = initialise(&staging, new).and_then(|head| {
        std::fs::rename(&staging, &target).map_err(|error| match error.kind() {
            std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::DirectoryNotEmpty => {
                Error::RepositoryExists
            }
            _ => Error::io("move the new repository into place")(error),
        })?;
        Ok(head)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

fn initialise(path: &Path, new: &NewRepository) -> Result<Sha> {
    let repo = Repository::init_opts(
        path,
        RepositoryInitOptions::new()
            .bare(true)
            .no_reinit(true)
            .mkpath(false)
            .initial_head("main"),
    )
    .map_err(Error::git("create the repository"))?;
    // Pushes may add history but never rewrite or delete it: nobody's commit is lost.
    let mut config = repo
        .config()
        .map_err(Error::git("open the repository's settings"))?;
    config
        .set_bool("receive.denyNonFastForwards", true)
        .and_then(|()| config.set_bool("receive.denyDeletes", true))
        .map_err(Error::git("write the repository's settings"))?;

    let (starter_name, starter) = new.language.starter();
    let readme = repo
        .blob(readme(&new.name, starter_name).as_bytes())
        .map_err(Error::git("write the README"))?;
    let script = repo
        .blob(starter.as_bytes())
        .map_err(Error::git("write the starter script"))?;
    let empty = repo
        .treebuilder(None)
        .and_then(|builder| builder.write())
        .and_then(|id| repo.find_tree(id))
        .map_err(Error::git("write the empty tree"))?;
    let tree_id = TreeUpdateBuilder::new()
        .upsert("README.md", readme, FileMode::Blob)
        .upsert(starter_name, script, FileMode::Blob)
        .create_updated(&repo, &empty)
        .map_err(Error::git("write the first tree"))?;
    let tree = repo
        .find_tree(tree_id)
        .map_err(Error::git("read the first tree"))?;
    let signature =
        Signature::now(new.author.name(), new.author.email()).map_err(Error::git("sign the first commit"))?;
    let commit = repo
        .commit(
            Some(&BranchName::main().reference()),
            &signature,
            &signature,
            "Create project\n",
            &tree,
            &[],
        )
        .map_err(Error::git("write the first commit"))?;
    Ok(Sha::from_oid(commit))
}

/// Deletes a hosted repository: renamed aside first (so it stops being served at once), then
/// removed.
pub(crate) fn delete(root: &Path, id: &RepoId) -> Result<()> {
    let target = path(root, id);
    if !target.is_dir() {
        return Err(Error::RepositoryNotFound);
    }
    let parent = target.parent().ok_or(Error::RepositoryNotFound)?;
    let doomed = parent.join(format!(".deleting-{}-{}", id.project(), Uuid::new_v4()));
    std::fs::rename(&target, &doomed).map_err(Error::io("move the repository aside"))?;
    std::fs::remove_dir_all(&doomed).map_err(Error::io("delete the repository"))
}

/// Applies one change to a branch of a local repository: plan on the current head, then move the
/// branch only if it still points at that head; otherwise plan again on the new head.
pub(crate) fn apply(repo: &Repository, branch: &BranchName, change: &Change) -> Result<Committed> {
    let reference = branch.reference();
    let log_message = format!("ludis: change {}", change.path().as_str());
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    let mut moved_meanwhile = 0;
    loop {
        let head = tree::head(repo, &reference)?;
        let (id, outcome) = match plan(repo, head.as_ref(), change)? {
            Planned::Unchanged(outcome) => return Ok(outcome),
            Planned::Commit { id, outcome } => (id, outcome),
        };
        let moved = match &head {
            Some(current) => repo.reference_matching(&reference, id, true, current.id(), &log_message),
            None => repo.reference(&reference, id, false, &log_message),
        };
        match moved {
            Ok(_) => return Ok(outcome),
            Err(error) if matches!(error.code(), ErrorCode::Modified | ErrorCode::Exists) => {
                moved_meanwhile += 1;
                if moved_meanwhile >= MAX_ATTEMPTS {
                    return Err(Error::Busy);
                }
            }
            // Another writer (a push, another change) holds the reference's lock file for a
            // moment: back off briefly, as git does.
            Err(error) if error.code() == ErrorCode::Locked => {
                if started.elapsed() > LOCK_TIMEOUT {
                    return Err(Error::Busy);
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(error) => return Err(Error::git("move the branch")(error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_names_the_project_without_control_characters() {
        assert_eq!(
            readme("Sales\n# injected", "main.py"),
            "# Sales# injected\n\nThis project's code lives in this repository. Open it in the Ludis \
             workspace, edit `main.py`, commit, and run it.\n"
        );
        assert!(readme("  ", "main.R").starts_with("# Project\n"));
    }

    #[test]
    fn each_language_has_its_starter() {
        assert_eq!(Language::Python.starter().0, "main.py");
        assert_eq!(Language::R.starter().0, "main.R");
        assert!(Language::R.starter().1.contains("cat(\"Hello from Ludis\\n\")"));
    }
}
