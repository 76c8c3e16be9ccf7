//! K-means clustering (spec 001 §9): k from 1 to 9, 10 iterations of Lloyd's algorithm over the
//! whole data (the batch is the data size), k-means++ seeding from a fixed seed so the same data
//! gives the same clusters. The work is linfa's.

use linfa::{DatasetBase, prelude::*};
use linfa_clustering::KMeans;
use ndarray::Array2;
use rand_xoshiro::{Xoshiro256Plus, rand_core::SeedableRng};

use super::TemplateError;

/// The clusters the templates may ask for.
pub const CLUSTERS: std::ops::RangeInclusive<usize> = 1..=9;
pub const ITERATIONS: u64 = 10;
const SEED: u64 = 42;

#[derive(Debug)]
pub struct Clusters {
    /// One a cluster, `dims` values each.
    pub centroids: Vec<Vec<f64>>,
    /// Points in each cluster.
    pub sizes: Vec<usize>,
    /// The cluster of each point, in the points' order.
    pub labels: Vec<usize>,
    /// The sum of squared distances of the points to their centroid.
    pub inertia: f64,
}

/// Refuses a number of clusters outside [`CLUSTERS`] (before any data is read).
pub fn check_clusters(k: usize) -> Result<(), TemplateError> {
    if CLUSTERS.contains(&k) {
        return Ok(());
    }
    Err(TemplateError::Invalid(format!(
        "The number of clusters is from {} to {}",
        CLUSTERS.start(),
        CLUSTERS.end()
    )))
}

/// `values` holds the points one after another, `dims` values each.
pub fn cluster(values: Vec<f64>, dims: usize, k: usize) -> Result<Clusters, TemplateError> {
    check_clusters(k)?;
    let points = values.len() / dims.max(1);
    if points < k {
        return Err(TemplateError::Invalid(format!(
            "{k} clusters need at least {k} rows with numbers; the data has {points}"
        )));
    }
    let records =
        Array2::from_shape_vec((points, dims), values).map_err(|e| TemplateError::Invalid(e.to_string()))?;
    let data = DatasetBase::from(records);
    let model = KMeans::params_with_rng(k, Xoshiro256Plus::seed_from_u64(SEED))
        .n_runs(1)
        .max_n_iterations(ITERATIONS)
        .tolerance(1e-9)
        .fit(&data)
        .map_err(|e| TemplateError::Invalid(format!("k-means failed: {e}")))?;
    let labels = model.predict(data.records()).to_vec();
    let mut sizes = vec![0; k];
    for &l in &labels {
        sizes[l] += 1;
    }
    Ok(Clusters {
        centroids: model.centroids().rows().into_iter().map(|r| r.to_vec()).collect(),
        sizes,
        labels,
        // linfa's is the mean over the points; the sum is the usual figure (scikit-learn's).
        inertia: model.inertia() * points as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three tight, far-apart groups of 50 points in 3D.
    fn blobs() -> Vec<f64> {
        let centres = [[0.0, 0.0, 0.0], [10.0, 10.0, 0.0], [0.0, 10.0, 10.0]];
        let mut v = Vec::new();
        for c in centres {
            for i in 0..50 {
                let d = (f64::from(i) / 50.0 - 0.5) * 0.4;
                v.extend([c[0] + d, c[1] - d, c[2] + d * 0.5]);
            }
        }
        v
    }

    #[test]
    fn separable_clusters_are_found_whole() {
        let c = cluster(blobs(), 3, 3).unwrap();
        assert_eq!(c.sizes, [50, 50, 50]);
        // Every group of 50 got one label, and the three labels differ.
        let groups: Vec<usize> = c
            .labels
            .chunks(50)
            .map(|g| {
                assert!(g.iter().all(|l| *l == g[0]));
                g[0]
            })
            .collect();
        assert_eq!(groups.iter().collect::<std::collections::HashSet<_>>().len(), 3);
        // The centroids are the groups' centres.
        let mut found: Vec<Vec<i64>> = c
            .centroids
            .iter()
            .map(|p| p.iter().map(|x| x.round() as i64).collect())
            .collect();
        found.sort();
        assert_eq!(found, [[0, 0, 0], [0, 10, 10], [10, 10, 0]]);
        // The sum (not the mean) over the 150 points of their squared distance to their group's
        // mean: a point is d·(1, −1, ½) from its centre, so 2.25·Σ(d − d̄)² a group.
        let d: Vec<f64> = (0..50).map(|i| (f64::from(i) / 50.0 - 0.5) * 0.4).collect();
        let mean = d.iter().sum::<f64>() / 50.0;
        let expected = 3.0 * 2.25 * d.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
        assert!(
            (c.inertia - expected).abs() < 1e-9 * expected,
            "{} against {expected}",
            c.inertia
        );
    }

    #[test]
    fn the_cluster_count_is_bounded_by_the_spec_and_the_data() {
        assert!(cluster(blobs(), 3, 10).is_err());
        assert!(cluster(blobs(), 3, 0).is_err());
        assert!(cluster(vec![1.0, 2.0], 2, 2).is_err());
    }
}
