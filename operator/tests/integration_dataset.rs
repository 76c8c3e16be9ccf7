//! The Dataset controller against the local control plane and the real S3 server: the prefix,
//! object counts, and the finalizer honouring the deletion policy.

use aws_sdk_s3::primitives::ByteStream;
use k8s_openapi::api::core::v1::Namespace;
use kube::{
    Api,
    api::{DeleteParams, Patch, PatchParams, PostParams},
};
use ludis_crds::{Dataset, DatasetSpec};
use serde_json::json;

use common::{
    TestNamespace, client, condition, eventually,
    node::{keys, s3},
    start_operator,
};

mod common;

/// A namespace whose organization bucket is a fresh one.
async fn namespace_with_bucket(client: &kube::Client, prefix: &str) -> (TestNamespace, String) {
    let ns = TestNamespace::new(client, prefix).await;
    let bucket = ns.name.clone();
    let patch = json!({"metadata": {"annotations": {"ludis.dev/bucket": bucket}}});
    Api::<Namespace>::all(client.clone())
        .patch(&ns.name, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    (ns, bucket)
}

fn dataset(name: &str, id: &str, policy: &str) -> Dataset {
    let spec: DatasetSpec =
        serde_json::from_value(json!({"displayName": name, "deletionPolicy": policy})).unwrap();
    let mut d = Dataset::new(name, spec);
    d.metadata.labels = Some([("ludis.dev/id".to_owned(), id.to_owned())].into());
    d
}

async fn wait_counts(api: &Api<Dataset>, name: &str, objects: i64, bytes: i64) -> Dataset {
    eventually(&format!("dataset {name} to count {objects} objects"), || async {
        // Any change makes the controller look again; the annotation forces a fresh count.
        let bump = json!({"metadata": {"annotations": {"test/refresh": format!("{:?}", std::time::Instant::now())}}});
        api.patch(name, &PatchParams::default(), &Patch::Merge(&bump)).await.ok()?;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let d = api.get(name).await.ok()?;
        let s = d.status.as_ref()?;
        (s.object_count == Some(objects) && s.bytes == Some(bytes)).then_some(d)
    })
    .await
}

#[tokio::test]
async fn a_dataset_counts_its_objects_and_delete_policy_empties_the_prefix() {
    start_operator().await;
    let client = client().await;
    let (ns, bucket) = namespace_with_bucket(&client, "it-ds-del").await;
    let s3 = s3();
    let api: Api<Dataset> = Api::namespaced(client.clone(), &ns.name);
    api.create(&PostParams::default(), &dataset("sales", "ds-sales", "Delete"))
        .await
        .unwrap();

    let d = eventually("the dataset to be Available", || async {
        let d = api.get("sales").await.ok()?;
        (condition(&serde_json::to_value(&d.status).ok()?, "Ready")? == ("True".into(), "Available".into()))
            .then_some(d)
    })
    .await;
    let status = d.status.unwrap();
    assert_eq!(status.bucket.as_deref(), Some(bucket.as_str()));
    let prefix = format!("datasets/{}/ds-sales/", ns.name);
    assert_eq!(status.prefix.as_deref(), Some(prefix.as_str()));
    assert_eq!((status.object_count, status.bytes), (Some(0), Some(0)));
    assert_eq!(d.metadata.finalizers.unwrap(), ["datasets.ludis.dev/cleanup"]);

    for (key, body) in [("a.csv", "x,y\n"), ("dir/b.json", "{}")] {
        s3.put_object()
            .bucket(&bucket)
            .key(format!("{prefix}{key}"))
            .body(ByteStream::from_static(body.as_bytes()))
            .send()
            .await
            .unwrap();
    }
    // A neighbour outside the prefix — the same id in another organization's namespace — must
    // not be counted, nor deleted.
    s3.put_object()
        .bucket(&bucket)
        .key("datasets/ludis-other/ds-sales/keep.txt")
        .body(ByteStream::from_static(b"k"))
        .send()
        .await
        .unwrap();
    wait_counts(&api, "sales", 2, 6).await;

    api.delete("sales", &DeleteParams::default()).await.unwrap();
    eventually("the dataset to be gone", || async {
        matches!(api.get_opt("sales").await, Ok(None)).then_some(())
    })
    .await;
    assert!(
        keys(&s3, &bucket, &prefix).await.is_empty(),
        "the prefix is empty"
    );
    assert_eq!(
        keys(&s3, &bucket, "datasets/ludis-other/").await,
        ["datasets/ludis-other/ds-sales/keep.txt"]
    );
}

#[tokio::test]
async fn retain_keeps_the_objects() {
    start_operator().await;
    let client = client().await;
    let (ns, bucket) = namespace_with_bucket(&client, "it-ds-keep").await;
    let s3 = s3();
    let api: Api<Dataset> = Api::namespaced(client.clone(), &ns.name);
    api.create(&PostParams::default(), &dataset("logs", "ds-logs", "Retain"))
        .await
        .unwrap();
    eventually("the dataset to have its prefix", || async {
        api.get("logs").await.ok()?.status?.prefix.map(|_| ())
    })
    .await;
    s3.put_object()
        .bucket(&bucket)
        .key(format!("datasets/{}/ds-logs/day1.txt", ns.name))
        .body(ByteStream::from_static(b"x"))
        .send()
        .await
        .unwrap();
    api.delete("logs", &DeleteParams::default()).await.unwrap();
    eventually("the dataset to be gone", || async {
        matches!(api.get_opt("logs").await, Ok(None)).then_some(())
    })
    .await;
    assert!(
        keys(&s3, &bucket, &format!("datasets/{}/ds-logs/", ns.name))
            .await
            .contains(&format!("datasets/{}/ds-logs/day1.txt", ns.name))
    );
}

#[tokio::test]
async fn a_preview_gets_its_datasets_locations_and_a_missing_one_is_explained() {
    use k8s_openapi::api::core::v1::Pod;
    use ludis_crds::{Project, ProjectSpec};
    start_operator().await;
    let client = client().await;
    let (ns, bucket) = namespace_with_bucket(&client, "it-ds-ref").await;
    let datasets: Api<Dataset> = Api::namespaced(client.clone(), &ns.name);
    let projects: Api<Project> = Api::namespaced(client.clone(), &ns.name);
    let spec: ProjectSpec =
        serde_json::from_value(json!({"displayName": "Uses data", "image": "default-python",
        "datasets": [{"name": "sales-2024"}], "preview": {"running": true}}))
        .unwrap();
    projects
        .create(&PostParams::default(), &Project::new("uses", spec))
        .await
        .unwrap();
    // The dataset does not exist yet: the project says so and runs nothing.
    eventually("the project to miss its dataset", || async {
        let p = projects.get("uses").await.ok()?;
        let status = serde_json::to_value(&p.status).ok()?;
        (condition(&status, "Degraded")? == ("True".into(), "DatasetNotFound".into())).then_some(())
    })
    .await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns.name);
    assert!(pods.list(&Default::default()).await.unwrap().items.is_empty());

    // Once it exists, the project is looked at again by itself and the preview has its location.
    datasets
        .create(
            &PostParams::default(),
            &dataset("sales-2024", "ds-ref-1", "Delete"),
        )
        .await
        .unwrap();
    let pod = eventually("the preview pod", || async {
        pods.list(&Default::default())
            .await
            .ok()?
            .items
            .into_iter()
            .next()
    })
    .await;
    let spec = pod.spec.clone().unwrap();
    let main = &spec.containers[0];
    let location = main
        .env
        .as_ref()
        .unwrap()
        .iter()
        .find(|e| e.name == "LUDIS_DATASET_SALES_2024")
        .and_then(|e| e.value.clone());
    assert_eq!(
        location,
        Some(format!("s3://{bucket}/datasets/{}/ds-ref-1/", ns.name))
    );
    // Reached with the pod's own identity, never a key.
    assert!(main.env_from.is_none(), "no Secret: {:?}", main.env_from);
    let token_file = main
        .env
        .as_ref()
        .unwrap()
        .iter()
        .find(|e| e.name == "AWS_WEB_IDENTITY_TOKEN_FILE")
        .and_then(|e| e.value.clone());
    assert_eq!(
        token_file.as_deref(),
        Some("/var/run/secrets/ludis.dev/storage/token")
    );
    assert_eq!(
        pod.metadata.annotations.unwrap_or_default()[ludis_crds::ANNOTATION_DATASETS],
        "sales-2024"
    );
}
