//! Who a workflow's e-mail may reach, and how much of it an organization may send: the operator
//! is no relay. A run's e-mail goes only to the members of its organization — the addresses the
//! API lists in the namespace's ConfigMap [`MAIL_RECIPIENTS_CONFIGMAP`], whatever the Workflow
//! says (a resource applied with kubectl or GitOps included) — and each organization namespace
//! may send at most [`MailBudget::per_hour`] deliveries (messages × recipients) in any hour.

use std::{
    collections::{BTreeSet, HashMap, VecDeque},
    time::{Duration, Instant},
};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::{Api, Client};
use ludis_crds::{MAIL_RECIPIENTS_CONFIGMAP, MAIL_RECIPIENTS_KEY};

/// Deliveries per organization and hour unless configured (`LUDIS_MAIL_PER_ORGANIZATION_PER_HOUR`).
pub const DEFAULT_PER_HOUR: u32 = 200;
const HOUR: Duration = Duration::from_secs(3600);

/// The members of `namespace`'s organization who may receive its e-mail (lower-case); none when
/// the API has not listed them.
pub async fn members(client: &Client, namespace: &str) -> kube::Result<BTreeSet<String>> {
    let map = Api::<ConfigMap>::namespaced(client.clone(), namespace)
        .get_opt(MAIL_RECIPIENTS_CONFIGMAP)
        .await?;
    Ok(parse(
        map.and_then(|m| m.data)
            .and_then(|mut d| d.remove(MAIL_RECIPIENTS_KEY))
            .as_deref()
            .unwrap_or(""),
    ))
}

/// Pure: the addresses of the ConfigMap's value (one per line).
pub fn parse(listed: &str) -> BTreeSet<String> {
    listed
        .lines()
        .map(|l| l.trim().to_lowercase())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Pure: `to` split into the members' addresses and the others.
pub fn split(to: &[String], members: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    to.iter()
        .cloned()
        .partition(|a| members.contains(&a.trim().to_lowercase()))
}

/// The deliveries each organization namespace made in the last hour.
#[derive(Debug)]
pub struct MailBudget {
    per_hour: u32,
    sent: HashMap<String, VecDeque<(Instant, u32)>>,
}

impl MailBudget {
    pub fn new(per_hour: u32) -> Self {
        Self {
            per_hour,
            sent: HashMap::new(),
        }
    }

    /// Deliveries an organization may make in any hour.
    pub fn per_hour(&self) -> u32 {
        self.per_hour
    }

    /// Takes `deliveries` from `namespace`'s budget at `now`: false (and nothing taken) when the
    /// last hour's deliveries and these would exceed it.
    pub fn take(&mut self, namespace: &str, deliveries: u32, now: Instant) -> bool {
        let sent = self.sent.entry(namespace.to_owned()).or_default();
        while sent
            .front()
            .is_some_and(|(at, _)| now.duration_since(*at) >= HOUR)
        {
            sent.pop_front();
        }
        let used: u32 = sent.iter().map(|(_, n)| n).sum();
        if used.saturating_add(deliveries) > self.per_hour {
            return false;
        }
        sent.push_back((now, deliveries));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_listed_members_receive() {
        let members = parse("ann@acme.example\n BOB@acme.example \n\n");
        assert_eq!(members.len(), 2);
        let to = vec![
            "Ann@Acme.example".to_owned(),
            "eve@evil.example".to_owned(),
            "bob@acme.example".to_owned(),
        ];
        let (members_to, strangers) = split(&to, &members);
        assert_eq!(members_to, ["Ann@Acme.example", "bob@acme.example"]);
        assert_eq!(strangers, ["eve@evil.example"]);
        let (none, all) = split(&to, &parse(""));
        assert!(none.is_empty());
        assert_eq!(all.len(), 3);
    }

    #[test]
    fn each_organization_sends_at_most_its_hourly_budget() {
        let start = Instant::now();
        let mut budget = MailBudget::new(10);
        assert!(budget.take("ludis-acme", 6, start));
        assert!(budget.take("ludis-acme", 4, start + Duration::from_secs(60)));
        assert!(!budget.take("ludis-acme", 1, start + Duration::from_secs(120)));
        // Another organization has its own budget.
        assert!(budget.take("ludis-beta", 10, start + Duration::from_secs(120)));
        // A refused delivery takes nothing; an hour after the first six, six are free again.
        assert!(!budget.take("ludis-acme", 7, start + HOUR));
        assert!(budget.take("ludis-acme", 6, start + HOUR));
        assert!(!budget.take("ludis-acme", 1, start + HOUR + Duration::from_secs(59)));
        assert!(budget.take("ludis-acme", 4, start + HOUR + Duration::from_secs(60)));
        // More than the whole budget at once is never sent.
        assert!(!MailBudget::new(3).take("ludis-acme", 4, start));
    }
}
