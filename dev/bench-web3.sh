#!/usr/bin/env bash
# Indexing a collection's transfers from the local chain (issue 18): deploys a fresh ERC-721 on the
# local ETHEREUM chain (dev/chain.sh) and mints BENCH_TRANSFERS (default 100,000) tokens to the
# seed's wallets, 500 per transaction (seeds/web3/seed.mjs bulk: that many Transfer logs), then
# times the API's indexer (logs read in block ranges, decoded, stored in SQLite) against a plain
# eth_getLogs loop over the same ranges with the same client, alternating (api/examples/web3_bench.rs).
# Prints transfers/s of both and the ratio (goal >= 0.8x), for two range sizes.
#   dev/bench-web3.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
TRANSFERS=${BENCH_TRANSFERS:-100000}

"$DEV_DIR/chain.sh" up >&2
eval "$("$DEV_DIR/chain.sh" env)"
log "deploying a collection with $TRANSFERS transfers (seeds/web3/seed.mjs bulk)"
made=$(node seeds/web3/seed.mjs bulk --transfers "$TRANSFERS" --rpc "$LUDIS_WEB3_RPC_ETHEREUM") || die "the bulk collection was not made"
address=$(jq -r .address <<<"$made")
from=$(jq -r .from_block <<<"$made")
to=$(jq -r .to_block <<<"$made")
log "building the benchmark (release)"
cargo build --release --locked --quiet -p ludis-api --example web3_bench
# Two range sizes: the indexer's default (2,000 blocks: here one call answering all 100,000 logs,
# more than hosted providers answer at once) and 10 blocks (5,000 logs a call, 20 calls).
for range in ${BENCH_BLOCK_RANGES:-2000 10}; do
  log "indexing $address, blocks $from..$to, $range blocks a call"
  "$CARGO_TARGET_DIR/release/examples/web3_bench" "$LUDIS_WEB3_RPC_ETHEREUM" "$address" "$from" "$to" "$range" "${BENCH_ROUNDS:-3}"
done
echo "  Ludis $(cargo pkgid -p ludis-api | sed 's/.*[#@]//'), alloy $(grep -A1 '^name = "alloy"$' Cargo.lock | sed -n 's/version = "\(.*\)"/\1/p'), Hardhat $(jq -r '.packages["node_modules/hardhat"].version' dev/chain/package-lock.json), $(nproc) cores"
