#!/usr/bin/env bash
# Runs every test of Ludis on a fresh machine: installs what is missing, starts a private local
# cluster with its real node, S3 server, PostgreSQL, SMTP server and the assistant's local model (on
# their own ports, addresses and state, beside any running dev platform), runs the Rust, console and
# chart tests, and stops everything it started.
#   dev/test.sh
# Timings of each phase are printed at the end.
set -euo pipefail

# Tests use their own state folder and ports (dev/test-env.sh), so a running `dev/up.sh` platform
# is left alone.
# shellcheck source=dev/test-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/test-env.sh"
unset LUDIS_S3_ENDPOINT
# The tests' assistant is their own local model (dev/e2e.sh), never a provider set for dev/up.sh.
unset LUDIS_AI_URL LUDIS_AI_MODEL LUDIS_AI_KEY
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

timings=()
phase() {
  local name=$1 start
  shift
  start=$(now)
  log "== $name"
  "$@"
  timings+=("$(printf '%-28s %6ss' "$name" "$(elapsed "$start")")")
}

cleanup() {
  local rc=$?
  log "stopping the test servers"
  "$DEV_DIR/cluster.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/s3.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/postgres.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/smtp.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/ai.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/chain.sh" purge >/dev/null 2>&1 || true
  if [ ${#timings[@]} -gt 0 ]; then
    log "timings:"
    printf '  %s\n' "${timings[@]}" >&2
  fi
  exit $rc
}
trap cleanup EXIT

total_start=$(now)
phase "install dependencies" "$DEV_DIR/install-deps.sh" --browser

# LUDIS_TEST_KUBECONFIG (dev/test-env.sh), if set, is honoured by cluster.sh; otherwise our own
# cluster is used, never the shell's KUBECONFIG.
start_servers() {
  "$DEV_DIR/cluster.sh" purge >/dev/null 2>&1 || true # a fresh cluster for every run
  "$DEV_DIR/cluster.sh" up
  "$DEV_DIR/s3.sh" up
  "$DEV_DIR/postgres.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/postgres.sh" up
  "$DEV_DIR/smtp.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/smtp.sh" up
  # The assistant's real local model, for the end-to-end tests (dev/e2e.sh): required here.
  "$DEV_DIR/ai.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/ai.sh" up
  # The local Ethereum chains, seeded anew (the web3 tests check the indexer against the seed).
  "$DEV_DIR/chain.sh" purge >/dev/null 2>&1 || true
  "$DEV_DIR/chain.sh" up
}
phase "start test servers" start_servers
if [ -z "${KUBECONFIG:-}" ]; then
  export KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig
  # The real node's addresses and images, for the tests of workloads (dev/node.sh writes them).
  set -a
  # shellcheck disable=SC1091 # written by dev/node.sh
  source "$LUDIS_STATE/node/node.env"
  set +a
fi
LUDIS_TEST_POSTGRES_URL=$("$DEV_DIR/postgres.sh" url)
export LUDIS_TEST_POSTGRES_URL LUDIS_S3_ENDPOINT=http://127.0.0.1:$LUDIS_S3_PORT
LUDIS_TEST_MAILDIR=$("$DEV_DIR/smtp.sh" maildir)
export LUDIS_TEST_MAILDIR LUDIS_TEST_SMTP_PORT=$LUDIS_SMTP_PORT
# The chains' endpoints (LUDIS_WEB3_RPC_*) for the API tests and the end-to-end API, the seed's
# facts, and the addresses the web3 end-to-end spec adds (a collection) and is refused (a wallet).
eval "$("$DEV_DIR/chain.sh" env)"
export LUDIS_WEB3_DEPLOYED=$LUDIS_STATE/chain/deployed.json
LUDIS_E2E_WEB3_ADDRESS=$(jq -r '.chains.ETHEREUM.collections[] | select(.key == "lighthouses") | .address' "$LUDIS_WEB3_DEPLOYED")
LUDIS_E2E_WEB3_EOA=$(jq -r '.chains.ETHEREUM.eoa' "$LUDIS_WEB3_DEPLOYED")
export LUDIS_E2E_WEB3_ADDRESS LUDIS_E2E_WEB3_EOA

# What kstatus and the Argo CD health checks make of Ludis objects (operator/tests/health_checks.rs
# and integration_health.rs run the tool, and kubectl wait).
health_tool() {
  "$DEV_DIR/build-tools.sh" health >&2
  (cd "$DEV_DIR/tools/health" && go vet ./... && go test -mod=readonly ./...)
}
phase "health tool: build + go test" health_tool
export LUDIS_HEALTH_TOOL LUDIS_KUBECTL
LUDIS_HEALTH_TOOL="$(tool_dir health)/health" LUDIS_KUBECTL="$(tool_dir kubernetes)/kubectl"

# Incremental compilation data only helps a checkout that is built again; a CI clone is built once,
# and its incremental folders (gigabytes per clone path) would fill the shared cargo cache.
if [[ ${CI:-} == true ]]; then export CARGO_INCREMENTAL=0; fi
# The cargo cache keeps every build it ever made; when the disk runs short the incremental data
# (rebuilt on demand) goes first, so the builds below do not fail with "No space left on device".
make_room() {
  local free_gib
  free_gib=$(df --output=avail -BG "$LUDIS_CACHE" | tail -1 | tr -dc '0-9')
  log "$free_gib GiB free for the builds"
  if ((free_gib < 25)); then
    log "less than 25 GiB free: removing the cargo cache's incremental data"
    rm -rf "$CARGO_TARGET_DIR"/*/incremental
    log "$(df --output=avail -BG "$LUDIS_CACHE" | tail -1 | tr -dc '0-9') GiB free now"
  fi
}
make_room
phase "rust: format check" cargo fmt --all -- --check
phase "rust: clippy" cargo clippy --workspace --all-targets --locked --quiet -- -D warnings
phase "rust: clippy (api, otel)" cargo clippy -p ludis-api --all-targets --locked --quiet --features otel -- -D warnings
phase "rust: build tests" cargo test --workspace --locked --no-run
mkdir -p "$LUDIS_STATE"
results=$LUDIS_STATE/test-results.log
: >"$results"
# Output goes to the terminal and to a file, from which the totals are counted at the end.
# The operator's tests run first: the operator they start reconciles every namespace, and the API's
# tests leave organizations whose projects and apps (their git remotes exist only during the test)
# would keep that operator and the node busy retrying, so previews missed their 90 s.
rust_tests() {
  local rc=0
  cargo test --workspace --exclude ludis-api --locked --no-fail-fast 2>&1 | tee -a "$results" || rc=1
  cargo test -p ludis-api --locked --no-fail-fast 2>&1 | tee -a "$results" || rc=1
  # The API's OpenTelemetry tracing (its `otel` feature) against an OTLP/HTTP receiver in the test.
  cargo test -p ludis-api --locked --features otel --test otel 2>&1 | tee -a "$results" || rc=1
  return $rc
}
phase "rust: tests" rust_tests
# The API's tests leave projects, apps and workflows whose previews and pods the end-to-end
# operator would start, taking the node's CPU from the previews the end-to-end tests run: they go
# (their pods and volumes with them, by owner). Their organizations' namespaces go too: an
# organization only uses a namespace labelled as its own, and the tests' Demo organization (another
# database, another id) labelled ludis-demo, which the end-to-end platform's Demo needs. No
# operator runs now to release the datasets' finalizers, so they are removed here first.
clear_test_workloads() {
  local kubectl dataset
  kubectl="$(tool_dir kubernetes)/kubectl"
  "$kubectl" delete projects.ludis.dev,insights.ludis.dev,workflows.ludis.dev,workflowruns.ludis.dev \
    --all-namespaces --all --wait=true --timeout=180s >/dev/null ||
    log "some of the tests' workloads are still being deleted"
  "$kubectl" get datasets.ludis.dev --all-namespaces --no-headers \
    -o custom-columns=NS:.metadata.namespace,NAME:.metadata.name 2>/dev/null |
    while read -r ns dataset; do
      "$kubectl" patch datasets.ludis.dev "$dataset" -n "$ns" --type=merge \
        -p '{"metadata":{"finalizers":null}}' >/dev/null
    done
  "$kubectl" delete namespaces -l ludis.dev/organization --wait=true --timeout=300s >/dev/null ||
    die "the tests' organization namespaces were not deleted within 300 s: $("$kubectl" get namespaces -l ludis.dev/organization --no-headers 2>&1 | tr '\n' ' ')"
}
phase "clear the tests' workloads" clear_test_workloads
phase "console: lint + typecheck + build + size" bash -c 'cd console && npm run --silent lint && npm run --silent build && npm run --silent size && npm run --silent check:api'
phase "console: tests" bash -c "cd console && NO_COLOR=1 npx vitest run 2>&1 | tee -a '$results'; exit \${PIPESTATUS[0]}"
chart_tests() {
  local helm kubectl case_file apps=(--set 'api.appsOrigin=https://*.apps.ludis.example')
  helm="$(tool_dir helm)/helm" kubectl="$(tool_dir kubernetes)/kubectl"
  # Lint, golden renders of each scenario, two-render stability, the schema's and the templates'
  # refusals (unknown keys, wrong types; no render without api.appsOrigin), the README and the
  # Grafana dashboard (charts/ludis/tests/test.sh; its last line counts the checks).
  charts/ludis/tests/test.sh 2>&1 | tee -a "$results"
  [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
  # The namespace policy holds on the real API server: the API's service account changes and
  # deletes only organization namespaces (charts/ludis/tests/namespace-policy.sh).
  HELM=$helm KUBECTL=$kubectl charts/ludis/tests/namespace-policy.sh 2>&1 | tee -a "$results"
  [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
  # Every scenario is accepted by the real API server (server-side dry run); the ServiceMonitor's
  # CRD is not on the test cluster, so it is left out there (the golden render covers it).
  "$kubectl" create namespace ludis-system --dry-run=client -o yaml | "$kubectl" apply -f - >/dev/null
  for case_file in charts/ludis/tests/cases/*.yaml; do
    "$helm" template ludis charts/ludis --namespace ludis-system -f "$case_file" \
      --set metrics.serviceMonitor.enabled=false 2>/dev/null |
      "$kubectl" apply --dry-run=server -n ludis-system -f - >/dev/null ||
      die "the API server refused the render of $case_file (server-side dry run)"
  done
  # Published apps need an origin of their own: when the console's is allowed explicitly, the
  # API is told.
  local out
  out=$("$helm" template ludis charts/ludis --set api.allowAppsOnConsoleOrigin=true)
  [[ $out == *LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN* ]] || die "api.allowAppsOnConsoleOrigin=true does not reach the API"
  out=$("$helm" template ludis charts/ludis "${apps[@]}")
  [[ $out != *LUDIS_ALLOW_APPS_ON_CONSOLE_ORIGIN* ]] || die "the console's origin is allowed although api.appsOrigin is set"
}
# The end-to-end specs run against a production install: the API and operator images built here
# (from the debug binaries the Rust tests were built with), `helm install` of charts/ludis into the
# local cluster with PostgreSQL and the S3 server outside it, `helm upgrade`s between the specs'
# steps, and `helm uninstall`, after which nothing of the release may be left (dev/e2e-chart.sh).
export LUDIS_E2E_PLATFORM=chart LUDIS_E2E_CHART_PROFILE=debug
phase "console: end to end (Chromium, chart install)" bash -c "NO_COLOR=1 '$DEV_DIR/e2e.sh' 2>&1 | tee -a '$results'; exit \${PIPESTATUS[0]}"
phase "chart: lint + render" chart_tests
phase "dev scripts" bash -c "'$DEV_DIR/tests/scripts.sh' 2>&1 | tee -a '$results'; exit \${PIPESTATUS[0]}"

passed=$(awk '/^test result:/ { p += $4 } /^ +Tests +[0-9]+ passed/ { p += $2 } /^ +[0-9]+ passed \(/ { p += $1 } /^(scripts|chart): [0-9]+ passed/ { p += $2 } END { print p + 0 }' "$results")
ok "all tests passed in $(elapsed "$total_start")s"
echo "tests: $passed passed, 0 failed"
