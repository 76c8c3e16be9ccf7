//! The template apps' numerics on big inputs (dev/bench-templates.sh runs it beside scikit-learn
//! and statsmodels on the same files): k-means on ROWS × 3 (4 clusters, 10 iterations, one
//! k-means++ start) and the AutoETS forecast of POINTS points. Writes the data it made as CSV
//! into the folder given as its argument and prints one JSON line with its timings and results.
//! Timings cover the computation only; reading the CSV is timed apart.

use std::{fs::File, io::BufWriter, io::Write, time::Instant};

use ludis_api::templates::{forecast, kmeans, limits::Limits, table};
use rand_xoshiro::{
    Xoshiro256Plus,
    rand_core::{RngCore, SeedableRng},
};

/// A uniform number in [-0.5, 0.5).
fn noise(rng: &mut Xoshiro256Plus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).ok_or("usage: templates_bench <folder>")?;
    let rows: usize = std::env::var("ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let points: usize = std::env::var("POINTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let mut rng = Xoshiro256Plus::seed_from_u64(7);

    // Four groups in 3D, spread ±2 around their centres.
    let centres = [
        [0.0, 0.0, 0.0],
        [10.0, 10.0, 0.0],
        [0.0, 10.0, 10.0],
        [10.0, 0.0, 10.0],
    ];
    let blobs = format!("{dir}/blobs.csv");
    let mut w = BufWriter::new(File::create(&blobs)?);
    writeln!(w, "x,y,z")?;
    for i in 0..rows {
        let c = centres[i % 4];
        let p: Vec<f64> = c.iter().map(|v| v + 4.0 * noise(&mut rng)).collect();
        writeln!(w, "{:.6},{:.6},{:.6}", p[0], p[1], p[2])?;
    }
    w.flush()?;
    // A trend with noise.
    let series = format!("{dir}/series.csv");
    let mut w = BufWriter::new(File::create(&series)?);
    writeln!(w, "t,y")?;
    for t in 0..points {
        writeln!(w, "{t},{:.6}", 1000.0 + 0.05 * t as f64 + 20.0 * noise(&mut rng))?;
    }
    w.flush()?;

    // No bound on the rows and a flag nobody sets: the computations alone are measured.
    let limits = Limits::new(usize::MAX);
    let started = Instant::now();
    let (values, _) = table::numbers(File::open(&blobs)?, &["x", "y", "z"], &limits)?;
    let read_s = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let found = kmeans::cluster(values, 3, 4, &limits.cancel)?;
    let kmeans_s = started.elapsed().as_secs_f64();

    let (_, y): (Vec<String>, Vec<f64>) = table::keyed(File::open(&series)?, "t", "y", &limits)?
        .into_iter()
        .unzip();
    let started = Instant::now();
    let made = forecast::forecast(&y, 12, 3, &limits.cancel)?;
    let forecast_s = started.elapsed().as_secs_f64();

    let mut sizes = found.sizes.clone();
    sizes.sort_unstable();
    println!(
        "{}",
        serde_json::json!({
            "rows": rows, "read_s": read_s, "kmeans_s": kmeans_s, "inertia": found.inertia, "sizes": sizes,
            "points": points, "forecast_s": forecast_s, "model": made.model, "forecast": made.forecast,
        })
    );
    Ok(())
}
