//! `repocontents` on a 10,000-file repository: listing a folder through the crate (what the API's
//! `POST /v2/projects/repocontents` does) against `git ls-tree -l` on the same repository, p50
//! and p99 of each and their ratio. Target: p99 ≤ 50 ms for a folder through the crate.
//!
//! `cargo run -p ludis-git --release --example repocontents_bench [-- <rounds>]`
//!
//! The repository is a hosted one made by the crate, then given 10,000 files with the git
//! command line: `data/` with 1,000 files and `src/module_00` … `src/module_89` with 100 each.
//! Rounds alternate the two ways (crate, then git) so both see the same machine load.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ludis_git::{Author, GitStore, Language, NewRepository, ProjectRepo, RepoId, RepoPath, StoreConfig};
use uuid::Uuid;

const FOLDERS: [&str; 4] = ["", "src", "src/module_42", "data"];

#[tokio::main]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(300);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = GitStore::new(StoreConfig::under(dir.path()));
    let id = RepoId::new("ludis-bench", Uuid::new_v4()).expect("a repository id");
    let author = Author::new("Bench", "bench@example.org").expect("an author");
    let new = NewRepository {
        name: "Bench".into(),
        language: Language::Python,
        author,
    };
    store.create_hosted(&id, new).await.expect("a hosted repository");
    let bare = store
        .config()
        .hosted_root
        .join(id.namespace())
        .join(format!("{}.git", id.project()));
    let started = Instant::now();
    fill(dir.path(), &bare);
    println!(
        "repository: 10,000 files pushed in {:.1} s; {rounds} rounds per folder\n",
        started.elapsed().as_secs_f64()
    );

    let repo = ProjectRepo::hosted(id);
    println!(
        "{:<16} {:>8} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "folder", "entries", "crate p50", "crate p99", "ls-tree p50", "ls-tree p99", "p99 ×"
    );
    let mut worst = Duration::ZERO;
    for folder in FOLDERS {
        let path = RepoPath::parse(folder).expect("a folder path");
        let entries = store.list(&repo, &path).await.expect("a listing").entries.len();
        let (mut through_crate, mut through_git) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
        for _ in 0..rounds {
            let start = Instant::now();
            let listing = store.list(&repo, &path).await.expect("a listing");
            through_crate.push(start.elapsed());
            assert_eq!(listing.entries.len(), entries);

            let start = Instant::now();
            let output = Command::new("git")
                .args([
                    "--git-dir",
                    bare.to_str().expect("a UTF-8 path"),
                    "ls-tree",
                    "-l",
                    &format!("main:{folder}"),
                ])
                .output()
                .expect("git ls-tree");
            through_git.push(start.elapsed());
            assert!(output.status.success());
            assert_eq!(output.stdout.iter().filter(|b| **b == b'\n').count(), entries);
        }
        let (crate_p50, crate_p99) = percentiles(&mut through_crate);
        let (git_p50, git_p99) = percentiles(&mut through_git);
        worst = worst.max(crate_p99);
        println!(
            "{:<16} {entries:>8} {:>12} {:>12} {:>12} {:>12} {:>8.2}",
            if folder.is_empty() { "/" } else { folder },
            ms(crate_p50),
            ms(crate_p99),
            ms(git_p50),
            ms(git_p99),
            crate_p99.as_secs_f64() / git_p99.as_secs_f64(),
        );
    }
    let verdict = if worst <= Duration::from_millis(50) {
        "met"
    } else {
        "MISSED"
    };
    println!("\nworst crate p99 {} (target ≤ 50 ms: {verdict})", ms(worst));
}

/// Clones the bare repository, adds the 10,000 files in one commit and pushes them back.
fn fill(dir: &Path, bare: &Path) {
    let work = dir.join("work");
    git(
        dir,
        &["clone", "-q", bare.to_str().expect("a UTF-8 path"), "work"],
    );
    for n in 0..1000 {
        write(
            &work.join("data").join(format!("part-{n:04}.csv")),
            &format!("id,value\n{n},{}\n", n * 7),
        );
    }
    for module in 0..90 {
        for n in 0..100 {
            let file = work
                .join("src")
                .join(format!("module_{module:02}"))
                .join(format!("step_{n:03}.py"));
            write(&file, &format!("def step_{n}():\n    return {module} * {n}\n"));
        }
    }
    git(&work, &["add", "."]);
    git(
        &work,
        &[
            "-c",
            "user.name=Bench",
            "-c",
            "user.email=bench@example.org",
            "commit",
            "-q",
            "-m",
            "10,000 files",
        ],
    );
    git(&work, &["push", "-q", "origin", "HEAD:main"]);
}

fn write(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent folder")).expect("a folder");
    std::fs::write(path, content).expect("a file");
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?} failed");
}

fn percentiles(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q).ceil() as usize).saturating_sub(1)];
    (at(0.50), at(0.99))
}

fn ms(duration: Duration) -> String {
    format!("{:.2} ms", duration.as_secs_f64() * 1000.0)
}
