//! Aggregations by a column (spec 001 §9: sum, mean, median, variance, count; 'No aggregation').

use std::{collections::HashMap, str::FromStr};

use super::TemplateError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregation {
    Sum,
    Mean,
    Median,
    /// The sample variance (n − 1), as pandas and R compute it; one value has none.
    Variance,
    Count,
}

impl FromStr for Aggregation {
    type Err = TemplateError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.trim().to_lowercase().as_str() {
            "sum" => Self::Sum,
            "mean" => Self::Mean,
            "median" => Self::Median,
            "variance" => Self::Variance,
            "count" => Self::Count,
            other => {
                return Err(TemplateError::Invalid(format!(
                    "Unknown aggregation '{other}': use sum, mean, median, variance or count"
                )));
            }
        })
    }
}

impl Aggregation {
    /// `None` when the group has no value of its own (the variance of one value).
    fn of(self, values: &mut [f64]) -> Option<f64> {
        let n = values.len() as f64;
        let sum: f64 = values.iter().sum();
        match self {
            Self::Sum => Some(sum),
            Self::Count => Some(n),
            Self::Mean => Some(sum / n),
            Self::Median => {
                values.sort_by(f64::total_cmp);
                let mid = values.len() / 2;
                Some(if values.len().is_multiple_of(2) {
                    (values[mid - 1] + values[mid]) / 2.0
                } else {
                    values[mid]
                })
            }
            Self::Variance if values.len() < 2 => None,
            Self::Variance => {
                let mean = sum / n;
                Some(values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0))
            }
        }
    }
}

/// One value a group, groups in the order they first appear.
pub fn by_group(pairs: Vec<(String, f64)>, how: Aggregation) -> Vec<(String, Option<f64>)> {
    let mut order = Vec::new();
    let mut groups: HashMap<String, Vec<f64>> = HashMap::new();
    for (key, v) in pairs {
        groups
            .entry(key)
            .or_insert_with_key(|k| {
                order.push(k.clone());
                Vec::new()
            })
            .push(v);
    }
    order
        .into_iter()
        .map(|k| {
            let mut values = groups.remove(&k).unwrap_or_default();
            let v = how.of(&mut values);
            (k, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs() -> Vec<(String, f64)> {
        [
            ("b", 4.0),
            ("a", 1.0),
            ("b", 2.0),
            ("a", 3.0),
            ("b", 9.0),
            ("c", 7.0),
        ]
        .iter()
        .map(|(k, v)| ((*k).to_owned(), *v))
        .collect()
    }

    #[test]
    fn each_aggregation_against_known_answers() {
        let at = |how| by_group(pairs(), how);
        assert_eq!(
            at(Aggregation::Sum),
            [
                ("b".into(), Some(15.0)),
                ("a".into(), Some(4.0)),
                ("c".into(), Some(7.0))
            ]
        );
        assert_eq!(at(Aggregation::Count)[0].1, Some(3.0));
        assert_eq!(at(Aggregation::Mean)[0].1, Some(5.0));
        assert_eq!(at(Aggregation::Median)[0].1, Some(4.0));
        assert_eq!(at(Aggregation::Median)[1].1, Some(2.0));
        // b: 4, 2, 9 → mean 5, squares 1 + 9 + 16 = 26, / 2.
        assert_eq!(at(Aggregation::Variance)[0].1, Some(13.0));
        assert_eq!(at(Aggregation::Variance)[2].1, None);
    }

    #[test]
    fn names_parse_and_others_are_refused() {
        assert_eq!(" Median ".parse::<Aggregation>().unwrap(), Aggregation::Median);
        assert!("No aggregation".parse::<Aggregation>().is_err());
    }
}
