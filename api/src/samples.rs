//! Sample datasets (`seeds/datasets/`): small, made-up CSV and JSON files every organization gets
//! as read-only datasets — no owner, shared with the whole organization at view. Each sample is
//! given once per organization (recorded in `sample_seeds`), so one its administrators deleted
//! does not come back.

use anyhow::Context as _;

use crate::{
    assets, cluster,
    db::{
        self,
        assets::AssetRow,
        datasets::{self, Dataset, DatasetRow},
    },
    domain::{AssetKind, DeletionPolicy},
    state::AppState,
};

/// One seeded sample: its slug, name, description and files.
pub struct Sample {
    pub slug: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub files: &'static [(&'static str, &'static str, &'static str)],
}

pub const SAMPLES: [Sample; 2] = [
    Sample {
        slug: "retail-sales",
        name: "Retail sales (sample)",
        description: "Ten weeks of made-up unit sales of six products in four stores, and the stores.",
        files: &[
            (
                "README.txt",
                "text/plain",
                include_str!("../../seeds/datasets/retail-sales/README.txt"),
            ),
            (
                "sales.csv",
                "text/csv",
                include_str!("../../seeds/datasets/retail-sales/sales.csv"),
            ),
            (
                "stores.json",
                "application/json",
                include_str!("../../seeds/datasets/retail-sales/stores.json"),
            ),
        ],
    },
    Sample {
        slug: "city-weather",
        name: "City weather (sample)",
        description: "Ninety days of generated daily temperature, rain and wind for three cities.",
        files: &[
            (
                "README.txt",
                "text/plain",
                include_str!("../../seeds/datasets/city-weather/README.txt"),
            ),
            (
                "daily.csv",
                "text/csv",
                include_str!("../../seeds/datasets/city-weather/daily.csv"),
            ),
            (
                "stations.json",
                "application/json",
                include_str!("../../seeds/datasets/city-weather/stations.json"),
            ),
        ],
    },
];

/// Gives an organization the samples it was never given: copies the files into a new dataset's
/// folder, then writes its resource and rows. Returns how many were added. Needs object storage.
pub async fn ensure_for(state: &AppState, organization_id: &str) -> anyhow::Result<usize> {
    let Some(s3) = state.s3.as_ref().filter(|_| state.settings.sample_datasets) else {
        return Ok(0);
    };
    let given = datasets::seeded_samples(&state.db, organization_id).await?;
    let mut added = 0;
    for sample in SAMPLES.iter().filter(|s| !given.iter().any(|g| g == s.slug)) {
        // Claimed before it is made: of two API replicas (or a start and a new organization's
        // task) giving the same sample, one makes it. A claim whose sample could not be made is
        // let go, so that the next start tries again.
        if !datasets::record_sample_seed(&state.db, organization_id, sample.slug, db::now()).await? {
            continue;
        }
        if let Err(e) = give(state, s3, organization_id, sample).await {
            datasets::forget_sample_seed(&state.db, organization_id, sample.slug).await?;
            return Err(e);
        }
        added += 1;
    }
    Ok(added)
}

/// Makes one sample dataset of an organization: its files, resource and rows.
async fn give(
    state: &AppState,
    s3: &aws_sdk_s3::Client,
    organization_id: &str,
    sample: &Sample,
) -> anyhow::Result<()> {
    let id = db::new_id();
    let (bucket, prefix) = cluster::datasets::location(state, organization_id, &id).await?;
    ludis_storage::ensure_bucket(s3, &bucket).await?;
    let mut bytes = 0i64;
    for (name, content_type, body) in sample.files {
        ludis_storage::objects::put(
            s3,
            &bucket,
            &format!("{prefix}{name}"),
            body.as_bytes().to_vec(),
            content_type,
        )
        .await?;
        bytes += body.len() as i64;
    }
    let placement = cluster::datasets::placement(state, organization_id, &id, sample.name).await?;
    let has_resource = placement.is_some();
    let now = db::now();
    let dataset = Dataset {
        details: DatasetRow {
            // Each organization has its own copy: deleting it removes the copy.
            deletion_policy: DeletionPolicy::Delete,
            object_count: sample.files.len() as i64,
            bytes,
            sample: Some(sample.slug.into()),
            ..DatasetRow::new(id.clone(), (bucket, prefix), has_resource)
        },
        asset: AssetRow {
            description: sample.description.into(),
            ..AssetRow::new(
                AssetKind::Dataset,
                id,
                organization_id.to_owned(),
                sample.name.into(),
                now,
            )
        }
        .placed(placement),
    };
    assets::create(
        state,
        &dataset,
        db::details::insert_shared_with_organization(&state.db, &dataset, now),
    )
    .await
    .with_context(|| format!("failed to add the sample dataset {}", sample.slug))?;
    Ok(())
}

/// Gives a new organization its samples, in the background (failures are logged; the next start
/// retries).
pub fn spawn_for(state: &AppState, organization_id: &str) {
    let (state, id) = (state.clone(), organization_id.to_owned());
    tokio::spawn(async move {
        if let Err(e) = ensure_for(&state, &id).await {
            tracing::warn!(organization = %id, error = format!("{e:#}"), "failed to add the sample datasets");
        }
    });
}

/// Gives every organization its missing samples (at start, in the background); failures are
/// logged and retried at the next start.
pub async fn ensure_all(state: AppState) {
    if !state.settings.sample_datasets {
        return;
    }
    let orgs = match db::organizations::list(&state.db, None, i64::from(u32::MAX), 0).await {
        Ok((o, _)) => o,
        Err(e) => {
            tracing::warn!(error = %e, "failed to list organizations for the sample datasets");
            return;
        }
    };
    for org in orgs {
        match ensure_for(&state, &org.id).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(organization = %org.id, added = n, "sample datasets added"),
            Err(e) => {
                tracing::warn!(organization = %org.id, error = format!("{e:#}"), "failed to add the sample datasets")
            }
        }
    }
}
