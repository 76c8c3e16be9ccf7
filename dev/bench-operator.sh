#!/usr/bin/env bash
# Operator benchmark on the local control plane: N Projects + N Insights (BENCH_COUNT, default
# 1000). Starts the cluster if needed and a release build of the operator, runs
# operator/examples/operator_bench.rs, prints its numbers, and stops what it started.
#   dev/bench-operator.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
# dev/up.sh's operator would reconcile the benchmark's objects too, and run their pods for real.
pid_alive "$LUDIS_STATE/operator/pids/ludis-operator.pid" &&
  die "dev/up.sh's operator runs on this platform: stop it first (dev/down.sh)"
"$DEV_DIR/cluster.sh" up
if [ -z "${KUBECONFIG:-}" ]; then export KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig; fi
log "building the operator and the benchmark (release)"
cargo build --release --locked --quiet -p ludis-operator --bin ludis-operator --example operator_bench
"$(tool_dir kubernetes)/kubectl" apply --server-side -f charts/ludis/files/crds/ >/dev/null
"$(tool_dir kubernetes)/kubectl" create namespace ludis-system --dry-run=client -o yaml | "$(tool_dir kubernetes)/kubectl" apply -f - >/dev/null
apply_image_list ludis-system

port=18081
require_free_port "the benchmarked operator" "$port"
B=$LUDIS_STATE/bench
mkdir -p "$B"
# The point is the operator at scale: its 1,000 application pods go to the KWOK node (its taint
# tolerated, the real node's not), not to the real node.
RUST_LOG=warn start_bg ludis-operator "$B" "$CARGO_TARGET_DIR/release/ludis-operator" \
  --listen "127.0.0.1:$port" --lease-name "bench-$$" --lease-seconds 5 \
  --workload-tolerations kwok.x-k8s.io/node
trap 'stop_pidfile "$B/pids/ludis-operator.pid"' EXIT
wait_for "the operator" 30 "$B/logs/ludis-operator.log" curl -fsS "http://127.0.0.1:$port/readyz"
BENCH_OPERATOR_PID=$(cat "$B/pids/ludis-operator.pid") BENCH_METRICS_URL="http://127.0.0.1:$port/metrics" \
  "$CARGO_TARGET_DIR/release/examples/operator_bench"
