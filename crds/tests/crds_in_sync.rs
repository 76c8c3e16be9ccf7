//! The committed CRD YAML must be exactly what the Rust types generate.

use std::path::PathBuf;

#[test]
fn committed_crd_yaml_matches_the_types() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../charts/ludis/files/crds");
    let mut expected_files = Vec::new();
    for crd in ludis_crds::all_crds() {
        let name = crd.metadata.name.clone().unwrap();
        let path = dir.join(format!("{name}.yaml"));
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == ludis_crds::crd_yaml(&crd),
            "{} is out of date with crds/src: run `cargo run -p ludis-crds --bin crdgen` and commit the result",
            path.display()
        );
        expected_files.push(format!("{name}.yaml"));
    }
    let mut present: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    present.sort();
    expected_files.sort();
    assert_eq!(present, expected_files, "stale CRD files in {}", dir.display());
}
