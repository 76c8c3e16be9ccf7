#!/usr/bin/env bash
# Benchmark of the real node (dev/node.sh), on a platform of its own (state
# ~/.local/state/ludis-bench-node, ports 347xx), never the development or test ones:
#   1. the cold cost of the node's set-up: building kubelet and kube-proxy, CoreDNS, the volume
#      provisioner and the images, as measured when this machine's cache was built (BENCH_COLD=1
#      builds them again now, into a scratch cache with an empty Go build cache);
#   2. dev/up.sh on this machine: the first start of a platform (the node imports the images),
#      then a warm start after dev/down.sh;
#   3. pod start on the node: 20 pods of the python image created at once (BENCH_PODS), create ->
#      Running as seen through a watch, p50 and p99 against the Kubernetes SLO (p99 <= 5 s); then
#      the same for the same pods as the operator's workloads (an organization's namespace, its
#      NetworkPolicies enforced, a storage identity each);
#   4. S3 read throughput from a pod: one 64 MiB object (BENCH_MIB) of a dataset read by boto3 with
#      the root key straight from the S3 server and with a workload's scoped credentials through
#      the API's storage gateway, and their ratio (target >= 0.9).
#   dev/bench-node.sh
# It stops its platform at the end and keeps its state (remove it: LUDIS_STATE=<that folder>
# dev/down.sh --purge with the same ports).
set -euo pipefail
export LUDIS_STATE=${LUDIS_BENCH_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/ludis-bench-node}
export LUDIS_ETCD_PORT=34790 LUDIS_ETCD_PEER_PORT=34800 LUDIS_APISERVER_PORT=34443 LUDIS_KCM_PORT=34257
export LUDIS_SCHEDULER_PORT=34259 LUDIS_KWOK_PORT=34250 LUDIS_S3_PORT=34910 LUDIS_API_PORT=34780
export LUDIS_S3_ENDPOINT=http://127.0.0.1:$LUDIS_S3_PORT
unset KUBECONFIG
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
NODE_TOOLS=(kubernetes-node coredns local-volumes)

seconds_of() { # the build time a cache marker holds
  local t
  t=$(cat "$1/.complete" 2>/dev/null || true)
  [ -n "$t" ] && echo "${t}s" || echo "(not recorded)"
}

log "== 1. cold cost of the node's set-up"
cache=$LUDIS_CACHE
if [ "${BENCH_COLD:-}" = 1 ]; then
  cache=$(mktemp -d)
  trap 'rm -rf "$cache"' EXIT
  log "building the node's tools and images again in $cache (an empty Go build cache too)"
  LUDIS_CACHE=$cache GOCACHE=$cache/go-build "$DEV_DIR/build-tools.sh" "${NODE_TOOLS[@]}" >&2
  LUDIS_CACHE=$cache "$DEV_DIR/images.sh" build >&2
else
  "$DEV_DIR/build-tools.sh" "${NODE_TOOLS[@]}" >&2
  "$DEV_DIR/images.sh" build >&2
fi
cold=()
for t in "${NODE_TOOLS[@]}"; do
  cold+=("$(printf '  build %-26s %s' "$t" "$(seconds_of "$(LUDIS_CACHE=$cache tool_dir "$t")")")")
done
for i in $("$DEV_DIR/images.sh" refs | awk '{print $1}'); do
  cold+=("$(printf '  image %-26s %s   %s' "$i" "$(seconds_of "$(LUDIS_CACHE=$cache "$DEV_DIR/images.sh" dir "$i")")" \
    "$(du -sh "$(LUDIS_CACHE=$cache "$DEV_DIR/images.sh" dir "$i")" | cut -f1)")")
done

log "== 2. dev/up.sh"
"$DEV_DIR/down.sh" --purge >/dev/null 2>&1 || true
start=$(now)
"$DEV_DIR/up.sh" >"$LUDIS_STATE.up1.log" 2>&1 || { tail -n 20 "$LUDIS_STATE.up1.log" >&2; die "dev/up.sh failed"; }
first_up=$(elapsed "$start")
"$DEV_DIR/down.sh" >/dev/null 2>&1
start=$(now)
"$DEV_DIR/up.sh" >"$LUDIS_STATE.up2.log" 2>&1 || { tail -n 20 "$LUDIS_STATE.up2.log" >&2; die "dev/up.sh failed"; }
warm_up=$(elapsed "$start")
trap '"$DEV_DIR/down.sh" >/dev/null 2>&1 || true; [ "${BENCH_COLD:-}" = 1 ] && rm -rf "$cache"' EXIT

log "== 3. pod start on the node"
# The client's own speed is nothing next to a pod's start: the debug build dev/test.sh makes.
cargo build --locked --quiet -p ludis-operator --example pod_start_bench
# The platform as its pods reach it (the node's settings) and its administrator, for the contained
# round and the reads.
pod_s3=$(sed -n "s/^LUDIS_POD_S3_ENDPOINT='\(.*\)'$/\1/p" "$LUDIS_STATE/node/node.env")
node_host_ip=$(sed -n "s/^LUDIS_NODE_HOST_IP='\(.*\)'$/\1/p" "$LUDIS_STATE/node/node.env")
[ -n "$pod_s3" ] && [ -n "$node_host_ip" ] || die "the node's settings ($LUDIS_STATE/node/node.env) name no S3 endpoint or link address"
pods=$(KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig BENCH_IMAGE=$("$DEV_DIR/images.sh" refs | awk '$1 == "python" {print $2}') \
  BENCH_API=http://127.0.0.1:$LUDIS_API_PORT BENCH_ADMIN_EMAIL=admin@ludis.local \
  BENCH_ADMIN_PASSWORD="$(cat "$LUDIS_STATE/api/admin-password")" \
  BENCH_STORAGE_URL=http://$node_host_ip:$((LUDIS_API_PORT + 2)) BENCH_POD_S3=$pod_s3 \
  "$CARGO_TARGET_DIR/debug/examples/pod_start_bench")

echo
echo "Cold cost of the node's set-up (once per machine; cache $cache):"
printf '%s\n' "${cold[@]}"
echo
echo "dev/up.sh (this machine, caches warm):"
printf '  first start of a platform (images imported into the node)  %ss\n' "$first_up"
printf '  warm start after dev/down.sh                               %ss\n' "$warm_up"
echo
echo "Pod start, and a pod's S3 reads:"
echo "$pods" | sed 's/^/  /'
