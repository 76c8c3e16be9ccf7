//! The activity log's entities and actions, the metrics' periods, and the figures of the admin
//! portal with the one definition of each.

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
    /// What was done (`activity.action`); the console words each one.
    pub enum ActivityAction ("activity action") {
        Created = "created",
        Updated = "updated",
        Deleted = "deleted",
        Shared = "shared",
        Unshared = "unshared",
        /// Files uploaded into a dataset.
        Uploaded = "uploaded",
        /// Files or folders deleted from a dataset.
        DeletedFiles = "deleted files",
        /// A file of a project committed (written or deleted) to its repository.
        Committed = "committed",
        /// An application started again.
        Restarted = "restarted",
        Stopped = "stopped",
        Redeployed = "redeployed",
        PasswordChanged = "password_changed",
        TwoFactorDisabled = "2fa_disabled",
        /// An organization now requires two-factor authentication.
        TwoFactorRequired = "2fa_required",
        TwoFactorNotRequired = "2fa_not_required",
        /// The assets of a kind moved from one owner to another.
        OwnerMigrated = "owner_migrated",
    }
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

names! {
    /// What one series of the Logins chart is.
    pub enum LoginSeriesKind ("login series kind") {
        /// One organization, among the busiest.
        Organization = "organization",
        /// The other organizations that exist, together.
        Other = "other",
        /// The organizations deleted since, together.
        Deleted = "deleted",
    }
}

impl LoginSeriesKind {
    /// The name of a series that stands for several organizations.
    pub const fn folded_name(self) -> Option<&'static str> {
        match self {
            Self::Organization => None,
            Self::Other => Some("Other organizations"),
            Self::Deleted => Some("Deleted organizations"),
        }
    }
}

names! {
    /// A figure of the admin portal. Each is counted by one query (`db::metrics`) over the same
    /// period and the same organizations — one organization, or every organization for a
    /// superadmin — and sent with its label and [`definition`](Figure::definition), so the console
    /// says what it counts in the words of the code that counts it. The names are the fields of
    /// the overview's `metrics`.
    pub enum Figure ("figure") {
        Logins = "logins",
        FailedLogins = "failedLogins",
        ActiveUsers = "activeUsers",
        TotalUsers = "totalUsers",
        Organizations = "organizations",
        Activities = "activities",
        /// An organization card's seat usage (`/v1/organizations/activeUserCounts`).
        SeatsInUse = "seatsInUse",
    }
}

impl Figure {
    /// The figures of the overview, in the order they are read; `Organizations` only across
    /// every organization.
    pub fn overview(all_organizations: bool) -> Vec<Self> {
        Self::ALL
            .iter()
            .copied()
            .filter(|f| *f != Self::SeatsInUse && (all_organizations || *f != Self::Organizations))
            .collect()
    }

    /// What the console calls it.
    pub const fn label(self) -> &'static str {
        match self {
            Self::Logins => "Logins",
            Self::FailedLogins => "Failed logins",
            Self::ActiveUsers => "Active users",
            Self::TotalUsers => "Total users",
            Self::Organizations => "Organizations",
            Self::Activities => "Activities",
            // The spec's words on an organization card ('Active users' over max seats).
            Self::SeatsInUse => "Active users",
        }
    }

    /// What it counts, exactly as `db::metrics` counts it.
    pub const fn definition(self) -> &'static str {
        match self {
            Self::Logins => {
                "Successful sign-ins during the period by the members of the organization (of every \
                 organization, superadmins included, when all are shown). Sign-ins into an organization \
                 deleted since count under 'Deleted organizations'. The Logins chart shows the same \
                 sign-ins, so its total is this number."
            }
            Self::FailedLogins => {
                "Refused sign-in attempts during the period: a wrong password or code, a deactivated \
                 account, too many attempts. When all organizations are shown, attempts with an \
                 unknown e-mail address count too."
            }
            Self::ActiveUsers => {
                "Accounts of the organization that signed in at least once during the period. Only \
                 accounts that still exist count, so this is never more than Total users."
            }
            Self::TotalUsers => "Accounts of the organization that exist now, deactivated ones included.",
            Self::Organizations => "Organizations that exist now (a new one counts at once).",
            Self::Activities => {
                "Creations, changes, shares and deletions recorded during the period; 'Activity by \
                 kind' splits them by kind of item."
            }
            Self::SeatsInUse => {
                "Accounts of the organization that are not deactivated: the seats in use, out of its \
                 maximum. (The overview's Active users counts who signed in during a period.)"
            }
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
