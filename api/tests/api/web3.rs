//! Web3 collections (issue 18, docs/contracts/web3.md) against the real local chains
//! (dev/chain.sh: Hardhat nodes seeded by seeds/web3/seed.mjs), on SQLite and PostgreSQL: contract
//! validation (a collection, a wallet, the wrong chain, an ERC-20), adding with its rules, the
//! indexing job, and the graphs' numbers checked against what the seed script did
//! (`deployed.json`).

use std::{
    collections::{BTreeMap, BTreeSet},
    time::Duration,
};

use ludis_api::{
    Settings,
    db::web3::{self as store, CollectionRow},
    domain::{Chain, CollectionStatus, ContractType},
    web3::indexer::{IndexError, Job},
};
use serde_json::{Value, json};

use crate::helpers::{Person, TestApp, apps_with};

/// The seed's facts and the chains' settings, or `None` without the chains (required in CI).
fn chains() -> Option<(Value, impl Fn(&mut Settings) + Clone)> {
    let (Ok(eth), Ok(polygon), Ok(file)) = (
        std::env::var("LUDIS_WEB3_RPC_ETHEREUM"),
        std::env::var("LUDIS_WEB3_RPC_POLYGON"),
        std::env::var("LUDIS_WEB3_DEPLOYED"),
    ) else {
        assert!(
            std::env::var("CI").is_err(),
            "LUDIS_WEB3_RPC_ETHEREUM, LUDIS_WEB3_RPC_POLYGON and LUDIS_WEB3_DEPLOYED must be set in CI (dev/test.sh)"
        );
        eprintln!(
            "the local chains are not configured: the web3 tests are skipped (dev/chain.sh up; eval \"$(dev/chain.sh env)\")"
        );
        return None;
    };
    let deployed: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("deployed.json")).unwrap();
    Some((deployed, move |s: &mut Settings| {
        s.web3_rpc_ethereum = ludis_api::Secret(eth.clone());
        s.web3_rpc_polygon = ludis_api::Secret(polygon.clone());
    }))
}

fn collection<'a>(deployed: &'a Value, chain: &str, key: &str) -> &'a Value {
    deployed["chains"][chain]["collections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("no {key} on {chain}"))
}

fn address(c: &Value) -> &str {
    c["address"].as_str().unwrap()
}

async fn validate(app: &TestApp, who: &Person, address: &str, chain: &str) -> (reqwest::StatusCode, Value) {
    app.post(
        &format!("/v1/web3/validateContract/{address}"),
        Some(&who.token),
        json!({ "chain": chain }),
    )
    .await
}

async fn add(
    app: &TestApp,
    who: &Person,
    address: &str,
    slug: &str,
    chain: &str,
) -> (reqwest::StatusCode, Value) {
    app.post(
        &format!("/v1/web3/addCollection/{address}"),
        Some(&who.token),
        json!({ "gcp_slug": slug, "chain": chain }),
    )
    .await
}

/// Waits (at most a minute) for a collection's job to end; its view.
async fn indexed(app: &TestApp, who: &Person, slug: &str) -> Value {
    for _ in 0..600 {
        let (status, body) = app
            .get(&format!("/v1/web3/starmap?slug={slug}"), &who.token)
            .await;
        assert_eq!(status, 200, "{body}");
        if body["collection"]["status"] != "running" {
            assert_eq!(body["collection"]["status"], "success", "{}: {body}", app.kind);
            return body["collection"].clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{slug} was still indexing after a minute ({})", app.kind);
}

#[tokio::test]
async fn contracts_are_validated_on_their_chain() {
    let Some((deployed, settings)) = chains() else {
        return;
    };
    let lighthouses = address(collection(&deployed, "ETHEREUM", "lighthouses"));
    let harbour = address(collection(&deployed, "ETHEREUM", "harbour-items"));
    let eoa = deployed["chains"]["ETHEREUM"]["eoa"].as_str().unwrap();
    let erc20 = deployed["chains"]["ETHEREUM"]["not_a_collection"]["address"]
        .as_str()
        .unwrap();
    for app in apps_with(settings.clone()).await {
        let org = app.unique_org("Web3").await;
        let root = app.person(&org, "superadmin", "Root").await;
        let dev = app.person(&org, "developer", "Dev").await;

        let (status, body) = validate(
            &app,
            &root,
            &lighthouses.to_uppercase().replacen("0X", "0x", 1),
            "ETHEREUM",
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            (
                &body["valid"],
                &body["contract_type"],
                &body["name"],
                &body["symbol"]
            ),
            (
                &json!(true),
                &json!("ERC721"),
                &json!("Ludis Lighthouses"),
                &json!("LLH")
            ),
            "{body}"
        );
        assert_eq!(body["contract_address"], lighthouses, "lower-cased");
        let (_, body) = validate(&app, &root, harbour, "ETHEREUM").await;
        assert_eq!(
            (&body["valid"], &body["contract_type"]),
            (&json!(true), &json!("ERC1155")),
            "{body}"
        );

        // A wallet, the wrong chain (nothing was deployed at that address on POLYGON), an ERC-20.
        let (status, body) = validate(&app, &root, eoa, "ETHEREUM").await;
        assert_eq!((status.as_u16(), &body["valid"]), (200, &json!(false)));
        assert_eq!(body["message"], "No contract at this address on ETHEREUM.");
        let (_, body) = validate(&app, &root, lighthouses, "POLYGON").await;
        assert_eq!(
            (&body["valid"], body["message"].as_str()),
            (&json!(false), Some("No contract at this address on POLYGON."))
        );
        let (_, body) = validate(&app, &root, erc20, "ETHEREUM").await;
        assert_eq!(
            (&body["valid"], body["message"].as_str(), &body["contract_type"]),
            (
                &json!(false),
                Some("This contract is not an ERC-721 or ERC-1155 collection."),
                &Value::Null
            )
        );

        // The rules, and only superadmins.
        for bad in [
            "0x5fbdb2315678afecb367f032d93f642f64180aa",
            "0x5fbdb2315678afecb367f032d93f642f64180aaz",
            "lighthouses",
        ] {
            let (status, body) = validate(&app, &root, bad, "ETHEREUM").await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (
                    400,
                    Some("Contract address must be 42 letters and digits (0x and 40 hex digits).")
                )
            );
        }
        for chain in ["", "SOLANA", "ethereum"] {
            let (status, body) = validate(&app, &root, lighthouses, chain).await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (400, Some("Chain must be ETHEREUM or POLYGON."))
            );
        }
        let (status, body) = validate(&app, &dev, lighthouses, "ETHEREUM").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (403, Some("Only a superadmin can manage collections."))
        );
        let (status, _) = app
            .post(
                &format!("/v1/web3/validateContract/{lighthouses}"),
                None,
                json!({"chain": "ETHEREUM"}),
            )
            .await;
        assert_eq!(status, 401);
    }

    // A chain without an endpoint, and one that does not answer: 503 with the chain's name only.
    for app in
        apps_with(|s| s.web3_rpc_ethereum = ludis_api::Secret("http://127.0.0.1:9/secret-key".into())).await
    {
        let root = app
            .person(&app.unique_org("Web3").await, "superadmin", "Root")
            .await;
        let (status, body) = validate(&app, &root, lighthouses, "POLYGON").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                503,
                Some("The POLYGON chain is not configured (LUDIS_WEB3_RPC_POLYGON).")
            )
        );
        let (status, body) = validate(&app, &root, lighthouses, "ETHEREUM").await;
        assert_eq!(status, 503, "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with("The ETHEREUM chain cannot be reached: "),
            "{message}"
        );
        assert!(
            !message.contains("secret-key"),
            "the endpoint is never answered: {message}"
        );
    }
}

/// The graph's links as the seed counts them: {(from, to): events}.
fn seeded_pairs(c: &Value) -> BTreeMap<(String, String), i64> {
    c["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap().to_owned();
            ((s("from"), s("to")), t["count"].as_i64().unwrap())
        })
        .collect()
}

fn seeded_holders(c: &Value) -> BTreeMap<String, i64> {
    c["holders"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(w, h)| (w.clone(), h["tokens"].as_i64().unwrap()))
        .collect()
}

/// Checks a collection's graph against the seed: every link and its events, every holder and its
/// tokens, the wallets with nothing left as `former`, the zero address as `zero`.
async fn check_starmap(app: &TestApp, who: &Person, slug: &str, seeded: &Value) {
    let (status, body) = app
        .get(&format!("/v1/web3/starmap?slug={slug}"), &who.token)
        .await;
    assert_eq!(status, 200, "{body}");
    let links: BTreeMap<(String, String), i64> = body["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let s = |k: &str| l[k].as_str().unwrap().to_owned();
            ((s("source"), s("target")), l["value"].as_i64().unwrap())
        })
        .collect();
    assert_eq!(links, seeded_pairs(seeded), "{slug} ({})", app.kind);
    let holders = seeded_holders(seeded);
    let mut nodes = BTreeSet::new();
    for n in body["nodes"].as_array().unwrap() {
        let wallet = n["wallet"].as_str().unwrap();
        assert!(nodes.insert(wallet.to_owned()), "{wallet} twice");
        let expected = match holders.get(wallet) {
            _ if wallet == "0x0000000000000000000000000000000000000000" => ("zero", 0),
            Some(&tokens) => ("holder", tokens),
            None => ("former", 0),
        };
        assert_eq!(
            (n["class"].as_str().unwrap(), n["tokens"].as_i64().unwrap()),
            expected,
            "{slug}: {wallet}"
        );
    }
    assert!(
        holders.keys().all(|h| nodes.contains(h)),
        "every holder is a node"
    );
    assert_eq!(body["truncated"], false);
    let c = &body["collection"];
    assert_eq!(c["transfers"], seeded["transfer_events"], "{slug}");
    assert_eq!(c["holders"].as_u64().unwrap() as usize, holders.len(), "{slug}");
    assert_eq!(
        c["start_block"], seeded["deployment_block"],
        "indexing starts where the contract was deployed"
    );
}

#[tokio::test]
async fn indexing_reproduces_the_seeded_transfers_holders_and_overlaps() {
    let Some((deployed, settings)) = chains() else {
        return;
    };
    let seeded = |chain: &str, key: &str| collection(&deployed, chain, key).clone();
    let (llh, lhi, lln) = (
        seeded("ETHEREUM", "lighthouses"),
        seeded("ETHEREUM", "harbour-items"),
        seeded("ETHEREUM", "lanterns"),
    );
    let ltd = seeded("POLYGON", "tides");
    // Three blocks a range: the seeded collections span several ranges each.
    for app in apps_with(move |s| {
        settings(s);
        s.web3_block_range = 3;
    })
    .await
    {
        let org = app.unique_org("Web3").await;
        let root = app.person(&org, "superadmin", "Root").await;
        let dev = app.person(&org, "developer", "Dev").await;

        let (status, body) = add(&app, &root, address(&llh), "Lighthouses", "ETHEREUM").await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["message"], "Collection created successfully!");
        let c = &body["collection"];
        assert_eq!(
            (
                &c["status"],
                &c["name"],
                &c["symbol"],
                &c["contract_type"],
                &c["chain"],
                &c["gcp_slug"]
            ),
            (
                &json!("running"),
                &json!("Ludis Lighthouses"),
                &json!("LLH"),
                &json!("ERC721"),
                &json!("ETHEREUM"),
                &json!("Lighthouses")
            )
        );
        assert!(c["created_date"].as_str().unwrap().ends_with('Z'));
        for (key, slug) in [(&lhi, "harbour"), (&lln, "lanterns")] {
            let (status, body) = add(&app, &root, address(key), slug, "ETHEREUM").await;
            assert_eq!(status, 201, "{body}");
        }
        let (status, body) = add(&app, &root, address(&ltd), "tides", "POLYGON").await;
        assert_eq!(status, 201, "{body}");

        // The rules: the same contract twice, a slug in use (whatever its case), a bad slug, a
        // wallet, a developer.
        let (status, body) = add(&app, &root, address(&llh), "other", "ETHEREUM").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (409, Some("This collection has already been added."))
        );
        let erc20 = deployed["chains"]["ETHEREUM"]["not_a_collection"]["address"]
            .as_str()
            .unwrap();
        let (status, body) = add(&app, &root, erc20, "LIGHTHOUSES", "ETHEREUM").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (409, Some("This slug name is already used."))
        );
        for slug in ["", "light-houses", "light houses"] {
            let (status, body) = add(&app, &root, erc20, slug, "ETHEREUM").await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (400, Some("Slug name must be letters and digits only."))
            );
        }
        let (status, body) = add(&app, &root, erc20, "points", "ETHEREUM").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (
                422,
                Some("This contract is not an ERC-721 or ERC-1155 collection.")
            )
        );
        let eoa = deployed["chains"]["ETHEREUM"]["eoa"].as_str().unwrap();
        let (status, body) = add(&app, &root, eoa, "wallet", "ETHEREUM").await;
        assert_eq!(
            (status.as_u16(), body["message"].as_str()),
            (422, Some("No contract at this address on ETHEREUM."))
        );
        let (status, _) = add(&app, &dev, erc20, "mine", "ETHEREUM").await;
        assert_eq!(status, 403);

        // Indexed: every number is the seed's.
        for (slug, seeded) in [
            ("Lighthouses", &llh),
            ("harbour", &lhi),
            ("lanterns", &lln),
            ("tides", &ltd),
        ] {
            indexed(&app, &dev, slug).await;
            check_starmap(&app, &dev, slug, seeded).await;
        }

        // Overlaps on one chain: Harbour Items holds 3 of Lighthouses' 13 holders (23.08 %), Lanterns 1
        // (7.69 %, under 10 %: no bubble); Tides is on POLYGON.
        let overlap = |base: &str, other: &str| {
            deployed["overlaps"]
                .as_array()
                .unwrap()
                .iter()
                .find(|o| o["base"]["key"] == base && o["other"]["key"] == other)
                .unwrap()
                .clone()
        };
        let (status, body) = app.get("/v1/web3/bubblewrap?slug=lighthouses", &dev.token).await;
        assert_eq!(status, 200, "{body}");
        let bubbles = body["bubbles"].as_array().unwrap();
        assert_eq!(bubbles.len(), 2, "the base and Harbour Items: {body}");
        assert_eq!(
            (
                &bubbles[0]["group"],
                &bubbles[0]["contract_address"],
                &bubbles[0]["current_wallets"],
                &bubbles[0]["overlap_wallet_perc"]
            ),
            (
                &json!("base"),
                &json!(address(&llh)),
                &json!(seeded_holders(&llh).len()),
                &json!(100.0)
            )
        );
        assert_eq!(
            bubbles[0]["tokens_held"],
            json!(seeded_holders(&llh).values().sum::<i64>())
        );
        let expected = overlap("lighthouses", "harbour-items");
        let b = &bubbles[1];
        assert_eq!(
            (
                &b["group"],
                &b["collection_name"],
                &b["overlap_wallet_perc"],
                &b["current_wallets"],
                &b["tokens_held"],
                &b["spam"]
            ),
            (
                &json!("overlap"),
                &json!("Ludis Harbour Items"),
                &expected["percent"],
                &expected["shared_holders"],
                &expected["other_tokens_held"],
                &json!(false)
            )
        );
        assert!(overlap("lighthouses", "lanterns")["percent"].as_f64().unwrap() < 10.0);
        let (_, body) = app.get("/v1/web3/bubblewrap?slug=harbour", &dev.token).await;
        let expected = overlap("harbour-items", "lighthouses");
        assert_eq!(
            body["bubbles"][1]["overlap_wallet_perc"], expected["percent"],
            "{body}"
        );
        assert_eq!(
            body["bubbles"][1]["tokens_held"], expected["other_tokens_held"],
            "{body}"
        );

        // The list, newest first, for everyone signed in; pages; a status filter.
        let (status, body) = app
            .get("/v1/web3/collections?page=1&pageSize=3", &dev.token)
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["total"], 4);
        let slugs: Vec<_> = body["collections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["gcp_slug"].clone())
            .collect();
        assert_eq!(slugs.len(), 3);
        let (_, page2) = app
            .get("/v1/web3/collections?page=2&pageSize=3", &dev.token)
            .await;
        assert_eq!(page2["collections"].as_array().unwrap().len(), 1);
        let (_, running) = app.get("/v1/web3/collections?status=running", &dev.token).await;
        assert_eq!(running["total"], 0);
        let (status, _) = app.get("/v1/web3/collections?status=nope", &dev.token).await;
        assert_eq!(status, 400);

        // Slugs the graphs do not know.
        for path in [
            "/v1/web3/starmap?slug=nothing",
            "/v1/web3/bubblewrap?slug=nothing",
        ] {
            let (status, body) = app.get(path, &dev.token).await;
            assert_eq!(
                (status.as_u16(), body["message"].as_str()),
                (404, Some("Collection not found."))
            );
        }
        for path in ["/v1/web3/starmap", "/v1/web3/bubblewrap?slug="] {
            assert_eq!(app.get(path, &dev.token).await.0, 400, "{path}");
        }
        for path in ["/v1/web3/collections", "/v1/web3/starmap?slug=tides"] {
            assert_eq!(
                app.call(reqwest::Method::GET, path, None, None).await.0,
                401,
                "{path}"
            );
        }
    }
}

#[tokio::test]
async fn an_interrupted_job_resumes_where_it_stopped() {
    let Some((deployed, settings)) = chains() else {
        return;
    };
    let llh = collection(&deployed, "ETHEREUM", "lighthouses").clone();
    for app in apps_with(move |s| {
        settings(s);
        s.web3_block_range = 4;
    })
    .await
    {
        let who = app
            .person(&app.unique_org("Web3").await, "developer", "Dev")
            .await;
        // As a job that was stopped before its first range: status running, nothing stored.
        let start = llh["deployment_block"].as_i64().unwrap();
        let row = CollectionRow {
            id: uuid::Uuid::new_v4().to_string(),
            chain: Chain::Ethereum,
            contract_address: address(&llh).to_owned(),
            name: "Ludis Lighthouses".into(),
            symbol: "LLH".into(),
            contract_type: ContractType::Erc721,
            gcp_slug: "resumed".into(),
            status: CollectionStatus::Running,
            error: None,
            start_block: start,
            indexed_block: start - 1,
            target_block: deployed["chains"]["ETHEREUM"]["last_block"].as_i64().unwrap(),
            transfers: 0,
            created_by: None,
            created_at: ludis_api::db::now(),
            updated_at: ludis_api::db::now(),
        };
        assert!(store::insert(&app.state.db, &row).await.unwrap());
        ludis_api::web3::indexer::resume_all(app.state.clone()).await;
        indexed(&app, &who, "resumed").await;
        check_starmap(&app, &who, "resumed", &llh).await;
        // Run again over the same blocks, nothing is counted twice.
        let provider = app.state.web3.chains.provider(Chain::Ethereum).unwrap();
        let again = ludis_api::web3::indexer::index(&app.state.db, provider, &row.id, 4)
            .await
            .unwrap();
        assert_eq!(again.ranges, 0);
        check_starmap(&app, &who, "resumed", &llh).await;
    }
}

#[tokio::test]
async fn two_replicas_resuming_one_collection_count_each_transfer_once() {
    let Some((deployed, settings)) = chains() else {
        return;
    };
    let llh = collection(&deployed, "ETHEREUM", "lighthouses").clone();
    for app in apps_with(move |s| {
        settings(s);
        s.web3_block_range = 4;
    })
    .await
    {
        let who = app
            .person(&app.unique_org("Web3 replicas").await, "developer", "Dev")
            .await;
        let start = llh["deployment_block"].as_i64().unwrap();
        let row = CollectionRow {
            id: uuid::Uuid::new_v4().to_string(),
            chain: Chain::Ethereum,
            contract_address: address(&llh).to_owned(),
            name: "Ludis Lighthouses".into(),
            symbol: "LLH".into(),
            contract_type: ContractType::Erc721,
            gcp_slug: "replicas".into(),
            status: CollectionStatus::Running,
            error: None,
            start_block: start,
            indexed_block: start - 1,
            target_block: deployed["chains"]["ETHEREUM"]["last_block"].as_i64().unwrap(),
            transfers: 0,
            created_by: None,
            created_at: ludis_api::db::now(),
            updated_at: ludis_api::db::now(),
        };
        assert!(store::insert(&app.state.db, &row).await.unwrap());
        // Both replicas read where the job stands before either stores a range (the interleaving
        // forced): the first stores every range, the second stops at its first.
        let provider = app.state.web3.chains.provider(Chain::Ethereum).unwrap();
        let first = Job::load(&app.state.db, &row.id).await.unwrap();
        let second = Job::load(&app.state.db, &row.id).await.unwrap();
        let done = first.run(&app.state.db, provider, 4).await.unwrap();
        assert!(done.ranges > 1, "{}: several ranges ({done:?})", app.kind);
        let late = second.run(&app.state.db, provider, 4).await;
        assert!(
            matches!(late, Err(IndexError::Superseded)),
            "{}: the second job stops: {late:?}",
            app.kind
        );
        // Counted once: the seeded transfers, holders and overlaps exactly.
        indexed(&app, &who, "replicas").await;
        check_starmap(&app, &who, "replicas", &llh).await;
    }
}
