#!/usr/bin/env bash
# Starts the whole Ludis platform locally and prints where to open it:
# the local cluster (control plane and a real node, dev/cluster.sh and dev/node.sh), the S3
# server, the AI assistant's local model (dev/ai.sh; or the OpenAI-compatible provider that
# LUDIS_AI_URL, LUDIS_AI_MODEL and LUDIS_AI_KEY name, when LUDIS_AI_URL is set), the local Ethereum
# chains of web3 collections (dev/chain.sh, seeded by seeds/web3/seed.mjs), the operator, the
# API (SQLite) serving the built console, and the demo (seeds/k8s/demo.yaml: a Streamlit dashboard
# and a nightly workflow, dev/demo.sh).
#   dev/up.sh           (stop with dev/down.sh; logs in $LUDIS_STATE/api/logs)
# Everything missing is installed or built first; a second run finds what already runs.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

start=$(now)
"$DEV_DIR/install-deps.sh"
"$DEV_DIR/cluster.sh" up
"$DEV_DIR/s3.sh" up
# The assistant: the provider LUDIS_AI_URL names if it is set, else the local model. Without either
# the platform runs, and the API answers that the assistant is not configured.
if [ -n "${LUDIS_AI_URL:-}" ]; then
  log "the assistant uses the provider at LUDIS_AI_URL=$LUDIS_AI_URL (model ${LUDIS_AI_MODEL:-not set})"
elif "$DEV_DIR/ai.sh" up; then
  eval "$("$DEV_DIR/ai.sh" env)"
  export -n LUDIS_AI_URL LUDIS_AI_MODEL LUDIS_AI_KEY # for the API only, below
else
  log "warning: the assistant's local model did not start (see above), so Ludis starts without the AI assistant." \
    "To use another OpenAI-compatible provider, set LUDIS_AI_URL (its base URL, e.g. https://provider.example/v1)," \
    "LUDIS_AI_MODEL and LUDIS_AI_KEY, and run dev/up.sh again."
fi
# The local Ethereum chains of web3 collections (dev/chain.sh: ETHEREUM and POLYGON, seeded). Without
# them the platform runs; web3 collections then have no chain to be validated or indexed against.
if "$DEV_DIR/chain.sh" up; then
  eval "$("$DEV_DIR/chain.sh" env)"
  export -n LUDIS_WEB3_RPC_ETHEREUM LUDIS_WEB3_RPC_POLYGON # for the API only, below
  chain_summary="ETHEREUM $LUDIS_WEB3_RPC_ETHEREUM, POLYGON $LUDIS_WEB3_RPC_POLYGON  (seeded: $LUDIS_STATE/chain/deployed.json)"
else
  log "warning: the local Ethereum chains did not start (see above), so Ludis starts without them (web3 collections" \
    "cannot be validated or indexed). dev/chain.sh up starts them on their own."
  chain_summary="not running (dev/chain.sh up)"
fi
if [ -z "${KUBECONFIG:-}" ]; then export KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig; fi

log "building the console"
(cd console && npm run --silent build >"$LUDIS_STATE/console-build.log" 2>&1) ||
  { tail -n 20 "$LUDIS_STATE/console-build.log" >&2; die "the console build failed (log: $LUDIS_STATE/console-build.log)"; }
# LUDIS_PROFILE=release runs optimised builds (slower to build; what the benchmarks measure).
profile=${LUDIS_PROFILE:-debug}
case $profile in
  debug) build_flags=() ;;
  release) build_flags=(--release) ;;
  *) die "LUDIS_PROFILE must be debug or release, not '$profile'" ;;
esac
log "building the API and the operator ($profile)"
cargo build --locked --quiet "${build_flags[@]}" -p ludis-api -p ludis-operator || die "the build failed"

# The operator: our CRDs, the image list (seeds/ludis-images.json, the images built for the node),
# then the controllers (against this cluster and S3) with the operator's own images.
kubectl() { "$(tool_dir kubernetes)/kubectl" "$@"; }
# The CRDs are ours to install: a newer version takes over fields an older one set (tests apply
# them under their own field managers).
kubectl apply --server-side --force-conflicts -f charts/ludis/files/crds/ >/dev/null || die "installing the CRDs failed"
kubectl create namespace ludis-system --dry-run=client -o yaml | kubectl apply -f - >/dev/null
apply_admin_lists ludis-system || die "applying the image and size lists failed"
operator_image() { "$DEV_DIR/images.sh" refs | awk -v i="$(jq -r ".operator.$1" seeds/ludis-images.json)" '$1 == i {print $2}'; }
node_host_ip=$(sed -n "s/^LUDIS_NODE_HOST_IP='\(.*\)'$/\1/p" "$LUDIS_STATE/node/node.env" 2>/dev/null || true)
# Where pods clone the projects' repositories: the API's git server, at the host's end of the node's
# link (the operator gives those checkouts the pod's own identity token).
git_url=${node_host_ip:+http://$node_host_ip:$LUDIS_API_PORT/git}
# Where pods reach datasets: the API's storage gateway (STS and S3; the API's port + 2), forwarded
# to the same end of the link (a node started before the gateway existed gets its forwarder now).
storage_port=$((LUDIS_API_PORT + 2))
storage_url=${node_host_ip:+http://$node_host_ip:$storage_port}
[ -n "$node_host_ip" ] && { "$DEV_DIR/node.sh" forward storage "$storage_port" || die "forwarding the storage gateway to the node failed"; }
O=$LUDIS_STATE/operator
stop_pidfile "$O/pids/ludis-operator.pid"
mkdir -p "$O"
LUDIS_S3_ENDPOINT=$LUDIS_S3_ENDPOINT LUDIS_S3_ACCESS_KEY=$LUDIS_S3_ACCESS_KEY LUDIS_S3_SECRET_KEY=$LUDIS_S3_SECRET_KEY \
  LUDIS_OPERATOR_LISTEN=127.0.0.1:$((LUDIS_API_PORT + 1)) \
  LUDIS_GIT_IMAGE=$(operator_image git) LUDIS_TICK_IMAGE=$(operator_image tick) \
  LUDIS_UPLOAD_IMAGE=$(operator_image upload) LUDIS_GIT_URL=$git_url LUDIS_STORAGE_URL=$storage_url \
  start_bg ludis-operator "$O" "$CARGO_TARGET_DIR/$profile/ludis-operator"
wait_for "the operator" 60 "$O/logs/ludis-operator.log" curl -fsS --max-time 2 "http://127.0.0.1:$((LUDIS_API_PORT + 1))/readyz"

# The organizations' NetworkPolicies (api/README.md) for an API on the node's host: what node.env
# says (the host's end of the link; the node's DNS and S3), and the demo's git server there (port
# 80, dev/demo.sh), which its Project clones from as from a git host outside the cluster.
org_egress=$(node_setting LUDIS_ORG_NETWORK_EGRESS_CIDRS)
link_ip=$(node_setting LUDIS_NODE_HOST_IP)
[ -n "$link_ip" ] && org_egress+=",$link_ip/32:80"
A=$LUDIS_STATE/api
stop_pidfile "$A/pids/ludis-api.pid"
require_free_port "the API" "$LUDIS_API_PORT" "(set LUDIS_API_PORT to use another)"
require_free_port "the API's storage gateway" "$storage_port" "(the API's port + 2; set LUDIS_API_PORT to use others)"
mkdir -p "$A"
# The first superadmin's password, made once for this machine (the API seeds it on first start).
if [ ! -s "$A/admin-password" ]; then
  (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$A/admin-password")
fi
# Published apps get origins of their own, <app id>.apps.localhost: browsers resolve *.localhost
# to loopback and treat it as secure, so the app cookie (SameSite=None; Secure; Partitioned) works
# in the console's frame on plain http (Chromium; see api/README.md).
# Preview pods clone hosted projects from this API's /git, which the node's link forwards to them.
LUDIS_API_LISTEN=127.0.0.1:$LUDIS_API_PORT \
  LUDIS_STORAGE_LISTEN=127.0.0.1:$storage_port \
  LUDIS_GIT_URL=$git_url \
  LUDIS_APPS_ORIGIN="http://*.apps.localhost:$LUDIS_API_PORT" \
  LUDIS_RESOLVE_SERVICES_VIA_API=true \
  LUDIS_ORG_NETWORK_API_CIDRS="$(node_setting LUDIS_ORG_NETWORK_API_CIDRS)" \
  LUDIS_ORG_NETWORK_EGRESS_CIDRS="$org_egress" \
  LUDIS_DATABASE_URL="sqlite://$A/ludis.db?mode=rwc" \
  LUDIS_CONSOLE_DIR="$REPO_DIR/console/dist" \
  LUDIS_SECRETS_FILE="$A/ludis-secrets.env" \
  LUDIS_DATA_DIR="$A/data" \
  LUDIS_ADMIN_EMAIL=admin@ludis.local LUDIS_ADMIN_PASSWORD="$(cat "$A/admin-password")" \
  LUDIS_S3_ENDPOINT=$LUDIS_S3_ENDPOINT LUDIS_S3_ACCESS_KEY=$LUDIS_S3_ACCESS_KEY LUDIS_S3_SECRET_KEY=$LUDIS_S3_SECRET_KEY \
  LUDIS_AI_URL=${LUDIS_AI_URL:-} LUDIS_AI_MODEL=${LUDIS_AI_MODEL:-} LUDIS_AI_KEY=${LUDIS_AI_KEY:-} \
  LUDIS_WEB3_RPC_ETHEREUM=${LUDIS_WEB3_RPC_ETHEREUM:-} LUDIS_WEB3_RPC_POLYGON=${LUDIS_WEB3_RPC_POLYGON:-} \
  start_bg ludis-api "$A" "$CARGO_TARGET_DIR/$profile/ludis-api"
wait_for "the API" 60 "$A/logs/ludis-api.log" curl -fsS --max-time 2 "http://127.0.0.1:$LUDIS_API_PORT/readyz"
"$DEV_DIR/demo.sh" up

ok "Ludis is running (started in $(elapsed "$start")s)"
if [ -n "${LUDIS_AI_URL:-}" ]; then
  ai_summary="$LUDIS_AI_URL  (model ${LUDIS_AI_MODEL:-not set})"
else
  ai_summary="not running (dev/ai.sh up, or set LUDIS_AI_URL, LUDIS_AI_MODEL and LUDIS_AI_KEY)"
fi
cat >&2 <<EOF

  Console and API   http://127.0.0.1:$LUDIS_API_PORT
  Published apps    http://<app id>.apps.localhost:$LUDIS_API_PORT/  (each at the root of its own origin)
  Sign in           admin@ludis.local / $(cat "$A/admin-password")   (superadmin)
  Kubernetes        export KUBECONFIG=$KUBECONFIG   (kubectl get nodes: ludis-node runs the pods)
  Demo              kubectl get ludis -n ludis-demo; its dashboard is "Sales dashboard" in Insights
  S3 server         $LUDIS_S3_ENDPOINT  (access key $LUDIS_S3_ACCESS_KEY)
  Operator          http://127.0.0.1:$((LUDIS_API_PORT + 1))/metrics   (kubectl get ludis -A)
  AI assistant      $ai_summary
  Web3 chains       $chain_summary
  Logs              $LUDIS_STATE/{api,operator,cluster,s3,ai,chain}/logs/
  Stop              dev/down.sh

EOF
