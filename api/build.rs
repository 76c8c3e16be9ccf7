//! Rebuilds the API when a migration is added to `migrations/` (embedded by `sqlx::migrate!`,
//! which can only watch the files that already exist).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
