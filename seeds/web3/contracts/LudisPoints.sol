// SPDX-License-Identifier: Apache-2.0
// Not a collection: an ERC-20 token (OpenZeppelin's ERC20 as a library). It has code, a name and a
// symbol, but no ERC-165 supportsInterface, so a collection's validation must refuse it.
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract LudisPoints is ERC20 {
    constructor(address holder, uint256 supply) ERC20("Ludis Points", "LPT") {
        _mint(holder, supply);
    }
}
