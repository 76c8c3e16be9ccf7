//! The Logins chart: the sign-ins the Logins figure counts, per UTC day, one series per
//! organization among the busiest `limit`, the other organizations together and the deleted ones
//! together — so no organization with a sign-in is left out and the series add up to the figure.

use std::collections::{BTreeMap, HashMap};

use axum::{Json, extract::State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{period_seconds, scope};
use crate::{
    auth::AuthUser,
    db::{
        self,
        metrics::{self, DayLogins},
    },
    domain::{Figure, LoginSeriesKind, Period},
    error::{AppQuery, ErrorBody, Result},
    state::AppState,
};

/// How many organizations have a series of their own unless a call says otherwise (spec 001
/// "superadmin login chart limit 5").
const DEFAULT_LIMIT: i64 = 5;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LoginsQuery {
    pub organization: Option<String>,
    pub period: Option<String>,
    /// How many of the busiest organizations have a series of their own (default 5); the others
    /// share the series 'Other organizations'.
    pub limit: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginPoint {
    /// UTC day, YYYY-MM-DD.
    pub date: String,
    pub logins: i64,
    /// The series' name: the organization's, or 'Other organizations' / 'Deleted organizations'.
    pub org_name: String,
    /// The `key` of the series the point belongs to.
    pub series: String,
}

/// One series of the chart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginSeriesInfo {
    /// The organization's id, or `other` / `deleted`.
    pub key: String,
    pub name: String,
    pub kind: LoginSeriesKind,
    /// Its sign-ins in the period.
    pub logins: i64,
    /// The organizations it stands for, by name, busiest first (a deleted one's name is gone).
    pub organizations: Vec<String>,
    pub organization_count: i64,
}

#[derive(Serialize, ToSchema)]
pub struct LoginSeries {
    pub success: bool,
    pub period: Period,
    pub from: i64,
    pub to: i64,
    /// Every sign-in of the chart: the Logins figure of the same period and organizations.
    pub total: i64,
    /// What the chart counts (the Logins figure's definition).
    pub definition: &'static str,
    /// The series in the order they are drawn: the busiest organizations, then the others, then
    /// the deleted ones.
    pub series: Vec<LoginSeriesInfo>,
    /// By date, then series.
    pub logins: Vec<LoginPoint>,
}

/// Successful sign-ins per day and organization: the busiest `limit` organizations each a
/// series, the others and the deleted ones folded into one series each.
#[utoipa::path(get, path = "/v1/metrics/numLogins", tag = "metrics", params(LoginsQuery),
    responses((status = 200, body = LoginSeries), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
pub(super) async fn num_logins(
    State(state): State<AppState>,
    caller: AuthUser,
    AppQuery(q): AppQuery<LoginsQuery>,
) -> Result<Json<LoginSeries>> {
    let (period, secs) = period_seconds(q.period.as_deref())?;
    let org = scope(&state, &caller, q.organization).await?.unwrap_or_default();
    let limit = usize::try_from(q.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, 100)).unwrap_or(1);
    let to = db::now();
    let from = to - secs;
    let rows = metrics::logins_per_organization_and_day(&state.db, &org, from).await?;
    let (series, logins) = chart(&rows, limit);
    Ok(Json(LoginSeries {
        success: true,
        period,
        from,
        to,
        total: series.iter().map(|s| s.logins).sum(),
        definition: Figure::Logins.definition(),
        series,
        logins,
    }))
}

/// The series and points of the chart from the sign-ins per organization and day: the `limit`
/// existing organizations with the most sign-ins (ties by name) each a series, the other existing
/// ones one series, the deleted ones (no name any more) one series. Every sign-in is in exactly
/// one point.
pub(crate) fn chart(rows: &[DayLogins], limit: usize) -> (Vec<LoginSeriesInfo>, Vec<LoginPoint>) {
    // Sign-ins per organization: existing ones by id (with their name), deleted ones apart.
    let mut existing: HashMap<&str, (&str, i64)> = HashMap::new();
    let mut deleted: BTreeMap<Option<&str>, i64> = BTreeMap::new();
    for r in rows {
        match (&r.organization_id, &r.organization_name) {
            (Some(id), Some(name)) => existing.entry(id).or_insert((name, 0)).1 += r.logins,
            (id, _) => *deleted.entry(id.as_deref()).or_default() += r.logins,
        }
    }
    let mut ranked: Vec<(&str, &str, i64)> = existing
        .into_iter()
        .map(|(id, (name, n))| (id, name, n))
        .collect();
    ranked.sort_by(|a, b| b.2.cmp(&a.2).then(a.1.cmp(b.1)).then(a.0.cmp(b.0)));
    let (own, others) = ranked.split_at(limit.min(ranked.len()));

    let mut series: Vec<LoginSeriesInfo> = own
        .iter()
        .map(|(id, name, n)| LoginSeriesInfo {
            key: (*id).to_owned(),
            name: (*name).to_owned(),
            kind: LoginSeriesKind::Organization,
            logins: *n,
            organizations: vec![(*name).to_owned()],
            organization_count: 1,
        })
        .collect();
    let folded =
        |kind: LoginSeriesKind, logins: i64, organizations: Vec<String>, count: usize| LoginSeriesInfo {
            key: kind.as_str().to_owned(),
            name: kind.folded_name().unwrap_or_default().to_owned(),
            kind,
            logins,
            organizations,
            organization_count: i64::try_from(count).unwrap_or(i64::MAX),
        };
    if !others.is_empty() {
        let names = others.iter().map(|(_, name, _)| (*name).to_owned()).collect();
        let n = others.iter().map(|o| o.2).sum();
        series.push(folded(LoginSeriesKind::Other, n, names, others.len()));
    }
    if !deleted.is_empty() {
        let n = deleted.values().sum();
        series.push(folded(LoginSeriesKind::Deleted, n, Vec::new(), deleted.len()));
    }

    // Which series each existing organization's sign-ins go to.
    let own_ids: HashMap<&str, usize> = own.iter().enumerate().map(|(i, (id, ..))| (*id, i)).collect();
    let position = |r: &DayLogins| -> usize {
        match (&r.organization_id, &r.organization_name) {
            (Some(id), Some(_)) => own_ids
                .get(id.as_str())
                .copied()
                .unwrap_or_else(|| index_of(&series, LoginSeriesKind::Other)),
            _ => index_of(&series, LoginSeriesKind::Deleted),
        }
    };
    let mut points: BTreeMap<(&str, usize), i64> = BTreeMap::new();
    for r in rows {
        *points.entry((r.day.as_str(), position(r))).or_default() += r.logins;
    }
    let points = points
        .into_iter()
        .map(|((day, i), logins)| LoginPoint {
            date: day.to_owned(),
            logins,
            org_name: series[i].name.clone(),
            series: series[i].key.clone(),
        })
        .collect();
    (series, points)
}

/// Where the folded series of a kind is (it exists whenever a sign-in belongs to it).
fn index_of(series: &[LoginSeriesInfo], kind: LoginSeriesKind) -> usize {
    series.iter().position(|s| s.kind == kind).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(org: Option<&str>, name: Option<&str>, day: &str, logins: i64) -> DayLogins {
        DayLogins {
            organization_id: org.map(str::to_owned),
            organization_name: name.map(str::to_owned),
            day: day.to_owned(),
            logins,
        }
    }

    fn keys(series: &[LoginSeriesInfo]) -> Vec<(&str, i64)> {
        series.iter().map(|s| (s.key.as_str(), s.logins)).collect()
    }

    #[test]
    fn the_busiest_have_their_own_series_the_rest_are_folded_and_nothing_is_lost() {
        let rows = [
            row(Some("a"), Some("Acme"), "2026-11-01", 3),
            row(Some("b"), Some("Beta"), "2026-11-01", 1),
            row(Some("c"), Some("Core"), "2026-11-01", 1),
            row(Some("gone"), None, "2026-11-01", 2),
            row(Some("a"), Some("Acme"), "2026-11-02", 1),
            row(Some("b"), Some("Beta"), "2026-11-02", 1),
            row(Some("gone2"), None, "2026-11-02", 1),
            row(None, None, "2026-11-02", 1),
        ];
        let (series, points) = chart(&rows, 2);
        assert_eq!(keys(&series), [("a", 4), ("b", 2), ("other", 1), ("deleted", 4)]);
        assert_eq!(series[2].name, "Other organizations");
        assert_eq!(series[2].organizations, ["Core"]);
        assert_eq!(
            (series[3].name.as_str(), series[3].organization_count),
            ("Deleted organizations", 3)
        );
        let total: i64 = rows.iter().map(|r| r.logins).sum();
        assert_eq!(points.iter().map(|p| p.logins).sum::<i64>(), total);
        assert_eq!(series.iter().map(|s| s.logins).sum::<i64>(), total);
        let day2: Vec<(&str, i64)> = points
            .iter()
            .filter(|p| p.date == "2026-11-02")
            .map(|p| (p.org_name.as_str(), p.logins))
            .collect();
        assert_eq!(day2, [("Acme", 1), ("Beta", 1), ("Deleted organizations", 2)]);
    }

    #[test]
    fn every_organization_is_its_own_series_within_the_limit_and_ties_go_by_name() {
        let rows = [
            row(Some("z"), Some("Zed"), "2026-11-01", 2),
            row(Some("y"), Some("Ypsilon"), "2026-11-01", 2),
        ];
        let (series, points) = chart(&rows, 5);
        assert_eq!(keys(&series), [("y", 2), ("z", 2)]);
        assert_eq!(points.len(), 2);
        let (series, _) = chart(&rows, 1);
        assert_eq!(keys(&series), [("y", 2), ("other", 2)]);
        assert_eq!(chart(&[], 5), (Vec::new(), Vec::new()));
    }
}
