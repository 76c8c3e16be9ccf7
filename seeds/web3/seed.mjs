#!/usr/bin/env node
// The web3 seed of the local chains (dev/chain.sh): compiles the collections in contracts/ with
// solc-js (the `solc` package, WebAssembly: no compiler is downloaded), deploys them to fresh chains,
// makes a fixed set of mints and transfers between a fixed set of wallets, checks the chains
// against its own expectations, and writes what the web3 indexer must reproduce to deployed.json.
//
//   node seeds/web3/seed.mjs seed [--ethereum URL] [--polygon URL] [--out FILE]
//       URLs default to $LUDIS_WEB3_RPC_ETHEREUM / $LUDIS_WEB3_RPC_POLYGON (dev/chain.sh env),
//       FILE to $LUDIS_STATE/chain/deployed.json. The chains must be fresh (nothing sent yet):
//       every address, block number and count is then the same on every run.
//   node seeds/web3/seed.mjs bulk --transfers N --rpc URL [--batch B]
//       The benchmark's collection: a new ERC-721 deployed by the bench wallet (account 29) and N
//       tokens minted to the wallets in turn, B (default 500) per transaction: N Transfer events.
//       Prints one JSON line on standard output: the address, the block range, the counts, the time.
//
// The packages (ethers, solc, @openzeppelin/contracts) come from dev/chain/package.json as
// dev/chain.sh installs them: $LUDIS_CHAIN_MODULES, else $LUDIS_CACHE/chain/<lock hash>/node_modules.
// See seeds/README.md for the contents of deployed.json.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");

// --- packages ----------------------------------------------------------------------------------

function modulesDir() {
  if (process.env.LUDIS_CHAIN_MODULES) return process.env.LUDIS_CHAIN_MODULES;
  const lock = fs.readFileSync(path.join(REPO, "dev/chain/package-lock.json"));
  const hash = createHash("sha256").update(lock).digest("hex").slice(0, 10);
  const cache = process.env.LUDIS_CACHE || path.join(os.homedir(), ".cache/ludis");
  return path.join(cache, "chain", hash, "node_modules");
}
const MODULES = modulesDir();
if (!fs.existsSync(path.join(MODULES, "ethers"))) {
  console.error(`[seed] the chain packages are not installed in ${MODULES} (dev/chain.sh up installs them)`);
  process.exit(1);
}
const require = createRequire(path.join(MODULES, "..", "package.json"));
const { ethers } = require("ethers");

// --- the fixed wallets -------------------------------------------------------------------------

// Hardhat's well-known development mnemonic, the same as dev/chain/hardhat.config.cjs: the nodes
// fund these accounts. Never use them anywhere real.
const MNEMONIC = "test test test test test test test test test test test junk";
const WALLET_COUNT = 30;
// Each chain's deployer deploys and mints its seeded collections, in a fixed nonce order (two
// deployers, so that no seeded address is the same on both chains).
const DEPLOYERS = { ETHEREUM: 0, POLYGON: 19 };
const BENCH = 29; // deploys the bulk benchmark's collections (so the seed's addresses never move)
const ZERO = "0x0000000000000000000000000000000000000000";
const wallets = [];
{
  const root = ethers.HDNodeWallet.fromPhrase(MNEMONIC, undefined, "m/44'/60'/0'/0");
  for (let i = 0; i < WALLET_COUNT; i++) wallets.push(root.deriveChild(i));
}
const W = wallets.map((w) => w.address.toLowerCase());

const TOPICS = {
  Transfer: ethers.id("Transfer(address,address,uint256)"),
  TransferSingle: ethers.id("TransferSingle(address,address,address,uint256,uint256)"),
  TransferBatch: ethers.id("TransferBatch(address,address,address,uint256[],uint256[])"),
};

// --- small helpers -----------------------------------------------------------------------------

const log = (...a) => console.error("[seed]", ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseArgs(argv) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith("--")) throw new Error(`${a} needs a value`);
      out[a.slice(2)] = v;
      i++;
    } else out._.push(a);
  }
  return out;
}

async function rawRpc(url, method, params = [], timeoutMs = 10_000) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

// A provider on a loopback node whose chain id was read once (no network detection loop).
async function connect(url) {
  const u = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) {
    throw new Error(`refusing ${url}: the seed only talks to local chains (127.0.0.1)`);
  }
  let chainId;
  try {
    chainId = Number(BigInt(await rawRpc(url, "eth_chainId")));
  } catch (e) {
    throw new Error(`no chain answers at ${url} (${e.message}); start them with dev/chain.sh up`);
  }
  const provider = new ethers.JsonRpcProvider(url, undefined, {
    staticNetwork: ethers.Network.from(chainId),
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  return { url, chainId, provider };
}

// Sends one transaction and waits for its receipt (the node mines it at once); fails unless it
// succeeded.
async function send(chain, signerIndex, contract, method, args, overrides = {}) {
  const signer = wallets[signerIndex].connect(chain.provider);
  const req = await contract.connect(signer)[method].populateTransaction(...args);
  const tx = await signer.sendTransaction({ ...req, ...overrides });
  for (let i = 0; ; i++) {
    const receipt = await chain.provider.getTransactionReceipt(tx.hash);
    if (receipt) {
      if (receipt.status !== 1) throw new Error(`${method} failed in block ${receipt.blockNumber}`);
      return receipt;
    }
    if (i > 3000) throw new Error(`${method}: no receipt for ${tx.hash} after 60 s`);
    await sleep(20);
  }
}

// --- compiling ---------------------------------------------------------------------------------

function compile() {
  const solc = require("solc");
  const dir = path.join(HERE, "contracts");
  const sources = {};
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".sol")).sort()) {
    sources[`contracts/${f}`] = { content: fs.readFileSync(path.join(dir, f), "utf8") };
  }
  const input = {
    language: "Solidity",
    sources,
    settings: {
      // The nodes run the cancun hardfork (dev/chain/hardhat.config.cjs).
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
    },
  };
  const findImports = (p) => {
    const file = path.resolve(MODULES, p);
    if (!p.startsWith("@openzeppelin/contracts/") || !file.startsWith(MODULES + path.sep)) {
      return { error: `not found: ${p}` };
    }
    try {
      return { contents: fs.readFileSync(file, "utf8") };
    } catch {
      return { error: `not found: ${p}` };
    }
  };
  const started = Date.now();
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  const errors = (out.errors || []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error("solc: " + errors.map((e) => e.formattedMessage).join("\n"));
  const contracts = {};
  for (const file of Object.keys(out.contracts)) {
    for (const [name, c] of Object.entries(out.contracts[file])) {
      if (file.startsWith("contracts/")) contracts[name] = { abi: c.abi, bytecode: "0x" + c.evm.bytecode.object };
    }
  }
  log(`compiled ${Object.keys(contracts).join(", ")} with solc-js ${solc.version()} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return contracts;
}

async function deploy(chain, artifacts, contractName, signerIndex, args) {
  const { abi, bytecode } = artifacts[contractName];
  const signer = wallets[signerIndex].connect(chain.provider);
  const factory = new ethers.ContractFactory(abi, bytecode, signer);
  const req = await factory.getDeployTransaction(...args);
  const tx = await signer.sendTransaction(req);
  for (let i = 0; ; i++) {
    const receipt = await chain.provider.getTransactionReceipt(tx.hash);
    if (receipt) {
      if (receipt.status !== 1 || !receipt.contractAddress) throw new Error(`deploying ${contractName} failed`);
      return { contract: new ethers.Contract(receipt.contractAddress, abi, chain.provider), receipt };
    }
    if (i > 3000) throw new Error(`deploying ${contractName}: no receipt after 60 s`);
    await sleep(20);
  }
}

// --- the plan: what the seed does, and what follows from it -------------------------------------

// One collection's expected facts, kept up to date as the plan's operations are applied: the
// Transfer(-Single/-Batch) events, each (from, to) pair's number of events, the final balances.
class Ledger {
  constructor(type) {
    this.type = type;
    this.events = type === "ERC721" ? { Transfer: 0 } : { TransferSingle: 0, TransferBatch: 0 };
    this.pairs = new Map(); // "from to" -> events
    this.owner = new Map(); // ERC-721: token id -> holder
    this.balance = new Map(); // ERC-1155: holder -> Map(id -> amount)
    this.lastBlock = 0;
  }
  event(kind, from, to, block) {
    this.events[kind]++;
    const k = `${from} ${to}`;
    this.pairs.set(k, (this.pairs.get(k) || 0) + 1);
    this.lastBlock = Math.max(this.lastBlock, block);
  }
  move721(from, to, id, block) {
    if (from !== ZERO && this.owner.get(id) !== from) throw new Error(`plan: token ${id} is not ${from}'s`);
    if (to === ZERO) this.owner.delete(id);
    else this.owner.set(id, to);
    this.event("Transfer", from, to, block);
  }
  move1155(kind, from, to, ids, amounts, block) {
    ids.forEach((id, i) => {
      const amount = BigInt(amounts[i]);
      if (from !== ZERO) {
        const b = this.balance.get(from)?.get(id) || 0n;
        if (b < amount) throw new Error(`plan: ${from} has ${b} of id ${id}, not ${amount}`);
        this.balance.get(from).set(id, b - amount);
      }
      if (to !== ZERO) {
        if (!this.balance.has(to)) this.balance.set(to, new Map());
        this.balance.get(to).set(id, (this.balance.get(to).get(id) || 0n) + amount);
      }
    });
    this.event(kind, from, to, block);
  }
  // holder -> { tokens, ids }: ERC-721 tokens owned (their ids), ERC-1155 units summed over ids
  // (and each id's amount); holders with nothing left are not holders.
  holders() {
    const h = {};
    if (this.type === "ERC721") {
      for (const [id, who] of this.owner) {
        h[who] ??= { tokens: 0, token_ids: [] };
        h[who].tokens++;
        h[who].token_ids.push(id);
      }
      for (const v of Object.values(h)) v.token_ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    } else {
      for (const [who, ids] of this.balance) {
        const held = [...ids].filter(([, a]) => a > 0n).sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1));
        if (!held.length) continue;
        h[who] = {
          tokens: Number(held.reduce((s, [, a]) => s + a, 0n)),
          balances: Object.fromEntries(held.map(([id, a]) => [id, a.toString()])),
        };
      }
    }
    return Object.fromEntries(Object.entries(h).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  transfers() {
    return [...this.pairs]
      .map(([k, count]) => {
        const [from, to] = k.split(" ");
        return { from, to, count };
      })
      .sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1));
  }
}

// A seeded collection on one chain: deploys it and runs its operations, keeping its ledger.
class Collection {
  constructor(chain, artifacts, spec) {
    Object.assign(this, { chain, artifacts, spec });
    this.ledger = new Ledger(spec.type);
  }
  async deploy() {
    const { type, name, symbol } = this.spec;
    const args =
      type === "ERC721"
        ? [name, symbol, wallets[this.chain.deployer].address]
        : [name, symbol, `ludis://seed/${symbol.toLowerCase()}/{id}.json`, wallets[this.chain.deployer].address];
    const contractName = type === "ERC721" ? "LudisCollection721" : "LudisCollection1155";
    const { contract, receipt } = await deploy(this.chain, this.artifacts, contractName, this.chain.deployer, args);
    this.contract = contract;
    this.address = receipt.contractAddress.toLowerCase();
    this.deploymentBlock = receipt.blockNumber;
    log(`${this.chain.name}: ${type} ${name} (${symbol}) at ${this.address}, block ${receipt.blockNumber}`);
  }
  // ERC-721
  async mint(to, id) {
    const r = await send(this.chain, this.chain.deployer, this.contract, "mint", [W[to], BigInt(id)]);
    this.ledger.move721(ZERO, W[to], String(id), r.blockNumber);
  }
  async mintBatch(to, firstId, count) {
    const r = await send(this.chain, this.chain.deployer, this.contract, "mintBatch", [to.map((i) => W[i]), BigInt(firstId), BigInt(count)]);
    for (let i = 0; i < count; i++) this.ledger.move721(ZERO, W[to[i % to.length]], String(BigInt(firstId) + BigInt(i)), r.blockNumber);
  }
  async transfer(from, to, id, by = from) {
    const r = await send(this.chain, by, this.contract, "transferFrom", [W[from], W[to], BigInt(id)]);
    this.ledger.move721(W[from], W[to], String(id), r.blockNumber);
  }
  async burn(holder, id) {
    const r = await send(this.chain, holder, this.contract, "burn", [BigInt(id)]);
    this.ledger.move721(W[holder], ZERO, String(id), r.blockNumber);
  }
  async approveAll(holder, operator) {
    await send(this.chain, holder, this.contract, "setApprovalForAll", [W[operator], true]);
  }
  // ERC-1155
  async mint1155(to, id, amount) {
    const r = await send(this.chain, this.chain.deployer, this.contract, "mint", [W[to], BigInt(id), BigInt(amount)]);
    this.ledger.move1155("TransferSingle", ZERO, W[to], [String(id)], [amount], r.blockNumber);
  }
  async mintBatch1155(to, ids, amounts) {
    const r = await send(this.chain, this.chain.deployer, this.contract, "mintBatch", [W[to], ids.map(BigInt), amounts.map(BigInt)]);
    this.ledger.move1155("TransferBatch", ZERO, W[to], ids.map(String), amounts, r.blockNumber);
  }
  async transfer1155(from, to, id, amount) {
    const r = await send(this.chain, from, this.contract, "safeTransferFrom", [W[from], W[to], BigInt(id), BigInt(amount), "0x"]);
    this.ledger.move1155("TransferSingle", W[from], W[to], [String(id)], [amount], r.blockNumber);
  }
  async batchTransfer1155(from, to, ids, amounts) {
    const r = await send(this.chain, from, this.contract, "safeBatchTransferFrom", [W[from], W[to], ids.map(BigInt), amounts.map(BigInt), "0x"]);
    this.ledger.move1155("TransferBatch", W[from], W[to], ids.map(String), amounts, r.blockNumber);
  }
  async burn1155(holder, id, amount) {
    const r = await send(this.chain, holder, this.contract, "burn", [W[holder], BigInt(id), BigInt(amount)]);
    this.ledger.move1155("TransferSingle", W[holder], ZERO, [String(id)], [amount], r.blockNumber);
  }

  // The chain must agree with the ledger: every holder's balance, every ERC-721 token's owner, and
  // the number of Transfer(-Single/-Batch) logs eth_getLogs returns.
  async verify() {
    const holders = this.ledger.holders();
    if (this.spec.type === "ERC721") {
      for (const [id, who] of this.ledger.owner) {
        const owner = (await this.contract.ownerOf(BigInt(id))).toLowerCase();
        if (owner !== who) throw new Error(`${this.spec.symbol}: token ${id} is ${owner}'s, expected ${who}`);
      }
      for (const [who, h] of Object.entries(holders)) {
        const n = await this.contract.balanceOf(who);
        if (n !== BigInt(h.tokens)) throw new Error(`${this.spec.symbol}: ${who} holds ${n}, expected ${h.tokens}`);
      }
    } else {
      for (const [who, ids] of this.ledger.balance) {
        for (const [id, amount] of ids) {
          const n = await this.contract.balanceOf(who, BigInt(id));
          if (n !== amount) throw new Error(`${this.spec.symbol}: ${who} holds ${n} of id ${id}, expected ${amount}`);
        }
      }
    }
    const logs = await this.chain.provider.send("eth_getLogs", [
      {
        address: this.address,
        fromBlock: ethers.toQuantity(this.deploymentBlock),
        toBlock: "latest",
        topics: [[TOPICS.Transfer, TOPICS.TransferSingle, TOPICS.TransferBatch]],
      },
    ]);
    const expected = Object.values(this.ledger.events).reduce((a, b) => a + b, 0);
    if (logs.length !== expected) throw new Error(`${this.spec.symbol}: ${logs.length} transfer logs, expected ${expected}`);
  }

  facts() {
    const events = this.ledger.events;
    return {
      key: this.spec.key,
      address: this.address,
      name: this.spec.name,
      symbol: this.spec.symbol,
      type: this.spec.type,
      deployment_block: this.deploymentBlock,
      last_transfer_block: this.ledger.lastBlock,
      transfer_events: Object.values(events).reduce((a, b) => a + b, 0),
      events_by_kind: { ...events },
      holders: this.ledger.holders(),
      transfers: this.ledger.transfers(),
    };
  }
}

const SPECS = {
  ETHEREUM: [
    { key: "lighthouses", type: "ERC721", name: "Ludis Lighthouses", symbol: "LLH" },
    { key: "harbour-items", type: "ERC1155", name: "Ludis Harbour Items", symbol: "LHI" },
    { key: "lanterns", type: "ERC721", name: "Ludis Lanterns", symbol: "LLN" },
  ],
  POLYGON: [{ key: "tides", type: "ERC721", name: "Ludis Tides", symbol: "LTD" }],
};

// The mints and transfers, in a fixed order (wallets by account index). The numbers in the
// comments are what follows; the seed checks them against the chain and writes them out.
const PLANS = {
  async ETHEREUM([llh, lhi, lln]) {
    // Ludis Lighthouses: tokens 1..24 to wallets 1..12 in one transaction (24 Transfer logs in
    // one receipt), a token id beyond 64 bits, then transfers: wallet 1 gives both its tokens to
    // wallet 2 (the pair counts 2, and wallet 1 holds nothing after), an operator (15) moves
    // wallet 4's token to 16 (the event names 4 and 16, not the sender 15), a token goes back and
    // forth between 5 and 6, wallet 12 burns one. 13 holders at the end.
    await llh.mintBatch([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 1, 24);
    await llh.mint(13, "1000000000000000000000000000000");
    await llh.mint(14, 25);
    await llh.transfer(1, 2, 1);
    await llh.transfer(1, 2, 13);
    await llh.transfer(2, 3, 2);
    await llh.approveAll(4, 15);
    await llh.transfer(4, 16, 4, 15);
    await llh.transfer(5, 6, 5);
    await llh.transfer(6, 5, 5);
    await llh.burn(12, 24);
    await llh.transfer(13, 7, "1000000000000000000000000000000");
    // Ludis Harbour Items (ERC-1155): ids 1-3 minted as a batch to wallet 20 and singly to 2, 3
    // and 17 (2 and 3 hold Lighthouses too), single and batch transfers, a burn (17 holds nothing
    // after). 7 holders, 3 of them Lighthouses holders: 3/13 of Lighthouses' holders (23 %).
    await lhi.mintBatch1155(20, [1, 2, 3], [10, 5, 1]);
    await lhi.mint1155(2, 1, 3);
    await lhi.mint1155(3, 2, 1);
    await lhi.mint1155(17, 1, 2);
    await lhi.transfer1155(20, 21, 1, 4);
    await lhi.batchTransfer1155(20, 22, [1, 2], [1, 2]);
    await lhi.transfer1155(20, 5, 3, 1);
    await lhi.burn1155(17, 1, 2);
    await lhi.transfer1155(21, 23, 1, 1);
    // Ludis Lanterns: 3 holders, one of them (8) a Lighthouses holder: 1/13 of Lighthouses'
    // holders (7.7 %, under the 10 % that makes an overlap bubble).
    await lln.mint(24, 1);
    await lln.mint(25, 2);
    await lln.mint(8, 3);
    await lln.transfer(24, 26, 1);
  },
  async POLYGON([ltd]) {
    // Ludis Tides: tokens 100..107 to wallets 1, 3, 27 and 28 in turn, then three transfers.
    await ltd.mintBatch([1, 3, 27, 28], 100, 8);
    await ltd.transfer(27, 1, 102);
    await ltd.transfer(1, 9, 100);
    await ltd.transfer(28, 27, 103);
  },
};

// Overlap of holders, for every ordered pair of collections: the share of the base collection's
// holders that also hold the other (the overlap graph's bubble; it counts pairs at 10 % or more).
function overlaps(all) {
  const out = [];
  for (const a of all) {
    for (const b of all) {
      if (a === b) continue;
      const ha = Object.keys(a.facts.holders);
      const hb = new Set(Object.keys(b.facts.holders));
      const shared = ha.filter((w) => hb.has(w));
      out.push({
        base: { chain: a.chain, address: a.facts.address, key: a.facts.key },
        other: { chain: b.chain, address: b.facts.address, key: b.facts.key },
        same_chain: a.chain === b.chain,
        base_holders: ha.length,
        shared_holders: shared.length,
        percent: Math.round((shared.length * 10000) / ha.length) / 100,
        shared_wallets: shared,
        // tokens of the other collection that the shared wallets hold
        other_tokens_held: shared.reduce((s, w) => s + b.facts.holders[w].tokens, 0),
      });
    }
  }
  return out;
}

async function seed(args) {
  const started = Date.now();
  const urls = {
    ETHEREUM: args.ethereum || process.env.LUDIS_WEB3_RPC_ETHEREUM,
    POLYGON: args.polygon || process.env.LUDIS_WEB3_RPC_POLYGON,
  };
  const stateDir = process.env.LUDIS_STATE || path.join(os.homedir(), ".local/state/ludis");
  const outFile = args.out || path.join(stateDir, "chain", "deployed.json");
  for (const [name, url] of Object.entries(urls)) {
    if (!url) throw new Error(`no RPC URL for ${name} (--${name.toLowerCase()} or LUDIS_WEB3_RPC_${name}; eval "$(dev/chain.sh env)")`);
  }
  const artifacts = compile();
  const chains = {};
  const all = [];
  for (const name of Object.keys(SPECS)) {
    const chain = { name, deployer: DEPLOYERS[name], ...(await connect(urls[name])) };
    const sent = await chain.provider.getTransactionCount(W[chain.deployer]);
    if (sent !== 0) {
      throw new Error(`${name} at ${chain.url} is not fresh (the deployer has sent ${sent} transactions): restart it (dev/chain.sh down && dev/chain.sh up)`);
    }
    const collections = [];
    for (const spec of SPECS[name]) {
      const c = new Collection(chain, artifacts, spec);
      await c.deploy();
      collections.push(c);
    }
    // Not a collection: an ERC-20 with code, a name and a symbol but no ERC-165 (ETHEREUM only).
    let notACollection = null;
    if (name === "ETHEREUM") {
      const { contract, receipt } = await deploy(chain, artifacts, "LudisPoints", chain.deployer, [wallets[chain.deployer].address, 10n ** 24n]);
      await send(chain, chain.deployer, contract, "transfer", [W[1], 10n ** 18n]); // an ERC-20 Transfer log (same topic, 3 topics)
      notACollection = { address: receipt.contractAddress.toLowerCase(), type: "ERC20", name: "Ludis Points", symbol: "LPT", deployment_block: receipt.blockNumber };
    }
    await PLANS[name](collections);
    for (const c of collections) await c.verify();
    const facts = collections.map((c) => c.facts());
    chains[name] = {
      chain_id: chain.chainId,
      rpc_url: chain.url,
      deployer: W[chain.deployer],
      eoa: W[1], // a wallet: it has sent transactions and holds tokens, but has no code
      not_a_collection: notACollection,
      last_block: await chain.provider.getBlockNumber(),
      collections: facts,
    };
    facts.forEach((f) => all.push({ chain: name, facts: f }));
    log(`${name}: seeded (chain id ${chain.chainId}, ${chains[name].last_block} blocks)`);
  }
  const overlap = overlaps(all);
  // What the data is for: one pair of collections of a chain overlaps by 10 % or more, another by
  // less (but not none).
  if (!overlap.some((o) => o.same_chain && o.percent >= 10)) throw new Error("plan: no overlap of 10 % or more");
  if (!overlap.some((o) => o.same_chain && o.percent > 0 && o.percent < 10)) throw new Error("plan: no overlap under 10 %");
  const doc = {
    version: 1,
    written_by: "seeds/web3/seed.mjs",
    mnemonic: MNEMONIC,
    bench_wallet: W[BENCH],
    wallets: W,
    topics: TOPICS,
    chains,
    overlaps: overlap,
  };
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile + ".tmp", JSON.stringify(doc, null, 2) + "\n");
  fs.renameSync(outFile + ".tmp", outFile);
  log(`wrote ${outFile} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

async function bulk(args) {
  const transfers = Number(args.transfers);
  const batch = Number(args.batch || 500);
  if (!Number.isInteger(transfers) || transfers <= 0) throw new Error("--transfers N: a positive whole number");
  if (!Number.isInteger(batch) || batch <= 0 || batch > 2000) throw new Error("--batch B: 1 to 2000");
  if (!args.rpc) throw new Error("--rpc URL is required (e.g. $LUDIS_WEB3_RPC_ETHEREUM)");
  const started = Date.now();
  const chain = { name: "bulk", ...(await connect(args.rpc)) };
  const artifacts = compile();
  const deployStarted = Date.now();
  const n = await chain.provider.getTransactionCount(W[BENCH]);
  const { abi, bytecode } = artifacts.LudisCollection721;
  const factory = new ethers.ContractFactory(abi, bytecode, wallets[BENCH].connect(chain.provider));
  const tx = await wallets[BENCH].connect(chain.provider).sendTransaction(
    await factory.getDeployTransaction(`Ludis Bench ${n}`, "LBN", wallets[BENCH].address),
  );
  let receipt;
  while (!(receipt = await chain.provider.getTransactionReceipt(tx.hash))) await sleep(20);
  const contract = new ethers.Contract(receipt.contractAddress, abi, chain.provider);
  const recipients = [];
  for (let i = 1; i < WALLET_COUNT; i++) if (i !== BENCH) recipients.push(i);
  let firstBlock = null;
  let lastBlock = null;
  let txs = 0;
  for (let first = 0; first < transfers; first += batch) {
    const count = Math.min(batch, transfers - first);
    // Recipients continue in turn across batches; a fixed gas limit (no estimate: ~25k per mint).
    const rotated = recipients.map((_, i) => W[recipients[(first + i) % recipients.length]]);
    const r = await send(chain, BENCH, contract, "mintBatch", [rotated, BigInt(first + 1), BigInt(count)], {
      gasLimit: 100_000 + 40_000 * count,
    });
    firstBlock ??= r.blockNumber;
    lastBlock = r.blockNumber;
    txs++;
    if (txs % 50 === 0) log(`${first + count} of ${transfers} Transfer events (block ${r.blockNumber})`);
  }
  const seconds = (Date.now() - deployStarted) / 1000;
  const result = {
    rpc_url: chain.url,
    chain_id: chain.chainId,
    address: receipt.contractAddress.toLowerCase(),
    name: `Ludis Bench ${n}`,
    symbol: "LBN",
    type: "ERC721",
    deployment_block: receipt.blockNumber,
    from_block: firstBlock,
    to_block: lastBlock,
    transfer_events: transfers,
    transactions: txs,
    per_transaction: batch,
    holders: Math.min(recipients.length, transfers),
    seconds: Math.round(seconds * 10) / 10,
    seconds_with_compile: Math.round((Date.now() - started) / 100) / 10,
  };
  log(`${transfers} Transfer events on ${result.address}, blocks ${firstBlock}..${lastBlock}, ${txs} transactions in ${result.seconds}s`);
  console.log(JSON.stringify(result));
}

const USAGE = "usage: node seeds/web3/seed.mjs seed [--ethereum URL] [--polygon URL] [--out FILE]\n" +
  "       node seeds/web3/seed.mjs bulk --transfers N --rpc URL [--batch B]";
try {
  const args = parseArgs(process.argv.slice(2));
  const mode = args._[0];
  if (mode === "seed") await seed(args);
  else if (mode === "bulk") await bulk(args);
  else {
    console.error(USAGE);
    process.exit(2);
  }
} catch (e) {
  console.error(`[seed] error: ${e.message}`);
  process.exit(1);
}
