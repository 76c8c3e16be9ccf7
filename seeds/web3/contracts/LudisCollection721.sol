// SPDX-License-Identifier: Apache-2.0
// An ERC-721 collection of the local chains (seeds/web3/seed.mjs): OpenZeppelin's ERC721 and
// ERC721Burnable as a library, and minting by the owner only — one token, or many in one
// transaction for the bulk benchmark (one Transfer event per token).
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Burnable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Burnable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

contract LudisCollection721 is ERC721, ERC721Burnable, Ownable {
    constructor(string memory name_, string memory symbol_, address owner_)
        ERC721(name_, symbol_)
        Ownable(owner_)
    {}

    /// Mints `tokenId` to `to`.
    function mint(address to, uint256 tokenId) external onlyOwner {
        _mint(to, tokenId);
    }

    /// Mints the tokens firstId, firstId + 1, … firstId + count - 1, token firstId + i to
    /// recipients[i % recipients.length]: `count` Transfer events from the zero address in one
    /// transaction.
    function mintBatch(address[] calldata recipients, uint256 firstId, uint256 count) external onlyOwner {
        uint256 n = recipients.length;
        require(n > 0, "no recipients");
        for (uint256 i = 0; i < count; ++i) {
            _mint(recipients[i % n], firstId + i);
        }
    }
}
