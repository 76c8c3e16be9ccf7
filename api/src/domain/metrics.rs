//! The activity log's entities and the metrics' periods.

use super::names;

names! {
    /// What an activity-log entry is about (`activity.entity_type`); the metrics name these.
    pub enum ActivityEntity ("metrics entity") {
        Applications = "applications",
        Projects = "projects",
        Datasets = "datasets",
        Workflows = "workflows",
        Notebooks = "notebooks",
        Users = "users",
        Organizations = "organizations",
        Flighting = "flighting",
    }
}

impl ActivityEntity {
    /// The entities the metrics routes answer for.
    pub const METRICS: [Self; 7] = [
        Self::Applications,
        Self::Projects,
        Self::Datasets,
        Self::Workflows,
        Self::Users,
        Self::Organizations,
        Self::Flighting,
    ];
}

names! {
    /// The span of time a metrics call covers, ending now.
    pub enum Period ("period") {
        Day = "day",
        Week = "week",
        Month = "month",
        Year = "year",
    }
}

impl Period {
    /// Seconds covered.
    pub const fn seconds(self) -> i64 {
        match self {
            Self::Day => 86_400,
            Self::Week => 7 * 86_400,
            Self::Month => 30 * 86_400,
            Self::Year => 365 * 86_400,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_answer_for_every_entity_but_notebooks_and_periods_cover_their_days() {
        assert!(
            ActivityEntity::ALL
                .iter()
                .all(|e| ActivityEntity::METRICS.contains(e) == (*e != ActivityEntity::Notebooks))
        );
        let days: Vec<i64> = Period::ALL.iter().map(|p| p.seconds() / 86_400).collect();
        assert_eq!(days, [1, 7, 30, 365]);
    }
}
