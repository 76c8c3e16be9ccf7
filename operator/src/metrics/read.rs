//! Reading the operator's `/metrics` text back (the benchmark and the tests): counters summed
//! over label sets, and histograms as cumulative buckets whose difference between two scrapes
//! gives the quantiles of what happened in between, as Prometheus' `histogram_quantile` does.
//!
//! It reads the OpenMetrics text [`super::Metrics::render`] writes: `name{k="v",…} value` lines,
//! label values without commas or quotes.

/// One sample line: its name, labels and value.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub name: String,
    pub labels: Vec<(String, String)>,
    pub value: f64,
}

impl Sample {
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Every sample of `text` (comments and lines that do not parse are skipped).
pub fn parse(text: &str) -> Vec<Sample> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let (series, value) = line.rsplit_once(' ')?;
            let value = value.parse().ok()?;
            let (name, labels) = match series.split_once('{') {
                Some((name, rest)) => (name, rest.strip_suffix('}')?),
                None => (series, ""),
            };
            let labels = labels
                .split(',')
                .filter(|p| !p.is_empty())
                .filter_map(|pair| {
                    let (k, v) = pair.split_once('=')?;
                    Some((k.to_owned(), v.trim_matches('"').to_owned()))
                })
                .collect();
            Some(Sample {
                name: name.to_owned(),
                labels,
                value,
            })
        })
        .collect()
}

/// The sum of the samples named `name` whose labels pass `keep`.
pub fn sum(samples: &[Sample], name: &str, keep: impl Fn(&Sample) -> bool) -> f64 {
    samples
        .iter()
        .filter(|s| s.name == name && keep(s))
        .map(|s| s.value)
        .sum()
}

/// A histogram's cumulative counts by upper bound (the last is `+Inf`), summed over the label
/// sets kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buckets(Vec<(f64, f64)>);

impl Buckets {
    /// The buckets of histogram `name` (without `_bucket`) over the label sets `keep` passes.
    pub fn of(samples: &[Sample], name: &str, keep: impl Fn(&Sample) -> bool) -> Self {
        let bucket = format!("{name}_bucket");
        let mut bounds: Vec<(f64, f64)> = Vec::new();
        for s in samples.iter().filter(|s| s.name == bucket && keep(s)) {
            let Some(le) = s.label("le").and_then(|le| le.parse::<f64>().ok()) else {
                continue;
            };
            match bounds.iter_mut().find(|(b, _)| *b == le) {
                Some((_, count)) => *count += s.value,
                None => bounds.push((le, s.value)),
            }
        }
        bounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        Self(bounds)
    }

    /// What was observed between `earlier` and `self` (two scrapes of one process).
    pub fn since(&self, earlier: &Self) -> Self {
        Self(
            self.0
                .iter()
                .map(|&(le, count)| {
                    let before = earlier.0.iter().find(|(b, _)| *b == le).map_or(0.0, |b| b.1);
                    (le, count - before)
                })
                .collect(),
        )
    }

    /// How many observations.
    pub fn count(&self) -> f64 {
        self.0.last().map_or(0.0, |b| b.1)
    }

    /// The `q` quantile (0…1), interpolated linearly inside its bucket; a quantile in the `+Inf`
    /// bucket is the highest finite bound; None without observations.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let total = self.count();
        if total <= 0.0 {
            return None;
        }
        let rank = q * total;
        let (mut lower, mut below) = (0.0, 0.0);
        for &(le, count) in &self.0 {
            if count >= rank {
                if le.is_infinite() {
                    return Some(lower);
                }
                let share = if count > below {
                    (rank - below) / (count - below)
                } else {
                    1.0
                };
                return Some(lower + (le - lower) * share);
            }
            (lower, below) = (le, count);
        }
        Some(lower)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::metrics::Metrics;

    #[test]
    fn the_quantiles_of_what_happened_between_two_scrapes() {
        let metrics = Metrics::default();
        // Before: slow waits that must not count.
        for _ in 0..50 {
            metrics.waited("insight", Duration::from_secs(3));
        }
        metrics.reconciled("project", 0.1);
        let before = parse(&metrics.render());
        // Between: 90 waits of 1.5 ms (bucket 1-2 ms), 10 of 400 ms (bucket 0.3-0.5 s), and one
        // of the project controller, which the filter leaves out.
        for _ in 0..90 {
            metrics.waited("insight", Duration::from_micros(1500));
        }
        for _ in 0..10 {
            metrics.waited("insight", Duration::from_millis(400));
        }
        metrics.waited("project", Duration::from_secs(9));
        let after = parse(&metrics.render());
        let insight = |s: &Sample| s.label("controller") == Some("insight");
        let name = "ludis_operator_queue_wait_seconds";
        let run = Buckets::of(&after, name, insight).since(&Buckets::of(&before, name, insight));
        assert_eq!(run.count(), 100.0);
        // The 50th of 90 in the 1–2 ms bucket: 1 ms + 1 ms × 50/90.
        let p50 = run.quantile(0.5).unwrap();
        assert!((p50 - (0.001 + 0.001 * 50.0 / 90.0)).abs() < 1e-9, "{p50}");
        // The 99th: 9th of 10 in the 0.3–0.5 s bucket.
        let p99 = run.quantile(0.99).unwrap();
        assert!((p99 - (0.3 + 0.2 * 9.0 / 10.0)).abs() < 1e-9, "{p99}");
        assert_eq!(
            Buckets::of(&after, name, |_| true)
                .since(&Buckets::of(&before, name, |_| true))
                .count(),
            101.0,
            "summed over controllers"
        );
        assert_eq!(Buckets::default().quantile(0.5), None);
        assert_eq!(sum(&after, "ludis_operator_reconciles_total", |_| true), 1.0);
    }

    #[test]
    fn a_quantile_beyond_the_last_bound_is_that_bound() {
        let metrics = Metrics::default();
        metrics.waited("insight", Duration::from_secs(60));
        let samples = parse(&metrics.render());
        let b = Buckets::of(&samples, "ludis_operator_queue_wait_seconds", |_| true);
        assert_eq!(b.quantile(0.99), Some(10.0));
    }
}
