// SPDX-License-Identifier: Apache-2.0
// An ERC-1155 collection of the local chains (seeds/web3/seed.mjs): OpenZeppelin's ERC1155 and
// ERC1155Burnable as a library, a name and a symbol (ERC-1155 has none of its own; the indexer
// reads them as for an ERC-721), and minting by the owner only.
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";
import {ERC1155Burnable} from "@openzeppelin/contracts/token/ERC1155/extensions/ERC1155Burnable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract LudisCollection1155 is ERC1155, ERC1155Burnable, Ownable {
    string public name;
    string public symbol;

    constructor(string memory name_, string memory symbol_, string memory uri_, address owner_)
        ERC1155(uri_)
        Ownable(owner_)
    {
        name = name_;
        symbol = symbol_;
    }

    /// Mints `amount` of token `id` to `to` (one TransferSingle event).
    function mint(address to, uint256 id, uint256 amount) external onlyOwner {
        _mint(to, id, amount, "");
    }

    /// Mints several ids to `to` at once (one TransferBatch event).
    function mintBatch(address to, uint256[] calldata ids, uint256[] calldata amounts) external onlyOwner {
        _mintBatch(to, ids, amounts, "");
    }
}
