//! Writes the CRD YAML of every Ludis kind into `charts/ludis/files/crds/` (or the folder given
//! as the first argument): `cargo run -p ludis-crds --bin crdgen`.

use std::path::PathBuf;

use anyhow::Context as _;

fn main() -> anyhow::Result<()> {
    let dir = match std::env::args().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../charts/ludis/files/crds"),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("failed to create {}", dir.display()))?;
    for crd in ludis_crds::all_crds() {
        let name = crd.metadata.name.clone().context("a CRD has a name")?;
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, ludis_crds::crd_yaml(&crd))
            .with_context(|| format!("failed to write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
