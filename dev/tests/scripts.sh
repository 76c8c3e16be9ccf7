#!/usr/bin/env bash
# Tests of the dev scripts' own behaviour, against the cluster that dev/test.sh started:
# a second start, recovery from a dead component, clear failures (taken port, failed build,
# timeout), the S3 server's CORS answers (a second instance in a scratch state), the real node
# leaving the machine as it found it (nothing left running or mounted after stop, kernel settings
# and iptables untouched, purge), the assistant's local model, and the local Ethereum chains (their
# own pair in a scratch state, on free ports). Run by dev/test.sh as its last phase.
set -uo pipefail
DEV=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && sed 's/^/       /' <<<"$2"; }
check() { # check NAME OUTPUT PATTERN
  if grep -qF -- "$3" <<<"$2"; then pass "$1"; else fail "$1 (expected: $3)" "$2"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids_of() { pgrep -f -- "$1" | sort | tr '\n' ' '; }

: "${LUDIS_STATE:?run through dev/test.sh}"
C=$LUDIS_STATE/cluster

# 1. A second start finds the running cluster and starts nothing.
before=$(cat "$C"/pids/*.pid | sort | tr '\n' ' ')
out=$("$DEV/cluster.sh" up 2>&1)
check "second start finds the running cluster" "$out" "the local cluster is already running"
after=$(cat "$C"/pids/*.pid | sort | tr '\n' ' ')
[ "$before" = "$after" ] && pass "second start keeps the same processes" || fail "second start keeps the same processes" "$before -> $after"

# 2. A stale cluster (one component died) is cleaned up and started again.
kill -9 "$(cat "$C/pids/kube-scheduler.pid")"
sleep 0.5
out=$("$DEV/cluster.sh" up 2>&1)
rc=$?
check "a partly running cluster is cleaned up" "$out" "cleaning up a partly running cluster"
status=$("$DEV/cluster.sh" status 2>&1)
if [ $rc = 0 ] && grep -q "kube-scheduler .*running" <<<"$status" && grep -q "readyz: ok" <<<"$status"; then
  pass "the cluster runs again after recovery"
else
  fail "the cluster runs again after recovery" "$out$status"
fi

# 3. A taken port fails with the component, the port and who holds it.
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
tmp=$(mktemp -d)
out=$(LUDIS_STATE=$tmp LUDIS_S3_PORT=$port "$DEV/s3.sh" up 2>&1)
rc=$?
[ $rc != 0 ] && pass "a taken port fails the start" || fail "a taken port fails the start" "$out"
check "the port error names the component and port" "$out" "S3 server (s3-server) cannot start: port $port on 127.0.0.1 is taken"
check "the port error names the holder" "$out" "python3"
kill "$holder"
wait "$holder" 2>/dev/null

# 4. A failed build names the component and its log (here: offline, with no module cache).
out=$(LUDIS_CACHE=$tmp/cache GOMODCACHE=$tmp/modcache GOPROXY=off "$DEV/build-tools.sh" etcd 2>&1)
rc=$?
[ $rc != 0 ] && pass "a failed build fails" || fail "a failed build fails" "$out"
check "the build error names the component and log" "$out" "building etcd failed after"
check "the build error points at the log file" "$out" "(full log: $tmp/cache/logs/build-etcd.log)"

# 5. A component that never becomes ready fails with its name and log, within the timeout.
out=$(bash -c "source '$DEV/lib.sh'; echo 'boom' > '$tmp/x.log'; wait_for 'the widget' 1 '$tmp/x.log' false" 2>&1)
rc=$?
[ $rc != 0 ] && pass "a timeout fails" || fail "a timeout fails" "$out"
check "the timeout names the component and log" "$out" "the widget did not become ready within 1s (log: $tmp/x.log)"
check "the timeout shows the log's last lines" "$out" "boom"

# 6. A second S3 server (scratch state, one allowed browser origin) answers CORS, then its stop
#    leaves no process behind.
s3port=$(free_port)
s3=http://127.0.0.1:$s3port
console=http://localhost:8080
LUDIS_STATE=$tmp LUDIS_S3_PORT=$s3port LUDIS_S3_CORS_ORIGINS=$console "$DEV/s3.sh" up >/dev/null 2>&1 &&
  pass "S3 server starts on another port" || fail "S3 server starts on another port"
[ -n "$(pids_of "$tmp/s3/data")" ] && pass "S3 server process runs" || fail "S3 server process runs"
# curl -i: status line and headers; header names lower-cased, CRs dropped.
http() { curl -sS -i "$@" 2>&1 | tr -d '\r' | sed -E 's/^([A-Za-z0-9-]+):/\L\1:/'; }
out=$(http -X OPTIONS "$s3/ludis/up/a.csv?X-Amz-Signature=x" -H "Origin: $console" \
  -H "Access-Control-Request-Method: PUT" -H "Access-Control-Request-Headers: content-type, x-amz-meta-a")
check "a preflight from the console's origin answers 204" "$out" "HTTP/1.1 204"
check "the preflight allows the origin" "$out" "access-control-allow-origin: $console"
check "the preflight allows the methods" "$out" "access-control-allow-methods: GET, PUT, HEAD, POST, DELETE"
check "the preflight allows the requested headers" "$out" "access-control-allow-headers: content-type, x-amz-meta-a"
check "the preflight may be cached" "$out" "access-control-max-age: 3600"
check "the preflight varies by origin" "$out" "vary: Origin"
out=$(http -X OPTIONS "$s3/ludis/up/a.csv" -H "Origin: http://evil.example" -H "Access-Control-Request-Method: PUT")
check "a preflight from another origin is refused" "$out" "HTTP/1.1 403"
grep -q '^access-control-allow' <<<"$out" && fail "a refused preflight allows nothing" "$out" ||
  pass "a refused preflight allows nothing"
out=$(http "$s3/ludis/up/a.csv" -H "Origin: $console")
check "an unsigned GET is refused by S3 authentication" "$out" "HTTP/1.1 403"
check "the refusal names the missing signature" "$out" "<Code>AccessDenied</Code>"
check "the refusal carries the allowed origin" "$out" "access-control-allow-origin: $console"
check "the refusal exposes the S3 headers" "$out" \
  "access-control-expose-headers: ETag, Content-Length, Content-Type, Content-Disposition, x-amz-request-id"
out=$(http "$s3/ludis/up/a.csv" -H "Origin: http://evil.example")
check "an unsigned GET from another origin is refused too" "$out" "HTTP/1.1 403"
grep -q '^access-control-allow-origin' <<<"$out" && fail "another origin gets no allow header" "$out" ||
  pass "another origin gets no allow header"
LUDIS_STATE=$tmp "$DEV/s3.sh" down >/dev/null 2>&1
left=$(pids_of "$tmp/s3/data")
[ -z "$left" ] && pass "S3 stop leaves no process" || fail "S3 stop leaves no process" "$left"

# 7. Without an origin list, every origin may call (`*`); SIGTERM stops the server cleanly.
s3port=$(free_port)
mkdir -p "$tmp/s3-any/ludis"
bin="$(bash -c "source '$DEV/lib.sh'; tool_dir s3-server")/s3-server"
"$bin" --host 127.0.0.1 --port "$s3port" --access-key k --secret-key s "$tmp/s3-any" >"$tmp/s3-any.log" 2>&1 &
any=$!
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$s3port") 2>/dev/null && break; sleep 0.1; done
check "the server logs where it runs" "$(cat "$tmp/s3-any.log")" "server is running at http://127.0.0.1:$s3port"
out=$(http -X OPTIONS "http://127.0.0.1:$s3port/ludis/x" -H "Origin: http://anywhere.example" \
  -H "Access-Control-Request-Method: GET")
check "without an origin list a preflight answers 204" "$out" "HTTP/1.1 204"
check "without an origin list every origin is allowed" "$out" "access-control-allow-origin: *"
kill -TERM "$any"
wait "$any"
rc=$?
[ $rc = 0 ] && pass "SIGTERM stops the S3 server cleanly" || fail "SIGTERM stops the S3 server cleanly" "exit $rc"
check "the server logs its stop" "$(cat "$tmp/s3-any.log")" "server is stopped"
left=$(pids_of "$tmp/s3-any")
[ -z "$left" ] && pass "the second S3 server leaves no process" || fail "the second S3 server leaves no process" "$left"

# 8. The real node: while it runs a pod, the machine's kernel settings, iptables rules and ipsets
#    are the ones it had before the node started (kubelet's settings and the NetworkPolicy
#    enforcer's rules and ipsets are the node's own); after a stop,
#    no process, mount, network namespace, link, route or cgroup of the node is left; a purge also
#    removes its state and releases its address slot.
N=$LUDIS_STATE/node
kubectl() { "$(bash -c "source '$DEV/lib.sh'; tool_dir kubernetes")/kubectl" --kubeconfig "$C/kubeconfig" "$@"; }
eval "$("$DEV/node.sh" plan)"
machine() {
  sysctl -n vm.overcommit_memory kernel.panic kernel.panic_on_oops net.ipv4.ip_forward net.ipv6.conf.all.forwarding
  for t in filter nat mangle raw; do iptables -t "$t" -S; ip6tables -t "$t" -S; done 2>&1
  ipset list -n 2>&1
}
node_traces() {
  pids_of "$N/"
  pids_of "bind=$NODE_HOST_IP"
  ip netns list 2>/dev/null | grep -w "$NODE_NETNS"
  ip -o link show "$NODE_VETH" 2>/dev/null
  ip route | grep -F -e "$NODE_POD_CIDR" -e "$NODE_SVC_CIDR"
  ls -d /sys/fs/cgroup/"$NODE_CGROUP" /sys/fs/cgroup/*/"$NODE_CGROUP" 2>/dev/null
  grep -F "$LUDIS_STATE" /proc/self/mountinfo
}
"$DEV/cluster.sh" down >/dev/null 2>&1
before=$(machine)
"$DEV/cluster.sh" up >/dev/null 2>&1 && pass "the cluster starts again with its node" || fail "the cluster starts again with its node"
image=$(grep -o 'git=[^ ]*' "$N/node.env" | cut -d= -f2)
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: scripts-probe, namespace: default}
spec:
  tolerations: [{key: ludis.dev/workloads, operator: Exists, effect: NoSchedule}]
  containers: [{name: main, image: "$image", args: [sleep, infinity]}]
EOF
if kubectl wait --for=condition=Ready pod/scripts-probe --timeout=60s >/dev/null 2>&1; then
  pass "a pod runs on the node"
else
  fail "a pod runs on the node" "$(kubectl describe pod scripts-probe 2>&1 | tail -n 15)"
fi
during=$(machine)
[ "$during" = "$before" ] && pass "the running node leaves the machine's kernel settings and iptables rules alone" ||
  fail "the running node leaves the machine's kernel settings and iptables rules alone" "$(diff <(echo "$before") <(echo "$during"))"
inside=$("$DEV/node.sh" exec sh -c 'echo $(cat /proc/sys/vm/overcommit_memory) $(cat /proc/sys/kernel/panic)' 2>&1)
check "kubelet's kernel settings are the node's own" "$inside" "1 10"
grep -q "^kube-router  *running" <<<"$("$DEV/node.sh" status 2>&1)" && pass "the node runs its NetworkPolicy enforcer" ||
  fail "the node runs its NetworkPolicy enforcer" "$("$DEV/node.sh" status 2>&1)"
inside=$("$DEV/node.sh" exec sh -c 'iptables -w -S KUBE-ROUTER-FORWARD | head -n 1; ipset list -n | wc -l' 2>&1)
check "the enforcer's rules and ipsets are the node's own" "$inside" "-N KUBE-ROUTER-FORWARD"
"$DEV/cluster.sh" down >/dev/null 2>&1
sleep 0.5
left=$(pids_of "$C/")
[ -z "$left" ] && pass "cluster stop leaves no process" || fail "cluster stop leaves no process" "$(ps -o pid,cmd -p ${left// /,} 2>&1)"
left=$(node_traces)
[ -z "$left" ] && pass "node stop leaves no process, namespace, link, route, cgroup or mount" ||
  fail "node stop leaves no process, namespace, link, route, cgroup or mount" "$left"
after=$(machine)
[ "$after" = "$before" ] && pass "after the node, the machine's kernel settings and iptables rules are as before" ||
  fail "after the node, the machine's kernel settings and iptables rules are as before" "$(diff <(echo "$before") <(echo "$after"))"
slot=$(cat "$N/slot")
"$DEV/node.sh" purge >/dev/null 2>&1
[ ! -e "$N" ] && pass "purge removes the node's state and images" || fail "purge removes the node's state and images" "$(ls "$N")"
[ "$(cat "${LUDIS_CACHE:-$HOME/.cache/ludis}/node-slots/$slot" 2>/dev/null)" != "$LUDIS_STATE" ] && pass "purge releases the node's address slot" ||
  fail "purge releases the node's address slot"

# 9. The assistant's local model (dev/test.sh started it): a second start keeps its process; it
#    listens on 127.0.0.1 only and streams an answer for its key, none without; a taken port and a
#    failed install (no package index) fail clearly and leave no half-made virtualenv; a stop leaves
#    no process and frees the port; the next start reuses the installed model.
A=$LUDIS_STATE/ai
AI_PORT=${LUDIS_AI_PORT:-29100}
before=$(cat "$A/pids/ai-server.pid" 2>/dev/null)
out=$("$DEV/ai.sh" up 2>&1)
check "second start finds the running local model" "$out" "the assistant's local model is already running"
[ -n "$before" ] && [ "$before" = "$(cat "$A/pids/ai-server.pid")" ] && pass "second start keeps the local model's process" ||
  fail "second start keeps the local model's process" "$before -> $(cat "$A/pids/ai-server.pid")"
out=$(ss -ltnH "sport = :$AI_PORT" | awk '{print $4}')
[ "$out" = "127.0.0.1:$AI_PORT" ] && pass "the local model listens on 127.0.0.1 only" ||
  fail "the local model listens on 127.0.0.1 only" "$out"
grep -qF -- "$(cat "$A/key")" "/proc/$(cat "$A/pids/ai-server.pid")/cmdline" &&
  fail "the key is not on the local model's command line" || pass "the key is not on the local model's command line"
ai_env=$("$DEV/ai.sh" env 2>&1)
check "env names the local model's URL" "$ai_env" "export LUDIS_AI_URL=http://127.0.0.1:$AI_PORT/v1"
check "env names the model" "$ai_env" "export LUDIS_AI_MODEL=smollm2-135m-instruct"
out=$(eval "$ai_env" && curl -sS -N --max-time 60 "$LUDIS_AI_URL/chat/completions" -H "Authorization: Bearer $LUDIS_AI_KEY" \
  -H 'Content-Type: application/json' \
  -d '{"model":"smollm2-135m-instruct","stream":true,"max_tokens":16,"messages":[{"role":"user","content":"Say hello"}]}' 2>&1)
check "the local model streams chunks" "$out" '"object":"chat.completion.chunk"'
check "the stream carries text" "$out" '"delta":{"content":"'
check "the stream ends" "$out" "data: [DONE]"
out=$(curl -sS -w ' %{http_code}' --max-time 10 "http://127.0.0.1:$AI_PORT/v1/chat/completions" -H 'Content-Type: application/json' \
  -d '{"messages":[{"role":"user","content":"hi"}]}' 2>&1)
check "without its key the local model answers 401" "$out" " 401"
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
out=$(LUDIS_STATE=$tmp LUDIS_AI_PORT=$port "$DEV/ai.sh" up 2>&1)
rc=$?
[ $rc != 0 ] && pass "a taken port fails the local model's start" || fail "a taken port fails the local model's start" "$out"
check "the port error names the local model and port" "$out" "the assistant's model server (dev/ai/serve.py) cannot start: port $port on 127.0.0.1 is taken"
kill "$holder"
wait "$holder" 2>/dev/null
mkdir -p "$tmp/no-wheels"
out=$(LUDIS_STATE=$tmp LUDIS_CACHE=$tmp/cache LUDIS_AI_PORT=$(free_port) PIP_NO_INDEX=1 PIP_FIND_LINKS=$tmp/no-wheels \
  "$DEV/ai.sh" up 2>&1)
rc=$?
[ $rc != 0 ] && pass "a failed install fails the local model's start" || fail "a failed install fails the local model's start" "$out"
check "the install error names the command" "$out" "installing the assistant's local model failed: \`pip install --only-binary=:all: --no-deps xllamacpp=="
[ -z "$(ls -A "$tmp/cache/ai" 2>/dev/null)" ] && pass "a failed install leaves no virtualenv" ||
  fail "a failed install leaves no virtualenv" "$(ls -A "$tmp/cache/ai")"
"$DEV/ai.sh" down >/dev/null 2>&1
left=$(pids_of "ai/serve.py --port $AI_PORT ")
[ -z "$left" ] && pass "the local model's stop leaves no process" || fail "the local model's stop leaves no process" "$left"
(exec 3<>"/dev/tcp/127.0.0.1/$AI_PORT") 2>/dev/null && fail "the local model's stop frees its port" ||
  pass "the local model's stop frees its port"
out=$("$DEV/ai.sh" status 2>&1)
rc=$?
[ $rc = 3 ] && pass "status says the stopped local model is stopped" || fail "status says the stopped local model is stopped" "exit $rc: $out"
out=$("$DEV/ai.sh" up 2>&1)
rc=$?
if [ $rc = 0 ] && ! grep -q installing <<<"$out"; then
  pass "the next start reuses the installed model"
else
  fail "the next start reuses the installed model" "$out"
fi

# 10. The local Ethereum chains (dev/chain.sh) in a scratch state on free ports: both nodes start
#     on 127.0.0.1 only and answer their chain ids; the seed's collections have code, answer name(),
#     symbol() and ERC-165, and eth_getLogs finds deployed.json's Transfer counts and holders; the
#     EOA has no code and the ERC-20 no ERC-165; a second start starts nothing; the bulk mode makes
#     its Transfer events; a taken port fails clearly; a restart seeds the same facts; a stop leaves
#     no process and frees the ports.
CS=$tmp/chain-state
eth_port=$(free_port)
poly_port=$(free_port)
while [ "$poly_port" = "$eth_port" ]; do poly_port=$(free_port); done
chain() { LUDIS_STATE=$CS LUDIS_CHAIN_ETHEREUM_PORT=$eth_port LUDIS_CHAIN_POLYGON_PORT=$poly_port "$DEV/chain.sh" "$@"; }
# jrpc URL METHOD PARAMS [JQ]: one JSON-RPC call, its result (or what JQ picks from the answer)
jrpc() {
  curl -sS --max-time 60 -H 'Content-Type: application/json' \
    -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$2\",\"params\":$3}" "$1" 2>&1 | jq -r "${4:-.result}" 2>&1
}
abi_string() { python3 -c 'import sys; b=bytes.fromhex(sys.argv[1][2:]); n=int.from_bytes(b[32:64],"big"); print(b[64:64+n].decode())' "$1" 2>&1; }
call() { jrpc "$1" eth_call "[{\"to\":\"$2\",\"data\":\"$3\"},\"latest\"]" "${4:-.result}"; }
node_pids() { pgrep -f -- "hardhat.config.cjs node --hostname 127.0.0.1 --port ($eth_port|$poly_port)\$" | sort | tr '\n' ' '; }
TRANSFER_TOPICS='["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef","0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62","0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb"]'
eth=http://127.0.0.1:$eth_port
poly=http://127.0.0.1:$poly_port
dep=$CS/chain/deployed.json
out=$(chain up 2>&1)
rc=$?
[ $rc = 0 ] && [ -s "$dep" ] && pass "the local chains start and are seeded" || fail "the local chains start and are seeded" "$out"
out=$(jrpc "$eth" eth_chainId '[]')
[ "$out" = 0x7a69 ] && pass "ETHEREUM answers chain id 31337" || fail "ETHEREUM answers chain id 31337" "$out"
out=$(jrpc "$poly" eth_chainId '[]')
[ "$out" = 0x7a6a ] && pass "POLYGON answers chain id 31338" || fail "POLYGON answers chain id 31338" "$out"
out=$(ss -ltnH "( sport = :$eth_port or sport = :$poly_port )" | awk '{print $4}' | sort | tr '\n' ' ')
[ "$out" = "$(printf '127.0.0.1:%s\n' "$eth_port" "$poly_port" | sort | tr '\n' ' ')" ] && pass "the chains listen on 127.0.0.1 only" ||
  fail "the chains listen on 127.0.0.1 only" "$out"
chain_env=$(chain env 2>&1)
check "env names the ETHEREUM chain's URL" "$chain_env" "export LUDIS_WEB3_RPC_ETHEREUM=$eth"
check "env names the POLYGON chain's URL" "$chain_env" "export LUDIS_WEB3_RPC_POLYGON=$poly"
for c in ETHEREUM POLYGON; do
  url=$(jq -r ".chains.$c.rpc_url" "$dep" 2>&1)
  [ "$url" = "$(eval "$chain_env" && eval "echo \$LUDIS_WEB3_RPC_$c")" ] && pass "deployed.json names the $c chain's URL" ||
    fail "deployed.json names the $c chain's URL" "$url"
  while IFS=$'\t' read -r addr name symbol type block events; do
    what="$c $type $symbol"
    out=$(jrpc "$url" eth_getCode "[\"$addr\",\"latest\"]")
    [[ "$out" == 0x?* ]] && [ "${#out}" -gt 100 ] && pass "$what has code" || fail "$what has code" "$out"
    out=$(abi_string "$(call "$url" "$addr" 0x06fdde03)")
    [ "$out" = "$name" ] && pass "$what answers name() '$name'" || fail "$what answers name() '$name'" "$out"
    out=$(abi_string "$(call "$url" "$addr" 0x95d89b41)")
    [ "$out" = "$symbol" ] && pass "$what answers symbol() '$symbol'" || fail "$what answers symbol() '$symbol'" "$out"
    iface=$([ "$type" = ERC721 ] && echo 80ac58cd || echo d9b67a26)
    out=$(call "$url" "$addr" "0x01ffc9a7${iface}00000000000000000000000000000000000000000000000000000000")
    [ "$out" = "0x$(printf '%064d' 1)" ] && pass "$what supports $type's ERC-165 interface" ||
      fail "$what supports $type's ERC-165 interface" "$out"
    out=$(jrpc "$url" eth_getLogs "[{\"address\":\"$addr\",\"fromBlock\":\"$(printf '0x%x' "$block")\",\"toBlock\":\"latest\",\"topics\":[$TRANSFER_TOPICS]}]" '.result | length')
    [ "$out" = "$events" ] && pass "eth_getLogs finds $what's $events transfer events" ||
      fail "eth_getLogs finds $what's $events transfer events" "$out"
    if [ "$type" = ERC721 ]; then # every holder's balanceOf is deployed.json's count
      bad=""
      while IFS=$'\t' read -r holder tokens; do
        n=$(call "$url" "$addr" "0x70a08231000000000000000000000000${holder#0x}")
        [ "$((n))" = "$tokens" ] || bad+="$holder holds $((n)), expected $tokens; "
      done < <(jq -r ".chains.$c.collections[] | select(.address == \"$addr\") | .holders | to_entries[] | [.key, .value.tokens] | @tsv" "$dep")
      [ -z "$bad" ] && pass "$what's holders hold deployed.json's counts" || fail "$what's holders hold deployed.json's counts" "$bad"
    fi
  done < <(jq -r ".chains.$c.collections[] | [.address, .name, .symbol, .type, .deployment_block, .transfer_events] | @tsv" "$dep")
  out=$(jrpc "$url" eth_getCode "[\"$(jq -r ".chains.$c.eoa" "$dep")\",\"latest\"]")
  [ "$out" = 0x ] && pass "the $c EOA has no code" || fail "the $c EOA has no code" "$out"
done
out=$(jq -r '[.overlaps[] | select(.same_chain) | .percent] | "\(any(. >= 10)) \(any(. > 0 and . < 10))"' "$dep" 2>&1)
[ "$out" = "true true" ] && pass "deployed.json has an overlap of 10 % or more and one under 10 %" ||
  fail "deployed.json has an overlap of 10 % or more and one under 10 %" "$out"
erc20=$(jq -r .chains.ETHEREUM.not_a_collection.address "$dep")
out=$(call "$eth" "$erc20" 0x01ffc9a780ac58cd00000000000000000000000000000000000000000000000000000000 '.error.message // .result')
[[ "$out" == *revert* ]] && pass "the ERC-20 has no ERC-165 supportsInterface" || fail "the ERC-20 has no ERC-165 supportsInterface" "$out"
before=$(node_pids)
out=$(chain up 2>&1)
check "second start finds the running chains" "$out" "the local chains are already running"
after=$(node_pids)
[ -n "$before" ] && [ "$(wc -w <<<"$before")" = 2 ] && [ "$before" = "$after" ] &&
  pass "second start keeps the same two nodes" || fail "second start keeps the same two nodes" "$before -> $after"
out=$(node "$DEV/../seeds/web3/seed.mjs" bulk --transfers 1000 --batch 250 --rpc "$poly" 2>&1)
bulk=$(tail -n 1 <<<"$out")
if addr=$(jq -er .address <<<"$bulk" 2>/dev/null); then
  n=$(jrpc "$poly" eth_getLogs "[{\"address\":\"$addr\",\"fromBlock\":\"$(jq -r '.from_block' <<<"$bulk" | xargs printf '0x%x')\",\"toBlock\":\"$(jq -r '.to_block' <<<"$bulk" | xargs printf '0x%x')\",\"topics\":[$TRANSFER_TOPICS]}]" '.result | length')
  [ "$n" = 1000 ] && [ "$(jq -r .transactions <<<"$bulk")" = 4 ] && pass "the bulk mode makes 1000 Transfer events in 4 transactions" ||
    fail "the bulk mode makes 1000 Transfer events in 4 transactions" "$n logs; $bulk"
else
  fail "the bulk mode prints its collection and block range" "$out"
fi
port=$(free_port)
python3 -m http.server --bind 127.0.0.1 "$port" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
out=$(LUDIS_STATE=$tmp/chain-taken LUDIS_CHAIN_ETHEREUM_PORT=$(free_port) LUDIS_CHAIN_POLYGON_PORT=$port "$DEV/chain.sh" up 2>&1)
rc=$?
[ $rc != 0 ] && pass "a taken port fails the chains' start" || fail "a taken port fails the chains' start" "$out"
check "the port error names the chain and port" "$out" "the local chain POLYGON (Hardhat's node) cannot start: port $port on 127.0.0.1 is taken"
[ -z "$(pgrep -f -- "hardhat.config.cjs node --hostname 127.0.0.1 --port $port\$")" ] && pass "a failed start leaves no node" ||
  fail "a failed start leaves no node"
kill "$holder"
wait "$holder" 2>/dev/null
cp "$dep" "$tmp/deployed-first.json"
chain down >/dev/null 2>&1
out=$(chain up 2>&1)
rc=$?
if [ $rc = 0 ] && cmp -s "$tmp/deployed-first.json" "$dep"; then
  pass "a restart seeds the same addresses, blocks and counts"
else
  fail "a restart seeds the same addresses, blocks and counts" "$out$(diff "$tmp/deployed-first.json" "$dep" | head -n 20)"
fi
chain down >/dev/null 2>&1
left=$(node_pids)
[ -z "$left" ] && pass "the chains' stop leaves no process" || fail "the chains' stop leaves no process" "$left"
if (exec 3<>"/dev/tcp/127.0.0.1/$eth_port") 2>/dev/null || (exec 3<>"/dev/tcp/127.0.0.1/$poly_port") 2>/dev/null; then
  fail "the chains' stop frees their ports" "$(ss -tanpH "( sport = :$eth_port or sport = :$poly_port )")"
else
  pass "the chains' stop frees their ports"
fi
out=$(chain status 2>&1)
rc=$?
[ $rc = 3 ] && pass "status says the stopped chains are stopped" || fail "status says the stopped chains are stopped" "exit $rc: $out"

# The test command runs beside a running dev/up.sh platform: none of its ports (dev/test-env.sh)
# is one of the platform's (dev/lib.sh), the operators' next ports included, nor its state folder.
ports_of() { # the ports and state folder a fresh shell gets from $1 (the platform's, or the tests')
  env -i HOME="$HOME" PATH="$PATH" bash -c "$1"'
    source "'"$DEV"'/lib.sh" >/dev/null 2>&1
    for v in $(compgen -v LUDIS_ | grep -E "_PORT$"); do echo "$v=${!v}"; done
    echo "operator=$((LUDIS_API_PORT + 1))"
    [ -n "${LUDIS_E2E_PORT:-}" ] && echo "e2e operator=$((LUDIS_E2E_PORT + 1))"
    echo "state=$LUDIS_STATE"'
}
platform=$(ports_of "")
tests=$(ports_of "source '$DEV/test-env.sh';")
shared=$(comm -12 <(sed 's/^[^=]*=//' <<<"$platform" | sort -u) <(sed 's/^[^=]*=//' <<<"$tests" | sort -u))
[ -z "$shared" ] && pass "the test command shares no port or state folder with dev/up.sh" ||
  fail "the test command shares no port or state folder with dev/up.sh (shared: $shared)" "$platform
---
$tests"
check "the test command has chain ports of its own" "$tests" "LUDIS_CHAIN_ETHEREUM_PORT=39545"
# A shell pointed at the platform's cluster (as the README shows) does not take the tests there.
kube_of() { env -i HOME="$HOME" PATH="$PATH" KUBECONFIG="$1" ${2:+LUDIS_TEST_KUBECONFIG="$2"} \
  bash -c 'source "'"$DEV"'/test-env.sh"; echo "${KUBECONFIG:-none}"'; }
platform_kube=$HOME/.local/state/ludis/cluster/kubeconfig
out=$(kube_of "$platform_kube")
[ "$out" = none ] && pass "the test command ignores the shell's KUBECONFIG" ||
  fail "the test command ignores the shell's KUBECONFIG" "$out"
out=$(kube_of "$platform_kube" /tmp/another-kubeconfig)
[ "$out" = /tmp/another-kubeconfig ] && pass "LUDIS_TEST_KUBECONFIG chooses the tests' cluster" ||
  fail "LUDIS_TEST_KUBECONFIG chooses the tests' cluster" "$out"

rm -rf "$tmp"
echo "scripts: $passed passed, $failed failed"
[ "$failed" = 0 ]
