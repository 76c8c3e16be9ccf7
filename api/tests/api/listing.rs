//! The list query against the access rule itself: random assets, owners, shares (console and
//! resource entries, unshares, organization shares) and pins; for every caller (owner,
//! developers, each organization's administrator, a superadmin) and every filter, sort, direction
//! and search, paging through `db::assets::list` must give exactly the assets
//! `policy::sharing::access` lets the caller see, in order, with the same levels, pins and totals.

use std::collections::{HashMap, HashSet};

use ludis_api::domain::AssetKind;
use ludis_api::{
    db::{
        self,
        assets::{Filter, ListQuery, SortBy, Viewer},
        shares::Entry,
    },
    domain::AccessLevel as Level,
    policy::sharing::{self, Asset, Caller, Shares},
};

use serde_json::{Value, json};

use crate::{
    admin::superadmin,
    helpers::{InsightSeed, apps},
};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

struct Who {
    uid: String,
    org: String,
    role: &'static str,
}

struct Row {
    id: String,
    org: String,
    owner: Option<String>,
    name: String,
    text: String,
    created: i64,
}

#[tokio::test]
async fn paging_through_every_list_gives_exactly_what_the_access_rule_allows() {
    for app in apps().await {
        let mut rng = Rng(0x1157_1234_5678_9abc);
        let orgs = [app.org("Listing A", 50).await, app.org("Listing B", 50).await];
        let mut people = Vec::new();
        for (o, org) in orgs.iter().enumerate() {
            for (i, role) in ["developer", "developer", "management", "administrator"]
                .into_iter()
                .enumerate()
            {
                let email = format!("p{o}{i}-{}@listing.example", app.kind);
                people.push(Who {
                    uid: app.user(&email, "pass-word", role, org).await,
                    org: org.clone(),
                    role,
                });
            }
        }
        let email = format!("root-{}@listing.example", app.kind);
        people.push(Who {
            uid: app.user(&email, "pass-word", "superadmin", &orgs[0]).await,
            org: orgs[0].clone(),
            role: "superadmin",
        });

        let words = ["alpha", "beta", "gamma", "Delta", "epsilon"];
        let mut rows = Vec::new();
        // (asset, to_type, to_id) → levels of its entries; pins.
        let mut entries: HashMap<(String, &'static str, String), Vec<Level>> = HashMap::new();
        let mut pins: HashSet<(String, String)> = HashSet::new();
        for i in 0..40 {
            let o = rng.below(2);
            let owner = match rng.below(8) {
                0 => None,
                _ => {
                    let candidates: Vec<&Who> = people.iter().filter(|p| p.org == orgs[o]).collect();
                    Some(candidates[rng.below(candidates.len())].uid.clone())
                }
            };
            let name = format!("{} {} {i}", words[rng.below(5)], words[rng.below(5)]);
            let description = format!("about {}", words[rng.below(5)]);
            // Some equal times, so ties are broken by id in both directions.
            let created = 1_700_000_000 + rng.below(10) as i64;
            let id = app
                .insight(
                    &orgs[o],
                    owner.as_deref(),
                    InsightSeed {
                        description: description.clone(),
                        ..InsightSeed::external(&name).at(created)
                    },
                )
                .await;
            let mut console = Vec::new();
            let mut resource = Vec::new();
            for _ in 0..rng.below(4) {
                let p = &people[rng.below(people.len())];
                let level = Level::from_rank(rng.below(4) as i64);
                let target = (id.clone(), "user", p.uid.clone());
                if rng.below(3) == 0 {
                    resource.push((p.uid.clone(), level));
                } else if console.iter().any(|(u, _)| *u == p.uid) {
                    continue;
                } else {
                    console.push((p.uid.clone(), level));
                }
                entries.entry(target).or_default().push(level);
            }
            if rng.below(5) == 0 {
                let level = Level::from_rank(1 + rng.below(3) as i64);
                console.push((String::new(), level));
                entries
                    .entry((id.clone(), "organization", orgs[o].clone()))
                    .or_default()
                    .push(level);
            }
            let console_entries: Vec<Entry<'_>> = console
                .iter()
                .map(|(uid, level)| Entry {
                    to_type: if uid.is_empty() { "organization" } else { "user" }
                        .parse()
                        .unwrap(),
                    to_id: if uid.is_empty() { &orgs[o] } else { uid },
                    level: *level,
                })
                .collect();
            db::shares::set_console(&app.state.db, &id, &console_entries, "someone", created)
                .await
                .unwrap();
            let resource_entries: Vec<Entry<'_>> = resource
                .iter()
                .map(|(uid, level)| Entry {
                    to_type: "user".parse().unwrap(),
                    to_id: uid,
                    level: *level,
                })
                .collect();
            let mut tx = app.state.db.begin().await.unwrap();
            db::shares::replace_resource(&mut tx, &id, &resource_entries, created)
                .await
                .unwrap();
            tx.commit().await.unwrap();
            // set_console touches updated_at: read it back below through the list itself.
            for p in &people {
                if rng.below(6) == 0 {
                    db::pins::set(&app.state.db, &p.uid, &id, true, 1).await.unwrap();
                    pins.insert((p.uid.clone(), id.clone()));
                }
            }
            rows.push(Row {
                id,
                org: orgs[o].clone(),
                owner,
                text: format!("{name} {description}").to_lowercase(),
                name,
                created,
            });
        }

        let mut checked = 0;
        for who in &people {
            let viewer = Viewer {
                uid: &who.uid,
                organization_id: &who.org,
                is_admin: matches!(who.role, "administrator" | "superadmin"),
                is_superadmin: who.role == "superadmin",
            };
            let caller = Caller {
                uid: &who.uid,
                organization_id: &who.org,
                role: who.role.parse().unwrap(),
            };
            let level_of = |r: &Row| {
                let max =
                    |k: (String, &'static str, String)| entries.get(&k).and_then(|l| l.iter().max().copied());
                let shares = Shares {
                    user: max((r.id.clone(), "user", who.uid.clone())),
                    organization: max((r.id.clone(), "organization", who.org.clone())),
                };
                let asset = Asset {
                    owner_uid: r.owner.as_deref().unwrap_or(""),
                    organization_id: &r.org,
                };
                (sharing::access(caller, asset, shares), shares)
            };
            for filter in [Filter::All, Filter::Owned, Filter::Shared, Filter::Starred] {
                for search in ["", "delta"] {
                    let mut expected: Vec<(&Row, Level)> = rows
                        .iter()
                        .filter_map(|r| {
                            let (level, shares) = level_of(r);
                            let owned = r.owner.as_deref() == Some(who.uid.as_str());
                            // Shares reach only the asset's organization.
                            let shared_with_me = r.org == who.org
                                && (shares.user.is_some_and(|l| l > Level::None)
                                    || shares.organization.is_some_and(|l| l > Level::None));
                            let keep = match filter {
                                Filter::All => level > Level::None,
                                Filter::Owned => owned,
                                Filter::Shared => !owned && shared_with_me,
                                Filter::Starred => {
                                    level > Level::None && pins.contains(&(who.uid.clone(), r.id.clone()))
                                }
                            };
                            (keep && (search.is_empty() || r.text.contains(search))).then_some((r, level))
                        })
                        .collect();
                    for (sort_by, descending) in [
                        (SortBy::Name, false),
                        (SortBy::Name, true),
                        (SortBy::CreatedAt, true),
                        (SortBy::CreatedAt, false),
                    ] {
                        expected.sort_by(|(a, _), (b, _)| {
                            let key = match sort_by {
                                SortBy::Name => a.name.to_lowercase().cmp(&b.name.to_lowercase()),
                                _ => a.created.cmp(&b.created),
                            };
                            let ord = key.then_with(|| a.id.cmp(&b.id));
                            if descending { ord.reverse() } else { ord }
                        });
                        let mut got = Vec::new();
                        let mut totals = HashSet::new();
                        for page in 0..20 {
                            let q = ListQuery {
                                kind: AssetKind::Insight,
                                filter,
                                sort_by,
                                descending,
                                search: search.into(),
                                limit: 4,
                                offset: page * 4,
                                details: None,
                            };
                            let (items, total) = db::assets::list(&app.state.db, viewer, &q).await.unwrap();
                            totals.insert(total);
                            if items.is_empty() {
                                break;
                            }
                            got.extend(items.into_iter().map(|l| (l.asset.id, l.level, l.pinned)));
                        }
                        let want: Vec<(String, Level, bool)> = expected
                            .iter()
                            .map(|(r, l)| {
                                let pinned = pins.contains(&(who.uid.clone(), r.id.clone()));
                                (r.id.clone(), *l, pinned)
                            })
                            .collect();
                        assert_eq!(
                            got, want,
                            "{}: {} ({}) {filter:?} search={search:?} {sort_by:?} desc={descending}",
                            app.kind, who.role, who.uid
                        );
                        if !want.is_empty() {
                            assert_eq!(
                                totals,
                                HashSet::from([want.len() as i64]),
                                "{}: totals of {filter:?} for {}",
                                app.kind,
                                who.role
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, people.len() * 4 * 2 * 4);
    }
}

#[tokio::test]
async fn a_superadmins_list_names_each_insights_organization() {
    for app in apps().await {
        let k = app.kind;
        let t = app.org_with_admin_and_dev("Acme").await;
        let beta = app.org_with_admin_and_dev("Beta").await;
        let root = superadmin(&app, &t.org).await;
        let a = app
            .insight(&t.org, Some(&t.dev), InsightSeed::app("Acme board"))
            .await;
        let b = app
            .insight(&beta.org, Some(&beta.dev), InsightSeed::app("Beta board"))
            .await;
        let (s, list) = app.get("/v1/applications/insights?filter=all", &root).await;
        assert_eq!(s, 200, "{k}: {list}");
        let mut seen: Vec<(String, Value)> = list["applications"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["id"].as_str().unwrap().to_owned(), i["organization"].clone()))
            .collect();
        seen.sort_by(|x, y| x.0.cmp(&y.0));
        let mut want = vec![
            (a.clone(), json!({"id": t.org, "name": "Acme"})),
            (b, json!({"id": beta.org, "name": "Beta"})),
        ];
        want.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(seen, want, "{k}");
        let (_, one) = app.get(&format!("/v1/applications/{a}"), &t.dev_token).await;
        assert_eq!(one["application"]["organization"]["name"], "Acme", "{k}");
    }
}
