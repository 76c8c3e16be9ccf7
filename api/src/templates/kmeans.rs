//! K-means clustering (spec 001 §9): k from 1 to 9, 10 iterations of Lloyd's algorithm over the
//! whole data (the batch is the data size), k-means++ seeding from a fixed seed so the same data
//! gives the same clusters. The work is linfa's, an iteration at a time, with the flag checked
//! between iterations.

use linfa::{DatasetBase, prelude::*};
use linfa_clustering::{KMeans, KMeansInit};
use ndarray::Array2;
use rand_xoshiro::{Xoshiro256Plus, rand_core::SeedableRng};

use super::{TemplateError, limits::Cancel};

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

/// The centroids moved less than this in an iteration (the Euclidean distance over all of them,
/// linfa's measure): they have settled.
const TOLERANCE: f64 = 1e-9;

/// How far the centroids moved from `a` to `b`.
fn moved(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

/// `values` holds the points one after another, `dims` values each. The iterations run one at a
/// time, each from the centroids the last one left, as linfa runs them in one fit (the same
/// centroids and inertia), so that the flag is checked between them. (The seeding's own centroids
/// are not given out: were they already settled, one more iteration confirms it.)
pub fn cluster(values: Vec<f64>, dims: usize, k: usize, cancel: &Cancel) -> Result<Clusters, TemplateError> {
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
    let failed = |e: linfa_clustering::KMeansError| TemplateError::Invalid(format!("k-means failed: {e}"));
    // The first iteration seeds with k-means++ from the fixed seed; the others go on from there.
    let mut init = KMeansInit::KMeansPlusPlus;
    let mut model = None;
    for _ in 0..ITERATIONS {
        cancel.check()?;
        let step = KMeans::params_with_rng(k, Xoshiro256Plus::seed_from_u64(SEED))
            .n_runs(1)
            .max_n_iterations(1)
            .tolerance(TOLERANCE)
            .init_method(init)
            .fit(&data)
            .map_err(failed)?;
        let moved = model.as_ref().map_or(f64::INFINITY, |last: &KMeans<f64, _>| {
            moved(last.centroids(), step.centroids())
        });
        init = KMeansInit::Precomputed(step.centroids().clone());
        model = Some(step);
        if moved < TOLERANCE {
            break;
        }
    }
    let model = model.ok_or_else(|| TemplateError::Invalid("k-means made no iteration".into()))?;
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
        let c = cluster(blobs(), 3, 3, &Cancel::new()).unwrap();
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
        assert!(cluster(blobs(), 3, 10, &Cancel::new()).is_err());
        assert!(cluster(blobs(), 3, 0, &Cancel::new()).is_err());
        assert!(cluster(vec![1.0, 2.0], 2, 2, &Cancel::new()).is_err());
    }

    /// 2,000 scattered points in 2D (a fixed pattern) that take several iterations to settle.
    fn scattered() -> Vec<f64> {
        (0..2000u32)
            .flat_map(|i| {
                let x = f64::from((i * 7919) % 1000) / 10.0;
                let y = f64::from((i * 104_729) % 997) / 10.0 + if i % 3 == 0 { 40.0 } else { 0.0 };
                [x, y]
            })
            .collect()
    }

    #[test]
    fn one_iteration_at_a_time_gives_linfas_one_fit() {
        for k in [2, 4, 7] {
            let ours = cluster(scattered(), 2, k, &Cancel::new()).unwrap();
            let data = DatasetBase::from(Array2::from_shape_vec((2000, 2), scattered()).unwrap());
            let theirs = KMeans::params_with_rng(k, Xoshiro256Plus::seed_from_u64(SEED))
                .n_runs(1)
                .max_n_iterations(ITERATIONS)
                .tolerance(TOLERANCE)
                .fit(&data)
                .unwrap();
            let centroids: Vec<Vec<f64>> = theirs
                .centroids()
                .rows()
                .into_iter()
                .map(|r| r.to_vec())
                .collect();
            assert_eq!(ours.centroids, centroids, "k = {k}");
            assert!(
                (ours.inertia - theirs.inertia() * 2000.0).abs() < 1e-6 * ours.inertia,
                "k = {k}"
            );
        }
    }

    #[test]
    fn a_set_flag_stops_the_iterations() {
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(matches!(
            cluster(scattered(), 2, 4, &cancel),
            Err(TemplateError::Cancelled)
        ));
    }
}
