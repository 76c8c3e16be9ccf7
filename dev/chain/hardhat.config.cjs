// The configuration of one local chain of dev/chain.sh: Hardhat's in-memory network, served by
// `hardhat node` on loopback. dev/chain.sh runs one node per chain with this file and sets:
//   LUDIS_CHAIN_ID     the chain id (31337 for ETHEREUM, 31338 for POLYGON)
//   LUDIS_CHAIN_DIR    a folder of its own under $LUDIS_STATE/chain/ (Hardhat's cache and
//                      artifacts folders, which the node watches; nothing is compiled here)
//   LUDIS_CHAIN_VERBOSE=1 to log every JSON-RPC call (off: the benchmarks make thousands)
// Offline by construction: no forking (no `forking`, no `--fork`), no solc download (the node
// compiles nothing; the seed compiles with solc-js), no telemetry (dev/chain.sh declines it and
// runs the node without a terminal, see there).
const path = require("node:path");

const dir = process.env.LUDIS_CHAIN_DIR;
const chainId = Number(process.env.LUDIS_CHAIN_ID);
if (!dir || !Number.isInteger(chainId) || chainId <= 0) {
  throw new Error("LUDIS_CHAIN_DIR and LUDIS_CHAIN_ID must be set (dev/chain.sh sets them)");
}

// Hardhat's well-known development mnemonic: its accounts are the seed's wallets
// (seeds/web3/seed.mjs derives the same keys; never use them anywhere real).
const MNEMONIC = "test test test test test test test test test test test junk";

module.exports = {
  defaultNetwork: "hardhat",
  networks: {
    hardhat: {
      chainId,
      hardfork: "cancun",
      accounts: { mnemonic: MNEMONIC, count: 30, accountsBalance: "1000000000000000000000000" },
      // The bulk benchmark mints a few hundred tokens per transaction.
      blockGasLimit: 60_000_000,
      // One block per transaction, mined at once: the seed's block numbers are the same every run.
      mining: { auto: true, interval: 0 },
      loggingEnabled: process.env.LUDIS_CHAIN_VERBOSE === "1",
      allowUnlimitedContractSize: false,
    },
  },
  paths: {
    root: dir,
    sources: path.join(dir, "contracts"),
    cache: path.join(dir, "cache"),
    artifacts: path.join(dir, "artifacts"),
    tests: path.join(dir, "test"),
  },
};
