#!/usr/bin/env bash
# End-to-end tests of the console: Playwright drives Debian's Chromium against a real API (its
# own SQLite database, the cluster of $KUBECONFIG when set, the S3 server of $LUDIS_S3_ENDPOINT
# for datasets, uploaded and downloaded by the browser itself) that serves the built console. With
# the cluster's real node (dev/test.sh starts one; its pods reach this API's port through the node's
# link, LUDIS_API_PORT), the operator runs too, so a project's preview really runs: the projects
# spec runs code, follows its log, opens its web view and types in its terminal
# (LUDIS_E2E_REAL_NODE=1). Without a node, resources are applied and mirrored, not reconciled.
# When the assistant's local model runs (dev/ai.sh, which dev/test.sh starts), the API uses it
# (LUDIS_E2E_AI=1 tells the specs); otherwise the API has the assistant LUDIS_AI_URL names, if any.
#   dev/e2e.sh            (needs `npm run build` in console/ first)
#   LUDIS_E2E_PLATFORM=chart dev/e2e.sh
#                         the same specs against the chart installed into the cluster from images
#                         built here (dev/e2e-chart.sh): what dev/test.sh runs
# Two API set-ups: one with the normal token lifetimes for the identity flows, one whose access
# tokens last 3 s for the silent-refresh test. Screenshots land in console/e2e-screenshots/.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

[ -f console/dist/index.html ] || die "the console is not built (cd console && npm run build)"
[ -x "${LUDIS_E2E_CHROMIUM:-/usr/bin/chromium}" ] || die "Chromium is not installed (run dev/install-deps.sh --browser)"
cargo build --locked --quiet -p ludis-api || die "building the API failed"

E=$LUDIS_STATE/e2e
port=${LUDIS_E2E_PORT:-38080}
reserve_ports "$port"
admin_password="E2e-$(head -c 12 /dev/urandom | base64 | tr -d '/+=')"
cleanup() {
  stop_pidfile "$E/pids/ludis-api.pid"
  stop_pidfile "$E/pids/ludis-operator.pid"
}
trap cleanup EXIT

# The assistant's local model, if it runs: its settings go to the API only.
if "$DEV_DIR/ai.sh" status >/dev/null; then
  eval "$("$DEV_DIR/ai.sh" env)"
  export -n LUDIS_AI_URL LUDIS_AI_MODEL LUDIS_AI_KEY
  export LUDIS_E2E_AI=1
  log "the end-to-end API uses the assistant's local model at $LUDIS_AI_URL"
elif [ -n "${LUDIS_AI_URL:-}" ]; then
  log "the assistant's local model is not running: the end-to-end API uses the assistant at $LUDIS_AI_URL"
else
  log "the assistant's local model is not running (dev/ai.sh up): the end-to-end API runs without the assistant"
fi

# run_api <access token lifetime in s>: a fresh API with a fresh database on $port.
run_api() {
  stop_pidfile "$E/pids/ludis-api.pid"
  # Each API's log is kept (the first one's is what a failed projects spec needs).
  [ -f "$E/logs/ludis-api.log" ] && mv "$E/logs/ludis-api.log" "$E/logs/ludis-api.$(date +%s%N).log"
  rm -rf "$E/db" && mkdir -p "$E/db"
  require_free_port "the end-to-end API" "$port" "(set LUDIS_E2E_PORT to use another)"
  require_free_port "the end-to-end API's storage gateway" "$((port + 2))" "(set LUDIS_E2E_PORT to use others)"
  LUDIS_API_LISTEN=127.0.0.1:$port \
    LUDIS_STORAGE_LISTEN=127.0.0.1:$((port + 2)) \
    LUDIS_DATABASE_URL="sqlite://$E/db/ludis.db?mode=rwc" \
    LUDIS_CONSOLE_DIR="$REPO_DIR/console/dist" \
    LUDIS_SECRETS_FILE="$E/db/secrets.env" \
    LUDIS_DATA_DIR="$E/db/data" \
    LUDIS_REQUIRE_CLUSTER=false \
    LUDIS_ADMIN_EMAIL=admin@ludis.local LUDIS_ADMIN_PASSWORD="$admin_password" \
    LUDIS_ACCESS_TOKEN_TTL="$1" \
    LUDIS_APPS_ORIGIN="http://*.apps.localhost:$port" \
    LUDIS_GIT_URL="$git_url" LUDIS_RESOLVE_SERVICES_VIA_API=true \
    LUDIS_AI_URL="${LUDIS_AI_URL:-}" LUDIS_AI_MODEL="${LUDIS_AI_MODEL:-}" LUDIS_AI_KEY="${LUDIS_AI_KEY:-}" \
    start_bg ludis-api "$E" "$CARGO_TARGET_DIR/debug/ludis-api"
  wait_for "the end-to-end API" 60 "$E/logs/ludis-api.log" curl -fsS --max-time 2 "http://127.0.0.1:$port/readyz"
}

# With a cluster, the insights spec applies an Insight resource (GitOps-style) that the API's
# watcher mirrors: the CRDs must be installed and kubectl known.
if [ -n "${KUBECONFIG:-}" ]; then
  export LUDIS_E2E_KUBECTL
  LUDIS_E2E_KUBECTL="$(tool_dir kubernetes)/kubectl"
  "$LUDIS_E2E_KUBECTL" apply --server-side --force-conflicts --field-manager=ludis-e2e -f charts/ludis/files/crds/ >/dev/null ||
    die "installing the CRDs for the end-to-end tests failed"
  "$LUDIS_E2E_KUBECTL" wait --for=condition=Established --timeout=60s crd/insights.ludis.dev >/dev/null
fi
# Where preview pods clone hosted projects: this API's /git through the node's link.
# Where pods reach datasets: this API's storage gateway (its port + 2), forwarded there too.
git_url= storage_url=
if [ -n "${KUBECONFIG:-}" ] && [ -f "$LUDIS_STATE/node/node.env" ] && [ "${LUDIS_API_PORT:-}" = "$port" ]; then
  node_host_ip=$(sed -n "s/^LUDIS_NODE_HOST_IP='\(.*\)'$/\1/p" "$LUDIS_STATE/node/node.env")
  git_url=http://$node_host_ip:$port/git
  storage_url=http://$node_host_ip:$((port + 2))
fi
# start_operator: the operator, when the cluster has the real node and its link forwards this
# API's port; then the projects and workflows specs run code (LUDIS_E2E_REAL_NODE=1). It starts after the other
# specs, which expect resources mirrored, not reconciled.
start_operator() {
  if [ -z "$git_url" ]; then
    log "no real node forwarding port $port: the projects spec does not run code"
    return 0
  fi
  cargo build --locked --quiet -p ludis-operator || die "building the operator failed"
  "$LUDIS_E2E_KUBECTL" create namespace ludis-system --dry-run=client -o yaml | "$LUDIS_E2E_KUBECTL" apply -f - >/dev/null
  apply_admin_lists ludis-system || die "applying the image and size lists failed"
  operator_image() { "$DEV_DIR/images.sh" refs | awk -v i="$(jq -r ".operator.$1" seeds/ludis-images.json)" '$1 == i {print $2}'; }
  stop_pidfile "$E/pids/ludis-operator.pid"
  LUDIS_OPERATOR_LISTEN=127.0.0.1:$((port + 1)) \
    LUDIS_GIT_IMAGE=$(operator_image git) LUDIS_TICK_IMAGE=$(operator_image tick) \
    LUDIS_UPLOAD_IMAGE=$(operator_image upload) LUDIS_GIT_URL=$git_url LUDIS_STORAGE_URL=$storage_url \
    start_bg ludis-operator "$E" "$CARGO_TARGET_DIR/debug/ludis-operator"
  wait_for "the end-to-end operator" 60 "$E/logs/ludis-operator.log" curl -fsS --max-time 2 "http://127.0.0.1:$((port + 1))/readyz"
  export LUDIS_E2E_REAL_NODE=1
}
export LUDIS_E2E_URL=http://127.0.0.1:$port LUDIS_E2E_ADMIN_EMAIL=admin@ludis.local
export LUDIS_E2E_ADMIN_PASSWORD=$admin_password

# The platform the specs run against, in three steps (first specs without an operator, then the
# real-node specs with one, then the silent refresh with 3-second tokens) and a last one:
#   processes (default)  the API and the operator as processes on this machine, built in debug
#   chart                the chart installed into the cluster from images built here
#                        (dev/e2e-chart.sh; what dev/test.sh runs)
platform_start() { run_api 900; }
platform_operator() { start_operator; }
platform_short_tokens() { run_api 3; }
platform_logs() {
  local f
  for f in "$E"/logs/*.log; do
    echo "--- last lines of $f:" >&2
    grep -v ' INFO ' "$f" | tail -n 20 >&2 || true
  done
}
platform_end() { :; }
platform_checks() { :; }
case "${LUDIS_E2E_PLATFORM:-processes}" in
  processes) ;;
  chart)
    [ -n "${KUBECONFIG:-}" ] || die "the chart platform needs a cluster (KUBECONFIG)"
    # shellcheck source=dev/e2e-chart.sh
    source "$DEV_DIR/e2e-chart.sh"
    ;;
  *) die "LUDIS_E2E_PLATFORM is processes or chart, not ${LUDIS_E2E_PLATFORM}" ;;
esac

rc=0
platform_start
platform_checks || rc=$?
(cd console && npx playwright test e2e/identity.spec.ts e2e/organization-2fa.spec.ts e2e/insights.spec.ts \
  e2e/datasets.spec.ts e2e/admin.spec.ts e2e/templates.spec.ts e2e/layout.spec.ts e2e/web3.spec.ts) || rc=$?
platform_operator
(cd console && npx playwright test e2e/projects.spec.ts e2e/notebooks.spec.ts e2e/frameworks.spec.ts e2e/workflows.spec.ts) || rc=$?
platform_short_tokens
(cd console && LUDIS_E2E_ACCESS_TTL=3 npx playwright test e2e/session.spec.ts) || rc=$?
# A failure's context before the cluster is cleared: the pods and events of the specs' namespaces,
# and the end of each API's and the operator's log.
if [ "$rc" != 0 ] && [ -n "${LUDIS_E2E_KUBECTL:-}" ]; then
  log "the cluster after the failure:"
  "$LUDIS_E2E_KUBECTL" get pods -A -o wide 2>&1 | grep -v kube-system >&2 || true
  "$LUDIS_E2E_KUBECTL" get events -A --sort-by=.lastTimestamp 2>&1 | grep -v kube-system | tail -n 40 >&2 || true
fi
[ "$rc" = 0 ] || platform_logs
platform_end
[ "$rc" = 0 ] || die "end-to-end tests failed (API log: $E/logs/ludis-api.log; traces in console/test-results/)"
ok "end-to-end tests passed; screenshots in console/e2e-screenshots/"
