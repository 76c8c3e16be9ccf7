#!/usr/bin/env bash
# Operator benchmarks on the local control plane (operator/examples/operator_bench/), with
# N Projects + N Insights (BENCH_COUNT, default 1000):
#   dev/bench-operator.sh [burst]  all 2N created at once: time until all are Ready, objects per
#                                  second and per CPU-second, CR -> child latency, peak RSS
#   dev/bench-operator.sh steady   the 2N present, then BENCH_RATE changes a second (default 20)
#                                  for BENCH_SECONDS (default 300): CR -> child p50/p95/p99/max
#                                  (goal p99 <= 1 s) and the operator's share from its /metrics
# Starts the cluster if needed and a release build of the operator (its /metrics on
# 127.0.0.1:$LUDIS_BENCH_OPERATOR_PORT, default 18081), and stops what it started.
# The steady run's operator runs as the chart's ServiceAccount, with the chart's ClusterRole,
# FlowSchema and PriorityLevelConfiguration (rendered by helm template), so API Priority and
# Fairness treats it as in a real installation: the administrator's certificate is exempt.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
mode=${1:-burst}
case "$mode" in
  burst | steady) ;;
  *) die "usage: dev/bench-operator.sh [burst|steady]" ;;
esac
# dev/up.sh's operator would reconcile the benchmark's objects too, and run their pods for real.
pid_alive "$LUDIS_STATE/operator/pids/ludis-operator.pid" &&
  die "dev/up.sh's operator runs on this platform: stop it first (dev/down.sh)"
"$DEV_DIR/cluster.sh" up
if [ -z "${KUBECONFIG:-}" ]; then export KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig; fi
kubectl() { "$(tool_dir kubernetes)/kubectl" "$@"; }
log "building the operator and the benchmark (release)"
cargo build --release --locked --quiet -p ludis-operator --bin ludis-operator --example operator_bench
kubectl apply --server-side -f charts/ludis/files/crds/ >/dev/null
kubectl create namespace ludis-system --dry-run=client -o yaml | kubectl apply -f - >/dev/null
apply_admin_lists ludis-system

port=${LUDIS_BENCH_OPERATOR_PORT:-18081}
require_free_port "the benchmarked operator" "$port"
B=$LUDIS_STATE/bench
mkdir -p "$B"
cleanup() { stop_pidfile "$B/pids/ludis-operator.pid"; }
trap cleanup EXIT

operator_kubeconfig=$KUBECONFIG
if [ "$mode" = steady ]; then
  # The operator's identity as the chart installs it (release ludis-bench in ludis-system).
  "$DEV_DIR/build-tools.sh" helm >/dev/null
  shows=()
  for t in serviceaccount clusterrole role flowschema; do
    [ -f "charts/ludis/templates/operator/$t.yaml" ] && shows+=(--show-only "templates/operator/$t.yaml")
  done
  # (The chart requires the apps' origin; the benchmark serves none.)
  "$(tool_dir helm)/helm" template ludis-bench charts/ludis --namespace ludis-system "${shows[@]}" \
    --set 'api.appsOrigin=https://*.apps.bench.invalid' >"$B/operator-identity.yaml"
  account=$(kubectl apply -n ludis-system --server-side --field-manager=ludis-bench \
    -f "$B/operator-identity.yaml" -o name | sed -n 's|^serviceaccount/||p')
  [ -n "$account" ] || die "the chart rendered no ServiceAccount for the operator"
  cleanup() {
    stop_pidfile "$B/pids/ludis-operator.pid"
    kubectl delete -n ludis-system --ignore-not-found -f "$B/operator-identity.yaml" >/dev/null 2>&1 || true
  }
  server=$(kubectl config view --raw --minify -o jsonpath='{.clusters[0].cluster.server}')
  ca=$(kubectl config view --raw --minify -o jsonpath='{.clusters[0].cluster.certificate-authority-data}')
  token=$(kubectl -n ludis-system create token "$account" --duration=3h)
  operator_kubeconfig=$B/operator.kubeconfig
  (umask 077 && cat >"$operator_kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: bench
  cluster: {server: $server, certificate-authority-data: $ca}
users:
- name: $account
  user: {token: $token}
contexts:
- name: bench
  context: {cluster: bench, user: $account}
current-context: bench
KUBECONFIG
  )
  log "the operator runs as $(KUBECONFIG=$operator_kubeconfig kubectl auth whoami -o jsonpath='{.status.userInfo.username}')"
fi

# The point is the operator at scale: its 1,000 application pods go to the KWOK node (its taint
# tolerated, the real node's not), not to the real node.
KUBECONFIG=$operator_kubeconfig RUST_LOG=warn start_bg ludis-operator "$B" \
  "$CARGO_TARGET_DIR/release/ludis-operator" \
  --listen "127.0.0.1:$port" --lease-name "bench-$$" --lease-seconds 5 \
  --workload-tolerations kwok.x-k8s.io/node
wait_for "the operator" 30 "$B/logs/ludis-operator.log" curl -fsS "http://127.0.0.1:$port/readyz"
# The local control plane's processes, whose CPU time the steady run prints.
control_plane=""
for c in etcd kube-apiserver kube-controller-manager kube-scheduler kwok; do
  f=$LUDIS_STATE/cluster/pids/$c.pid
  if pid_alive "$f"; then control_plane+="$c=$(cat "$f") "; fi
done
BENCH_OPERATOR_PID=$(cat "$B/pids/ludis-operator.pid") BENCH_METRICS_URL="http://127.0.0.1:$port/metrics" \
  BENCH_CONTROL_PLANE=$control_plane "$CARGO_TARGET_DIR/release/examples/operator_bench" "$mode"
