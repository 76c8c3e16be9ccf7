//! Forecasts (spec 001 §9: ALL, Fitted Values, Moving Average, Forecast): exponential smoothing
//! in state-space form with the model chosen automatically (augurs' AutoETS, after Hyndman and
//! Khandakar 2008: additive or multiplicative error, no, additive or damped trend, chosen by
//! AICc; no seasonality), the in-sample one-step fitted values, a trailing moving average and
//! the forecast with its 95 % interval. The six candidate models are fitted in four searches side
//! by side, a thread a core, rather than one after another as `AutoETS::non_seasonal()` does.

use std::sync::atomic::{AtomicUsize, Ordering};

use augurs_core::{Fit, Predict};
use augurs_ets::{AutoETS, FittedAutoETS};

use super::{TemplateError, limits::Cancel};

/// AutoETS's candidates without seasonality — error (A, M) × trend (none, additive, damped) — as
/// four searches: `Z` trend undamped tries none and additive (a fixed `N` trend gives augurs no
/// candidate at all), the damped trend is its own search.
const CANDIDATES: [(&str, bool); 4] = [("AZN", false), ("AAN", true), ("MZN", false), ("MAN", true)];

/// The model with the lowest AICc of the searches in [`CANDIDATES`], fitted side by side by as
/// many threads as there are cores (at most one a search), each taking the next search until none
/// is left or the flag is set. A search the data does not allow (a multiplicative error with
/// values that are not positive, too few points for a trend) is left out; with none left, the
/// first search's error.
fn best_model(y: &[f64], cancel: &Cancel) -> Result<FittedAutoETS, TemplateError> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(CANDIDATES.len());
    let take = || {
        let mut fits = Vec::new();
        while !cancel.is_cancelled() {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(spec, damped)) = CANDIDATES.get(i) else {
                break;
            };
            fits.push((
                i,
                AutoETS::new(1, spec)
                    .and_then(|a| a.damped(damped))
                    .and_then(|a| a.fit(y)),
            ));
        }
        fits
    };
    let mut fits: Vec<(usize, Result<FittedAutoETS, augurs_ets::Error>)> = std::thread::scope(|s| {
        let running: Vec<_> = (0..threads).map(|_| s.spawn(take)).collect();
        running
            .into_iter()
            .flat_map(|t| t.join().unwrap_or_default())
            .collect()
    });
    cancel.check()?;
    fits.sort_by_key(|(i, _)| *i);
    let mut first_error = None;
    fits.into_iter()
        .filter_map(|(_, fit)| match fit {
            Ok(m) if !m.model().aicc().is_nan() => Some(m),
            Ok(_) => None,
            Err(e) => {
                first_error.get_or_insert(e);
                None
            }
        })
        .min_by(|a, b| a.model().aicc().total_cmp(&b.model().aicc()))
        .ok_or_else(|| failed(first_error.unwrap_or(augurs_ets::Error::NoModelFound)))
}

/// A forecast augurs could not make, in words.
fn failed(e: augurs_ets::Error) -> TemplateError {
    TemplateError::Invalid(format!("The forecast could not be made: {e}"))
}

/// The fewest points a forecast is made from.
pub const MIN_POINTS: usize = 4;
/// The most steps ahead.
pub const HORIZON_MAX: usize = 1000;
pub const LEVEL: f64 = 0.95;

#[derive(Debug)]
pub struct Forecast {
    /// The chosen model, e.g. "ETS(A,Ad,N)".
    pub model: String,
    /// One-step-ahead predictions of the points themselves.
    pub fitted: Vec<f64>,
    /// The mean of the last `window` points (none before the window is full).
    pub moving_average: Vec<Option<f64>>,
    pub forecast: Vec<f64>,
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
}

/// The trailing mean of `window` values, in one pass.
pub fn moving_average(y: &[f64], window: usize) -> Vec<Option<f64>> {
    let window = window.max(1);
    let mut sum = 0.0;
    y.iter()
        .enumerate()
        .map(|(i, v)| {
            sum += v;
            if i >= window {
                sum -= y[i - window];
            }
            (i + 1 >= window).then(|| sum / window as f64)
        })
        .collect()
}

/// The usual name of a model, "ETS(error,trend,season)" with "Ad" for a damped trend, from
/// augurs' three letters ("AAN").
fn name(letters: &str, damped: bool) -> String {
    let mut parts: Vec<String> = letters.chars().map(String::from).collect();
    if damped && parts.get(1).is_some_and(|t| t != "N") {
        parts[1].push('d');
    }
    format!("ETS({})", parts.join(","))
}

/// Refuses a horizon outside 1 to [`HORIZON_MAX`] (before any data is read).
pub fn check_horizon(horizon: usize) -> Result<(), TemplateError> {
    if (1..=HORIZON_MAX).contains(&horizon) {
        return Ok(());
    }
    Err(TemplateError::Invalid(format!(
        "Forecast from 1 to {HORIZON_MAX} steps ahead"
    )))
}

/// The forecast of `y`; the flag is checked before each candidate model is fitted.
pub fn forecast(
    y: &[f64],
    horizon: usize,
    window: usize,
    cancel: &Cancel,
) -> Result<Forecast, TemplateError> {
    if y.len() < MIN_POINTS {
        return Err(TemplateError::Invalid(format!(
            "A forecast needs at least {MIN_POINTS} points with numbers; the data has {}",
            y.len()
        )));
    }
    check_horizon(horizon)?;
    let fitted = best_model(y, cancel)?;
    let model = name(&fitted.model().model_type().to_string(), fitted.model().damped());
    let in_sample = fitted.predict_in_sample(None).map_err(failed)?;
    let ahead = fitted.predict(horizon, LEVEL).map_err(failed)?;
    let (lower, upper) = ahead.intervals.map(|i| (i.lower, i.upper)).unwrap_or_default();
    Ok(Forecast {
        model,
        fitted: in_sample.point,
        moving_average: moving_average(y, window),
        forecast: ahead.point,
        lower,
        upper,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_named_as_usual() {
        assert_eq!(name("AAN", false), "ETS(A,A,N)");
        assert_eq!(name("MAN", true), "ETS(M,Ad,N)");
        assert_eq!(name("ANN", true), "ETS(A,N,N)");
    }

    #[test]
    fn a_moving_average_is_the_trailing_mean() {
        assert_eq!(
            moving_average(&[1.0, 2.0, 3.0, 4.0], 2),
            [None, Some(1.5), Some(2.5), Some(3.5)]
        );
        assert_eq!(moving_average(&[5.0], 1), [Some(5.0)]);
    }

    #[test]
    fn a_straight_line_goes_on_as_a_straight_line() {
        let y: Vec<f64> = (0..40).map(|x| 10.0 + 2.0 * f64::from(x)).collect();
        let f = forecast(&y, 5, 3, &Cancel::new()).unwrap();
        for (i, v) in f.forecast.iter().enumerate() {
            let want = 10.0 + 2.0 * (40 + i) as f64;
            assert!((v - want).abs() < 0.5, "step {i}: {v} against {want}");
        }
        assert_eq!(f.fitted.len(), 40);
        assert_eq!(f.lower.len(), 5);
        assert!(f.lower.iter().zip(&f.forecast).all(|(l, p)| l <= p));
        assert!(
            f.model.starts_with("ETS(") && f.model.contains(",A"),
            "{}",
            f.model
        );
    }

    #[test]
    fn a_level_series_forecasts_its_level() {
        let y: Vec<f64> = (0..60)
            .map(|x| 100.0 + if x % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        let f = forecast(&y, 3, 4, &Cancel::new()).unwrap();
        assert!(
            f.forecast.iter().all(|v| (v - 100.0).abs() < 1.5),
            "{:?}",
            f.forecast
        );
    }

    #[test]
    fn the_side_by_side_search_picks_the_model_autoets_picks() {
        let series: [Vec<f64>; 3] = [
            (0..200)
                .map(|x| 50.0 + 0.5 * f64::from(x) + (f64::from(x) * 0.7).sin() * 3.0)
                .collect(),
            (0..120)
                .map(|x| 100.0 + (f64::from(x) * 1.3).cos() * 5.0)
                .collect(),
            (0..80)
                .map(|x| f64::from(x) * 2.0 - 40.0 + (f64::from(x) * 0.3).sin())
                .collect(),
        ];
        for y in &series {
            let ours = best_model(y, &Cancel::new()).unwrap();
            let theirs = AutoETS::non_seasonal().fit(y).unwrap();
            assert_eq!(
                ours.model().model_type().to_string(),
                theirs.model().model_type().to_string()
            );
            assert_eq!(ours.model().damped(), theirs.model().damped());
            assert!((ours.model().aicc() - theirs.model().aicc()).abs() < 1e-9);
        }
    }

    #[test]
    fn too_little_data_or_a_bad_horizon_is_refused() {
        assert!(forecast(&[1.0, 2.0], 3, 2, &Cancel::new()).is_err());
        assert!(forecast(&[1.0, 2.0, 3.0, 4.0, 5.0], 0, 2, &Cancel::new()).is_err());
        assert!(forecast(&[1.0, 2.0, 3.0, 4.0, 5.0], HORIZON_MAX + 1, 2, &Cancel::new()).is_err());
    }

    #[test]
    fn a_set_flag_fits_no_candidate() {
        let y: Vec<f64> = (0..40).map(f64::from).collect();
        let cancel = Cancel::new();
        cancel.cancel();
        assert!(matches!(
            forecast(&y, 3, 2, &cancel),
            Err(TemplateError::Cancelled)
        ));
    }
}
