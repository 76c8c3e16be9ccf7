#!/usr/bin/env bash
# The local Ethereum chains of web3 collections: two in-memory Hardhat nodes (`hardhat node`, its
# Rust EDR engine, from the npm package pinned in dev/chain/package.json and package-lock.json;
# Hardhat 2, as Hardhat 3 needs Node 22 and our machines have Node 20), one per chain the API
# knows, each with a chain id of its own, on 127.0.0.1 only:
#   ETHEREUM  chain id 31337  http://127.0.0.1:$LUDIS_CHAIN_ETHEREUM_PORT (29545)
#   POLYGON   chain id 31338  http://127.0.0.1:$LUDIS_CHAIN_POLYGON_PORT (29546)
# After starting them, `up` seeds them (seeds/web3/seed.mjs: ERC-721 and ERC-1155 collections, a
# fixed set of mints and transfers) and writes what the indexer must find to
# $LUDIS_STATE/chain/deployed.json. The chains live in memory: every start seeds them anew, with
# the same addresses, blocks and counts.
# The packages (Hardhat, solc-js, ethers, OpenZeppelin's contracts; about 330 MB) are installed with
# `npm ci` once into $LUDIS_CACHE/chain/<hash of the lock>/, never into the repository.
# Offline: no forking, no solc download (the seed compiles with solc-js), and Hardhat's telemetry
# declined in a private config folder, its prompt off, and no terminal (no update banner).
#   dev/chain.sh up | down | purge | status | env
# `status` exits 0 when both run, 3 when not; `env` prints the API's settings for them as shell
# exports: eval "$(dev/chain.sh env)" sets LUDIS_WEB3_RPC_ETHEREUM and LUDIS_WEB3_RPC_POLYGON.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

CHAINS=(ETHEREUM POLYGON)
chain_id() { case $1 in ETHEREUM) echo 31337 ;; POLYGON) echo 31338 ;; esac; }
chain_port() { case $1 in ETHEREUM) echo "$LUDIS_CHAIN_ETHEREUM_PORT" ;; POLYGON) echo "$LUDIS_CHAIN_POLYGON_PORT" ;; esac; }
chain_url() { echo "http://127.0.0.1:$(chain_port "$1")"; }
chain_name() { echo "${1,,}"; } # its pid file, log and folder: ethereum, polygon

D=$LUDIS_STATE/chain
LOCK=$DEV_DIR/chain/package-lock.json
# The install folder: the lock's hash names it (seeds/web3/seed.mjs computes the same).
PKG_DIR=$LUDIS_CACHE/chain/$(sha256sum "$LOCK" | cut -c1-10)
MODULES=$PKG_DIR/node_modules

rpc() { # rpc URL METHOD [PARAMS-JSON]: the result, or nothing
  curl -fsS --max-time 5 -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$2\",\"params\":${3:-[]}}" "$1" 2>/dev/null | jq -r '.result // empty' 2>/dev/null
}
answers() { [ "$(rpc "$(chain_url "$1")" eth_chainId)" = "$(printf '0x%x' "$(chain_id "$1")")" ]; }
running() { pid_alive "$D/pids/$(chain_name "$1").pid" && answers "$1"; }
answers_or_exited() { answers "$1" || ! pid_alive "$D/pids/$(chain_name "$1").pid"; }
all_running() { running ETHEREUM && running POLYGON; }
# Stop both nodes. A node's threads may still hold its port for a moment after its main thread
# is gone (stop_pidfile's test), so a stop also waits (up to 10 s) until the port is free.
stop_all() {
  local c pidfile port
  for c in "${CHAINS[@]}"; do
    pidfile=$D/pids/$(chain_name "$c").pid
    if ! pid_alive "$pidfile"; then
      rm -f "$pidfile"
      continue
    fi
    stop_pidfile "$pidfile"
    port=$(chain_port "$c")
    for _ in $(seq 1 100); do port_in_use "$port" || break; sleep 0.1; done
  done
}

# The packages, installed once per lock. They are installed beside their final folder (one folder
# per installing process) and renamed at the end, so an interrupted install is never taken for a
# finished one. --ignore-scripts: nothing runs at install (Hardhat's native engine is a prebuilt
# package; nothing is compiled or downloaded by a script).
install() {
  [ -x "$MODULES/.bin/hardhat" ] && return 0
  command -v npm >/dev/null || die "npm is missing (this machine kind provides Node and npm)"
  local logfile=$LUDIS_CACHE/logs/chain-install.log tmp rc=0
  mkdir -p "$LUDIS_CACHE/chain" "$LUDIS_CACHE/logs"
  for tmp in "$PKG_DIR".tmp.*; do # left by interrupted installs
    [ -d "$tmp" ] && ! kill -0 "${tmp##*.}" 2>/dev/null && rm -rf "$tmp"
  done
  tmp=$PKG_DIR.tmp.$$
  log "installing the local chains' packages (Hardhat, solc-js, ethers, OpenZeppelin's contracts; about 330 MB) into $PKG_DIR"
  mkdir -p "$tmp" && cp "$DEV_DIR/chain/package.json" "$LOCK" "$tmp/"
  (cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --no-update-notifier) >"$logfile" 2>&1 || rc=$?
  if [ "$rc" != 0 ] || [ ! -x "$tmp/node_modules/.bin/hardhat" ]; then
    echo "--- last lines of $logfile:" >&2
    tail -n 15 "$logfile" >&2
    rm -rf "$tmp"
    die "installing the local chains' packages failed: \`npm ci\` of dev/chain/package-lock.json exited with $rc (is the npm registry reachable? log: $logfile)"
  fi
  # Another install may have finished first: then its folder stays and this one goes.
  mv -T "$tmp" "$PKG_DIR" 2>/dev/null || rm -rf "$tmp"
  [ -x "$MODULES/.bin/hardhat" ] || die "installing the local chains' packages failed: $PKG_DIR is incomplete"
}

start_node() {
  local c=$1 name dir
  name=$(chain_name "$c")
  dir=$D/$name
  # Hardhat keeps its telemetry consent, analytics id and caches in the XDG folders: private
  # ones, with the consent declined (no analytics, no error reports), whatever the user's are.
  rm -rf "$dir"
  mkdir -p "$dir/xdg/config/hardhat-nodejs" "$dir/xdg/data" "$dir/xdg/cache"
  echo '{"consent":false}' >"$dir/xdg/config/hardhat-nodejs/telemetry-consent.json"
  XDG_CONFIG_HOME=$dir/xdg/config XDG_DATA_HOME=$dir/xdg/data XDG_CACHE_HOME=$dir/xdg/cache \
    HARDHAT_DISABLE_TELEMETRY_PROMPT=true HARDHAT_HIDE_SOLIDITY_SURVEY_MESSAGE=true \
    HARDHAT_EXPERIMENTAL_ALLOW_NON_LOCAL_INSTALLATION=true \
    LUDIS_CHAIN_ID=$(chain_id "$c") LUDIS_CHAIN_DIR=$dir \
    start_bg "$name" "$D" "$MODULES/.bin/hardhat" --config "$DEV_DIR/chain/hardhat.config.cjs" \
    node --hostname 127.0.0.1 --port "$(chain_port "$c")"
}

up() {
  if all_running && [ -s "$D/deployed.json" ]; then
    ok "the local chains are already running: ETHEREUM at $(chain_url ETHEREUM), POLYGON at $(chain_url POLYGON)"
    return 0
  fi
  if compgen -G "$D/pids/*.pid" >/dev/null; then
    log "cleaning up partly running local chains (they are seeded anew)"
  fi
  stop_all
  rm -f "$D/deployed.json"
  command -v node >/dev/null || die "node is missing (this machine kind provides Node and npm)"
  install
  local c start
  start=$(now)
  for c in "${CHAINS[@]}"; do
    require_free_port "the local chain $c (Hardhat's node)" "$(chain_port "$c")" "(set LUDIS_CHAIN_${c}_PORT to use another)"
  done
  mkdir -p "$D"
  trap stop_all EXIT # a failed start leaves no node behind
  for c in "${CHAINS[@]}"; do start_node "$c"; done
  for c in "${CHAINS[@]}"; do
    local name logfile
    name=$(chain_name "$c")
    logfile=$D/logs/$name.log
    wait_for "the local chain $c (Hardhat's node)" 120 "$logfile" answers_or_exited "$c"
    if ! pid_alive "$D/pids/$name.pid"; then
      echo "--- last lines of $logfile:" >&2
      tail -n 15 "$logfile" >&2
      die "the local chain $c (Hardhat's node) exited at start (log: $logfile)"
    fi
  done
  log "the local chains answer ($(elapsed "$start")s); seeding them (seeds/web3/seed.mjs)"
  if ! LUDIS_CHAIN_MODULES=$MODULES node "$REPO_DIR/seeds/web3/seed.mjs" seed --ethereum "$(chain_url ETHEREUM)" \
    --polygon "$(chain_url POLYGON)" --out "$D/deployed.json" >"$D/logs/seed.log" 2>&1; then
    echo "--- last lines of $D/logs/seed.log:" >&2
    tail -n 15 "$D/logs/seed.log" >&2
    die "seeding the local chains failed (log: $D/logs/seed.log)"
  fi
  trap - EXIT
  ok "the local chains run: ETHEREUM (chain id 31337) at $(chain_url ETHEREUM), POLYGON (chain id 31338) at $(chain_url POLYGON); seeded, facts in $D/deployed.json (started in $(elapsed "$start")s)"
}

status() {
  local c rc=0 block
  for c in "${CHAINS[@]}"; do
    if running "$c"; then
      block=$(rpc "$(chain_url "$c")" eth_blockNumber)
      echo "$c running at $(chain_url "$c") (chain id $(chain_id "$c"), block $((block)))"
    else
      echo "$c stopped"
      rc=3
    fi
  done
  if [ $rc = 0 ] && [ -s "$D/deployed.json" ]; then echo "seeded: $D/deployed.json"; fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  # The chains live in memory: what deployed.json describes goes with them.
  down) stop_all && rm -f "$D/deployed.json" && ok "the local chains stopped" ;;
  purge) stop_all && rm -rf "$D" && ok "the local chains stopped and their state removed" ;;
  status) status ;;
  env)
    all_running || die "the local chains are not running (dev/chain.sh up)"
    printf 'export LUDIS_WEB3_RPC_ETHEREUM=%q\nexport LUDIS_WEB3_RPC_POLYGON=%q\n' "$(chain_url ETHEREUM)" "$(chain_url POLYGON)"
    ;;
  *) die "usage: dev/chain.sh up|down|purge|status|env" ;;
esac
