//! What a contract is, asked of its chain: whether code lives at the address, whether it speaks
//! ERC-721 or ERC-1155 (ERC-165 `supportsInterface`), its `name()` and `symbol()`, and the block
//! it was deployed in (where indexing starts).

use alloy::{
    eips::BlockId,
    primitives::{Address, Bytes, FixedBytes},
    providers::{Provider as _, RootProvider},
    rpc::types::TransactionRequest,
    sol,
    sol_types::SolCall,
    transports::{RpcError, TransportError},
};

use crate::domain::ContractType;

sol! {
    interface IErc165 {
        function supportsInterface(bytes4 interfaceId) external view returns (bool);
    }
    interface IMetadata {
        function name() external view returns (string);
        function symbol() external view returns (string);
    }
}

/// ERC-165 interface ids.
const ERC721: [u8; 4] = [0x80, 0xac, 0x58, 0xcd];
const ERC1155: [u8; 4] = [0xd9, 0xb6, 0x7a, 0x26];
/// Names and symbols longer than this are cut (a contract may answer anything).
const TEXT_MAX: usize = 200;

/// What the chain says of an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inspection {
    /// No code at the address (a wallet, or nothing deployed on this chain).
    NoCode,
    /// Code that answers neither ERC-721 nor ERC-1155.
    NotACollection,
    Collection {
        contract_type: ContractType,
        name: String,
        symbol: String,
    },
}

/// Asks the chain about `address`. Errors are the chain's (unreachable, refused), never the
/// contract's: a call the contract reverts is an answer ("no").
pub async fn inspect(provider: &RootProvider, address: Address) -> Result<Inspection, TransportError> {
    let code = provider.get_code_at(address).await?;
    if code.is_empty() {
        return Ok(Inspection::NoCode);
    }
    let contract_type = if supports(provider, address, ERC721).await? {
        ContractType::Erc721
    } else if supports(provider, address, ERC1155).await? {
        ContractType::Erc1155
    } else {
        return Ok(Inspection::NotACollection);
    };
    let name = text(provider, address, IMetadata::nameCall {}.abi_encode()).await?;
    let symbol = text(provider, address, IMetadata::symbolCall {}.abi_encode()).await?;
    Ok(Inspection::Collection {
        contract_type,
        name,
        symbol,
    })
}

/// `eth_call` of `data`; `None` when the contract reverted or the node refused the call.
async fn call(
    provider: &RootProvider,
    address: Address,
    data: Vec<u8>,
) -> Result<Option<Bytes>, TransportError> {
    let tx = TransactionRequest::default()
        .to(address)
        .input(Bytes::from(data).into());
    match provider.call(tx).await {
        Ok(bytes) => Ok(Some(bytes)),
        Err(RpcError::ErrorResp(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn supports(provider: &RootProvider, address: Address, id: [u8; 4]) -> Result<bool, TransportError> {
    let data = IErc165::supportsInterfaceCall {
        interfaceId: FixedBytes(id),
    }
    .abi_encode();
    Ok(call(provider, address, data)
        .await?
        .and_then(|b| IErc165::supportsInterfaceCall::abi_decode_returns(&b).ok())
        .unwrap_or(false))
}

/// A `string`-returning getter's answer, or "" (ERC-1155 needs no name nor symbol).
async fn text(provider: &RootProvider, address: Address, data: Vec<u8>) -> Result<String, TransportError> {
    let answer = call(provider, address, data)
        .await?
        .and_then(|b| IMetadata::nameCall::abi_decode_returns(&b).ok())
        .unwrap_or_default();
    Ok(answer
        .chars()
        .filter(|c| !c.is_control())
        .take(TEXT_MAX)
        .collect())
}

/// The first block with code at `address` (a binary search of `eth_getCode` by block, at most
/// about 30 calls), at most `latest`; 0 when the node keeps no old state to ask (indexing then
/// reads from the chain's start).
pub async fn deployment_block(
    provider: &RootProvider,
    address: Address,
    latest: u64,
) -> Result<u64, TransportError> {
    let has_code = async |block: u64| -> Result<Option<bool>, TransportError> {
        match provider
            .get_code_at(address)
            .block_id(BlockId::number(block))
            .await
        {
            Ok(code) => Ok(Some(!code.is_empty())),
            Err(RpcError::ErrorResp(_)) => Ok(None),
            Err(e) => Err(e),
        }
    };
    let (mut low, mut high) = (0_u64, latest);
    while low < high {
        let mid = low + (high - low) / 2;
        match has_code(mid).await? {
            Some(true) => high = mid,
            Some(false) => low = mid + 1,
            None => return Ok(0),
        }
    }
    Ok(low)
}
