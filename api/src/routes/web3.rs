//! Web3 collections (spec 001 §7 "web3", docs/contracts/web3.md): superadmins validate and add
//! collections (adding starts the indexing job); every signed-in user lists them and reads their
//! graphs.

use std::collections::HashMap;

use alloy::{primitives::Address, providers::Provider as _};
use axum::{Json, extract::State, http::StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::users::paging;
use crate::{
    auth::AuthUser,
    db::web3::{self as store, CollectionRow, Taken},
    domain::{Chain, CollectionStatus, ContractType, Role},
    error::{ApiError, AppJson, AppPath, AppQuery, ErrorBody, Result},
    state::AppState,
    web3::{
        self,
        contract::{self, Inspection},
        graphs::{self, GraphLink, GraphNode, Named, OverlapBubble},
        indexer,
        rpc::{self, ChainError},
    },
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_collections))
        .routes(routes!(validate_contract))
        .routes(routes!(add_collection))
        .routes(routes!(starmap))
        .routes(routes!(bubblewrap))
}

/// 'Collection created successfully!' (spec 001 §8).
pub const CREATED: &str = "Collection created successfully!";

fn superadmin_only(caller: &AuthUser) -> Result<()> {
    if caller.user.role != Role::Superadmin {
        return Err(ApiError::forbidden(
            "superadmin_required",
            "Only a superadmin can manage collections.",
        ));
    }
    Ok(())
}

fn address_of(text: &str) -> Result<String> {
    web3::contract_address(text).ok_or_else(|| {
        ApiError::bad_request(
            "invalid_contract_address",
            "Contract address must be 42 letters and digits (0x and 40 hex digits).",
        )
    })
}

fn chain_of(text: Option<&str>) -> Result<Chain> {
    text.unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_request("invalid_chain", "Chain must be ETHEREUM or POLYGON."))
}

fn chain_error(e: &ChainError) -> ApiError {
    ApiError::unavailable("chain_unreachable", e.to_string())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CollectionView {
    pub id: String,
    pub contract_address: String,
    pub name: String,
    pub symbol: String,
    pub contract_type: ContractType,
    pub gcp_slug: String,
    pub chain: Chain,
    pub status: CollectionStatus,
    pub error: Option<String>,
    /// RFC 3339.
    pub created_date: String,
    pub start_block: i64,
    pub indexed_block: i64,
    pub target_block: i64,
    /// Transfer events stored so far.
    pub transfers: i64,
    /// Wallets holding at least one token now.
    pub holders: i64,
}

impl CollectionView {
    fn new(c: CollectionRow, holders: i64) -> Self {
        Self {
            created_date: crate::db::rfc3339(c.created_at),
            id: c.id,
            contract_address: c.contract_address,
            name: c.name,
            symbol: c.symbol,
            contract_type: c.contract_type,
            gcp_slug: c.gcp_slug,
            chain: c.chain,
            status: c.status,
            error: c.error,
            start_block: c.start_block,
            indexed_block: c.indexed_block,
            target_block: c.target_block,
            transfers: c.transfers,
            holders,
        }
    }
}

async fn views(state: &AppState, rows: Vec<CollectionRow>) -> Result<Vec<CollectionView>> {
    let ids: Vec<String> = rows.iter().map(|c| c.id.clone()).collect();
    let holders = store::holder_counts(&state.db, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|c| {
            let n = holders.get(&c.id).copied().unwrap_or(0);
            CollectionView::new(c, n)
        })
        .collect())
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CollectionsQuery {
    pub page: Option<i64>,
    /// Default 10, at most 100.
    #[serde(rename = "pageSize")]
    #[param(rename = "pageSize")]
    pub page_size: Option<i64>,
    pub status: Option<CollectionStatus>,
}

#[derive(Serialize, ToSchema)]
pub struct CollectionList {
    pub success: bool,
    pub collections: Vec<CollectionView>,
    pub total: i64,
}

/// The collections, newest first.
#[utoipa::path(get, path = "/v1/web3/collections", tag = "web3", params(CollectionsQuery),
    responses((status = 200, body = CollectionList)), security(("bearer" = [])))]
async fn list_collections(
    State(state): State<AppState>,
    _caller: AuthUser,
    AppQuery(q): AppQuery<CollectionsQuery>,
) -> Result<Json<CollectionList>> {
    let (_, limit, offset) = paging(q.page, q.page_size, 10);
    let (rows, total) = store::list(&state.db, q.status, limit, offset).await?;
    Ok(Json(CollectionList {
        success: true,
        collections: views(&state, rows).await?,
        total,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct ValidateContractRequest {
    /// ETHEREUM or POLYGON.
    pub chain: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ContractValidation {
    pub success: bool,
    pub valid: bool,
    pub contract_address: String,
    pub chain: Chain,
    pub name: Option<String>,
    pub symbol: Option<String>,
    pub contract_type: Option<ContractType>,
    pub message: String,
}

/// Asks the chain what lives at an address: a collection (valid), nothing, or something else.
async fn validation(state: &AppState, address: &str, chain: Chain) -> Result<ContractValidation> {
    let provider = state.web3.chains.provider(chain).map_err(|e| chain_error(&e))?;
    let parsed: Address = address.parse().map_err(|_| address_of("").unwrap_err())?;
    let inspection = contract::inspect(provider, parsed)
        .await
        .map_err(|e| chain_error(&rpc::unreachable(chain, &e)))?;
    let mut answer = ContractValidation {
        success: true,
        valid: false,
        contract_address: address.to_owned(),
        chain,
        name: None,
        symbol: None,
        contract_type: None,
        message: String::new(),
    };
    match inspection {
        Inspection::NoCode => answer.message = format!("No contract at this address on {chain}."),
        Inspection::NotACollection => {
            answer.message = "This contract is not an ERC-721 or ERC-1155 collection.".into()
        }
        Inspection::Collection {
            contract_type,
            name,
            symbol,
        } => {
            answer.message = format!("A valid {contract_type} collection on {chain}.");
            answer.valid = true;
            answer.name = Some(name);
            answer.symbol = Some(symbol);
            answer.contract_type = Some(contract_type);
        }
    }
    Ok(answer)
}

/// Checks that a contract lives at the address on the chain and is an ERC-721 or ERC-1155
/// collection (superadmins).
#[utoipa::path(post, path = "/v1/web3/validateContract/{contractAddress}", tag = "web3",
    params(("contractAddress" = String, Path)), request_body = ValidateContractRequest,
    responses((status = 200, body = ContractValidation), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 503, description = "The chain cannot be reached", body = ErrorBody)),
    security(("bearer" = [])))]
async fn validate_contract(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(contract_address): AppPath<String>,
    AppJson(body): AppJson<ValidateContractRequest>,
) -> Result<Json<ContractValidation>> {
    superadmin_only(&caller)?;
    let address = address_of(&contract_address)?;
    let chain = chain_of(body.chain.as_deref())?;
    Ok(Json(validation(&state, &address, chain).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct AddCollectionRequest {
    /// Letters and digits; the graphs' `slug`.
    pub gcp_slug: Option<String>,
    /// ETHEREUM or POLYGON.
    pub chain: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CollectionCreated {
    pub success: bool,
    pub message: String,
    pub collection: CollectionView,
}

/// Adds a collection once its chain confirms it, and starts its indexing job (superadmins).
#[utoipa::path(post, path = "/v1/web3/addCollection/{contractAddress}", tag = "web3",
    params(("contractAddress" = String, Path)), request_body = AddCollectionRequest,
    responses((status = 201, body = CollectionCreated), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, description = "Added already, or the slug is used", body = ErrorBody),
        (status = 422, description = "Not a collection on that chain", body = ErrorBody),
        (status = 503, description = "The chain cannot be reached", body = ErrorBody)),
    security(("bearer" = [])))]
async fn add_collection(
    State(state): State<AppState>,
    caller: AuthUser,
    AppPath(contract_address): AppPath<String>,
    AppJson(body): AppJson<AddCollectionRequest>,
) -> Result<(StatusCode, Json<CollectionCreated>)> {
    superadmin_only(&caller)?;
    let address = address_of(&contract_address)?;
    let chain = chain_of(body.chain.as_deref())?;
    let slug = body.gcp_slug.as_deref().unwrap_or("").trim().to_owned();
    if !web3::valid_slug(&slug) {
        return Err(ApiError::bad_request(
            "invalid_slug",
            "Slug name must be letters and digits only.",
        ));
    }
    let conflict = |taken: Taken| match taken {
        Taken::Contract => ApiError::conflict("collection_exists", "This collection has already been added."),
        Taken::Slug => ApiError::conflict("slug_taken", "This slug name is already used."),
    };
    if let Some(taken) = store::taken(&state.db, chain, &address, &slug).await? {
        return Err(conflict(taken));
    }
    let checked = validation(&state, &address, chain).await?;
    let Some(contract_type) = checked.contract_type.filter(|_| checked.valid) else {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "not_a_collection",
            checked.message,
        ));
    };
    let provider = state.web3.chains.provider(chain).map_err(|e| chain_error(&e))?;
    let unreachable = |e| chain_error(&rpc::unreachable(chain, &e));
    let latest = provider.get_block_number().await.map_err(unreachable)?;
    let parsed: Address = address.parse().map_err(|_| address_of("").unwrap_err())?;
    let start = contract::deployment_block(provider, parsed, latest)
        .await
        .map_err(unreachable)?;
    let now = crate::db::now();
    let row = CollectionRow {
        id: uuid::Uuid::new_v4().to_string(),
        chain,
        contract_address: address.clone(),
        name: checked.name.unwrap_or_default(),
        symbol: checked.symbol.unwrap_or_default(),
        contract_type,
        gcp_slug: slug.clone(),
        status: CollectionStatus::Running,
        error: None,
        start_block: i64::try_from(start).unwrap_or(i64::MAX),
        indexed_block: i64::try_from(start).unwrap_or(i64::MAX) - 1,
        target_block: i64::try_from(latest).unwrap_or(i64::MAX),
        transfers: 0,
        created_by: Some(caller.user.uid.clone()),
        created_at: now,
        updated_at: now,
    };
    if !store::insert(&state.db, &row).await? {
        let taken = store::taken(&state.db, chain, &address, &slug).await?;
        return Err(conflict(taken.unwrap_or(Taken::Slug)));
    }
    tracing::info!(collection = %row.id, %chain, address = %address, slug = %slug, "collection added");
    indexer::spawn(&state, &row.id);
    Ok((
        StatusCode::CREATED,
        Json(CollectionCreated {
            success: true,
            message: CREATED.to_owned(),
            collection: CollectionView::new(row, 0),
        }),
    ))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SlugQuery {
    /// The collection's slug (`gcp_slug`).
    pub slug: Option<String>,
}

async fn by_slug(state: &AppState, slug: Option<&str>) -> Result<CollectionRow> {
    let slug = slug.unwrap_or("").trim();
    if slug.is_empty() {
        return Err(ApiError::bad_request(
            "slug_required",
            "A collection slug is required.",
        ));
    }
    store::by_slug(&state.db, slug)
        .await?
        .ok_or_else(|| ApiError::not_found("collection_not_found", "Collection not found."))
}

async fn holders_of(state: &AppState, id: &str) -> Result<HashMap<String, i64>> {
    Ok(store::holders(&state.db, id).await?.into_iter().collect())
}

#[derive(Serialize, ToSchema)]
pub struct Starmap {
    pub success: bool,
    pub collection: CollectionView,
    pub nodes: Vec<GraphNode>,
    pub links: Vec<GraphLink>,
    /// Whether links beyond the busiest 2,000 were left out.
    pub truncated: bool,
}

/// The transaction graph of a collection: wallets and the transfer events between them.
#[utoipa::path(get, path = "/v1/web3/starmap", tag = "web3", params(SlugQuery),
    responses((status = 200, body = Starmap), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn starmap(
    State(state): State<AppState>,
    _caller: AuthUser,
    AppQuery(q): AppQuery<SlugQuery>,
) -> Result<Json<Starmap>> {
    let c = by_slug(&state, q.slug.as_deref()).await?;
    let holders = holders_of(&state, &c.id).await?;
    let pairs = store::pairs(&state.db, &c.id).await?;
    let (nodes, links, truncated) = graphs::starmap(pairs, &holders);
    let held = holders.len() as i64;
    Ok(Json(Starmap {
        success: true,
        collection: CollectionView::new(c, held),
        nodes,
        links,
        truncated,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Bubblewrap {
    pub success: bool,
    pub collection: CollectionView,
    pub bubbles: Vec<OverlapBubble>,
}

async fn named(state: &AppState, c: &CollectionRow) -> Result<Named> {
    let spread = store::mint_spread(&state.db, &c.id, graphs::AIRDROP_RECIPIENTS).await?;
    Ok(Named {
        id: c.id.clone(),
        contract_address: c.contract_address.clone(),
        name: c.name.clone(),
        spam: graphs::is_spam(spread),
    })
}

/// How a collection's holders overlap the other collections of its chain.
#[utoipa::path(get, path = "/v1/web3/bubblewrap", tag = "web3", params(SlugQuery),
    responses((status = 200, body = Bubblewrap), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn bubblewrap(
    State(state): State<AppState>,
    _caller: AuthUser,
    AppQuery(q): AppQuery<SlugQuery>,
) -> Result<Json<Bubblewrap>> {
    let c = by_slug(&state, q.slug.as_deref()).await?;
    let holders = holders_of(&state, &c.id).await?;
    let shared = store::shared_holders(&state.db, c.chain, &c.id).await?;
    let mut others = Vec::new();
    let mut ids: Vec<&str> = shared.iter().map(|(id, _, _)| id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        if let Some(other) = store::by_id(&state.db, id).await? {
            others.push(named(&state, &other).await?);
        }
    }
    let bubbles = graphs::bubblewrap(&named(&state, &c).await?, &holders, &others, &shared);
    let held = holders.len() as i64;
    Ok(Json(Bubblewrap {
        success: true,
        collection: CollectionView::new(c, held),
        bubbles,
    }))
}
