# shellcheck shell=bash
# The end-to-end platform as a production install (sourced by dev/e2e.sh when
# LUDIS_E2E_PLATFORM=chart, which dev/test.sh sets): the API and operator images are built here
# (dev/images.sh product: Debian's packages of dev/images/ludis-base, the binaries, the built
# console; LUDIS_E2E_CHART_PROFILE=release by default, dev/test.sh uses the debug build its Rust
# tests already made), imported into the real node, and the chart (charts/ludis) is installed with
# `helm install` into the local cluster, with PostgreSQL (dev/postgres.sh) and the S3 server
# (dev/s3.sh) outside the cluster as a production install has them. The specs then run against
# the installed API through its Service. The e2e's steps are the chart's upgrades:
#   platform_start         helm install, operator.replicas=0 (resources mirrored, not reconciled),
#                          the API's Service behind a reverse proxy (nginx) on $port
#   platform_checks        the sign-in throttle behind that proxy (charts/ludis/tests/behind-proxy.sh)
#                          and the API's rights (charts/ludis/tests/installed-rbac.sh)
#   platform_operator      helm upgrade --set operator.replicas=1 (the real-node specs run code)
#   platform_short_tokens  helm upgrade with access tokens of 3 s (the silent-refresh spec)
#   platform_end           helm uninstall, then a check that nothing of the release is left but
#                          what the chart keeps on purpose (CRDs with crds.keep, the API's data)
# Needs: $KUBECONFIG, the real node (node.env), dev/postgres.sh and dev/s3.sh running, nginx.

CHART_RELEASE=ludis
CHART_NAMESPACE=${LUDIS_E2E_CHART_NAMESPACE:-ludis-platform}
CHART_PROFILE=${LUDIS_E2E_CHART_PROFILE:-release}
CHART_DB=ludis_chart
CHART_VALUES=$DEV_DIR/e2e-chart-values.yaml
helm() { "$(tool_dir helm)/helm" --kubeconfig "$KUBECONFIG" "$@"; }
kctl() { "$(tool_dir kubernetes)/kubectl" --kubeconfig "$KUBECONFIG" "$@"; }

# The node's end of the link, where pods reach what runs on this machine's loopback.
NODE_HOST_IP=$(node_setting LUDIS_NODE_HOST_IP)
[ -n "$NODE_HOST_IP" ] || die "the chart platform needs the real node (dev/node.sh up; no $LUDIS_STATE/node/node.env)"

# pod_url URL: URL (http://127.0.0.1:PORT/…) as pods reach it, the port forwarded to them.
pod_url() {
  local url=$1 port
  [ -n "$url" ] || return 0
  [[ $url =~ ^http://127\.0\.0\.1:([0-9]+)(/.*)?$ ]] || die "pod_url: $url is not an http://127.0.0.1:PORT address"
  port=${BASH_REMATCH[1]}
  "$DEV_DIR/node.sh" forward "port-$port" "$port" >&2
  echo "http://$NODE_HOST_IP:$port${BASH_REMATCH[2]}"
}

# The API and operator images: the binaries ($CHART_PROFILE) and the built console over the Debian base,
# imported into the node and tagged `e2e`; the node's other images are tagged `e2e` too, so the
# chart's image list (images.registry/images.tag) names them as a registry would.
chart_images() {
  local stage=$E/images flags=() name image
  [ "$CHART_PROFILE" = release ] && flags=(--release)
  log "building the API and the operator ($CHART_PROFILE) for their images"
  cargo build --locked --quiet "${flags[@]}" -p ludis-api -p ludis-operator --bins || die "building the binaries failed"
  rm -rf "$stage" && mkdir -p "$stage/api/usr/local/bin" "$stage/api/usr/share/ludis" "$stage/operator/usr/local/bin"
  # Debug info is not shipped (the release profile has none; a dev build's is stripped).
  objcopy --strip-debug "$CARGO_TARGET_DIR/$CHART_PROFILE/ludis-api" "$stage/api/usr/local/bin/ludis-api"
  objcopy --strip-debug "$CARGO_TARGET_DIR/$CHART_PROFILE/ludis-operator" "$stage/operator/usr/local/bin/ludis-operator"
  cp -r console/dist "$stage/api/usr/share/ludis/console"
  for image in api operator; do
    name=ludis-$image
    local layout
    layout=$("$DEV_DIR/images.sh" product "$name" "$stage/$image") || die "building the image $name failed"
    "$DEV_DIR/node.sh" import "$layout" "localhost/ludis/$name:e2e" || die "importing the image $name failed"
    log "image $(cat "$layout/ref") imported as localhost/ludis/$name:e2e"
  done
  while read -r name ref; do
    "$DEV_DIR/node.sh" import "$("$DEV_DIR/images.sh" dir "$name")" "localhost/ludis/$name:e2e" ||
      die "tagging the image $name failed"
  done < <("$DEV_DIR/images.sh" refs)
}

# A fresh database on the tests' PostgreSQL, and the Secrets a production install brings itself.
chart_secrets() {
  local pg
  pg=$("$DEV_DIR/postgres.sh" url)
  [[ $pg =~ ^postgres://([^:]+):([^@]+)@127\.0\.0\.1:([0-9]+)/ ]] || die "unexpected PostgreSQL URL $pg"
  local user=${BASH_REMATCH[1]} password=${BASH_REMATCH[2]} port=${BASH_REMATCH[3]}
  PGPASSWORD=$password psql -q -h 127.0.0.1 -p "$port" -U "$user" -d postgres \
    -c "DROP DATABASE IF EXISTS $CHART_DB WITH (FORCE)" -c "CREATE DATABASE $CHART_DB" >/dev/null ||
    die "creating the database $CHART_DB failed"
  "$DEV_DIR/node.sh" forward "port-$port" "$port" >&2
  kctl create namespace "$CHART_NAMESPACE" --dry-run=client -o yaml | kctl apply -f - >/dev/null
  kctl -n "$CHART_NAMESPACE" create secret generic ludis-database \
    --from-literal=database-url="postgres://$user:$password@$NODE_HOST_IP:$port/$CHART_DB" \
    --dry-run=client -o yaml | kctl apply -f - >/dev/null
  kctl -n "$CHART_NAMESPACE" create secret generic ludis-s3 \
    --from-literal=access-key="$LUDIS_S3_ACCESS_KEY" --from-literal=secret-key="$LUDIS_S3_SECRET_KEY" \
    --dry-run=client -o yaml | kctl apply -f - >/dev/null
  kctl -n "$CHART_NAMESPACE" create secret generic ludis-admin \
    --from-literal=email="$LUDIS_E2E_ADMIN_EMAIL" --from-literal=password="$admin_password" \
    --dry-run=client -o yaml | kctl apply -f - >/dev/null
}

# The values of this install that depend on the machine (the rest: dev/e2e-chart-values.yaml).
chart_set_values() {
  local s3 ai eth poly
  s3=$(pod_url "$LUDIS_S3_ENDPOINT")
  ai=$(pod_url "${LUDIS_AI_URL:-}")
  eth=$(pod_url "${LUDIS_WEB3_RPC_ETHEREUM:-}")
  poly=$(pod_url "${LUDIS_WEB3_RPC_POLYGON:-}")
  CHART_ARGS=(
    -f "$CHART_VALUES"
    --set "api.appsOrigin=http://*.apps.localhost:$port"
    --set "s3.endpoint=$s3"
    # The reverse proxy (chart_expose) reaches the API's pod from the node's address.
    --set-json "api.trustedProxies=[\"$(node_setting LUDIS_NODE_IP)/32\"]"
    # Browsers reach the S3 server where pods do: its forwarder on the host's end of the link.
    --set "s3.publicEndpoint=$s3"
    # The organizations' NetworkPolicies (on, as in production): pods reach cluster DNS (the node's
    # CoreDNS, no pod of kube-system) and the S3 server, one port each (dev/node.sh's node.env).
    --set-json "networkPolicy.organizations.egressCIDRs=$(node_setting LUDIS_ORG_NETWORK_EGRESS_CIDRS | jq -Rc 'split(",")')"
    --set-json "api.extraEnvVars=$(jq -nc --arg ai "$ai" --arg model "${LUDIS_AI_MODEL:-}" \
      --arg eth "$eth" --arg poly "$poly" '[
        {name: "LUDIS_AI_URL", value: $ai}, {name: "LUDIS_AI_MODEL", value: $model},
        {name: "LUDIS_AI_KEY", valueFrom: {secretKeyRef: {name: "ludis-ai", key: "key", optional: true}}},
        {name: "LUDIS_WEB3_RPC_ETHEREUM", value: $eth}, {name: "LUDIS_WEB3_RPC_POLYGON", value: $poly}]')"
  )
  kctl -n "$CHART_NAMESPACE" create secret generic ludis-ai --from-literal=key="${LUDIS_AI_KEY:-}" \
    --dry-run=client -o yaml | kctl apply -f - >/dev/null
}

# The API's Service on this machine's loopback ($port) behind a real reverse proxy (nginx), as
# browsers reach it through an ingress: the Host kept (the apps' origins), websockets upgraded,
# uploads and logs streamed, the client's address appended to X-Forwarded-For. The API trusts the
# proxy's address as the pod sees it (api.trustedProxies, chart_set_values).
chart_expose() {
  local ip dir=$E/nginx
  ip=$(kctl -n "$CHART_NAMESPACE" get service "$CHART_RELEASE-api" -o jsonpath='{.spec.clusterIP}')
  [ -n "$ip" ] || die "the API's Service has no cluster IP"
  command -v nginx >/dev/null || die "nginx is not installed (run dev/install-deps.sh --browser)"
  stop_pidfile "$E/pids/chart-api-proxy.pid"
  require_free_port "the installed API's reverse proxy" "$port"
  rm -rf "$dir" && mkdir -p "$dir/tmp" "$E/logs"
  cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $E/logs/chart-api-proxy.error.log warn;
events { worker_connections 1024; }
http {
  access_log $E/logs/chart-api-proxy.access.log;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  client_max_body_size 0;
  map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://$ip:80;
      proxy_http_version 1.1;
      proxy_set_header Host \$http_host;
      proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto \$scheme;
      proxy_set_header Upgrade \$http_upgrade;
      proxy_set_header Connection \$connection_upgrade;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
    }
  }
}
CONF
  # As root, nginx's workers would run as nobody, who cannot write its temporary files here.
  [ "$(id -u)" = 0 ] && sed -i '1i user root;' "$dir/nginx.conf"
  nginx -t -q -c "$dir/nginx.conf" -p "$dir" 2>"$E/logs/chart-api-proxy.log" ||
    die "the reverse proxy's configuration is refused: $(cat "$E/logs/chart-api-proxy.log")"
  start_bg chart-api-proxy "$E" nginx -c "$dir/nginx.conf" -p "$dir" -g 'daemon off;'
  wait_for "the installed API (through nginx and its Service $ip)" 60 "$E/logs/chart-api-proxy.error.log" \
    curl -fsS --max-time 2 "http://127.0.0.1:$port/readyz"
}

# chart_account COMPONENT: the service account the release's component runs as.
chart_account() {
  kctl -n "$CHART_NAMESPACE" get deployment "$CHART_RELEASE-$1" -o jsonpath='{.spec.template.spec.serviceAccountName}'
}

# The sign-in throttle behind the proxy (charts/ludis/tests/behind-proxy.sh): one client locks out
# only itself, a client cannot name its own address, the per-account limit holds. The installed
# API's rights (charts/ludis/tests/installed-rbac.sh): in the Demo organization's namespace, which
# it made at its start, and nowhere else.
platform_checks() {
  local rc=0
  LUDIS_E2E_URL=http://127.0.0.1:$port charts/ludis/tests/behind-proxy.sh || rc=1
  KUBECTL="$(tool_dir kubernetes)/kubectl" charts/ludis/tests/installed-rbac.sh "$CHART_NAMESPACE" \
    "$(chart_account api)" "$(chart_account operator)" ludis-demo || rc=1
  return $rc
}

# helm_step VERB ARGS...: helm install/upgrade that waits for the rollout, its output kept.
helm_step() {
  local verb=$1 start
  shift
  start=$(now)
  helm "$verb" "$CHART_RELEASE" charts/ludis --namespace "$CHART_NAMESPACE" --wait --timeout 6m "$@" \
    >"$E/logs/helm-$verb.log" 2>&1 || {
    cat "$E/logs/helm-$verb.log" >&2
    platform_logs
    die "helm $verb failed"
  }
  cat "$E/logs/helm-$verb.log" >&2
  ok "helm $verb done in $(elapsed "$start")s"
}

platform_start() {
  mkdir -p "$E/logs"
  chart_images
  chart_secrets
  chart_set_values
  # A fresh release: an earlier run's is removed first (it was stopped before uninstalling).
  helm uninstall "$CHART_RELEASE" --namespace "$CHART_NAMESPACE" --wait >/dev/null 2>&1 || true
  # The CRDs the tests applied before are taken over by the release, as an engineer adopting
  # resources applied by hand would.
  helm_step install --take-ownership "${CHART_ARGS[@]}" --set operator.replicas=0
  chart_expose
}

platform_operator() {
  helm_step upgrade --reuse-values --set operator.replicas=1
  kctl -n "$CHART_NAMESPACE" wait --for=condition=Available --timeout=120s "deployment/$CHART_RELEASE-operator" >/dev/null ||
    die "the installed operator is not available"
  export LUDIS_E2E_REAL_NODE=1
}

platform_short_tokens() {
  local env
  env=$(helm get values "$CHART_RELEASE" --namespace "$CHART_NAMESPACE" -o json |
    jq -c '.api.extraEnvVars + [{name: "LUDIS_ACCESS_TOKEN_TTL", value: "3"}]')
  helm_step upgrade --reuse-values --set-json "api.extraEnvVars=$env"
  chart_expose
}

# The pods, events and logs of the release, for a failure.
platform_logs() {
  kctl -n "$CHART_NAMESPACE" get pods -o wide >&2 || true
  kctl -n "$CHART_NAMESPACE" get events --sort-by=.lastTimestamp 2>&1 | tail -n 20 >&2 || true
  local c
  for c in api operator; do
    echo "--- last lines of the $c's log:" >&2
    kctl -n "$CHART_NAMESPACE" logs "deployment/$CHART_RELEASE-$c" --tail=200 2>&1 | grep -v ' INFO \|"level":"INFO"' | tail -n 30 >&2 || true
  done
}

# helm uninstall, then every object the release had must be gone but what the chart keeps on
# purpose (annotated helm.sh/resource-policy: keep), and the CRDs must stay (crds.keep).
platform_end() {
  local manifest kept left crd
  stop_pidfile "$E/pids/chart-api-proxy.pid"
  manifest=$E/release-manifest.yaml
  helm get manifest "$CHART_RELEASE" --namespace "$CHART_NAMESPACE" >"$manifest" || die "the release is not installed"
  kept=$(kctl create --dry-run=client -f "$manifest" -o json |
    jq -r '(.items // [.])[] | select(.metadata.annotations."helm.sh/resource-policy" == "keep") | "\(.kind | ascii_downcase)/\(.metadata.name)"')
  helm uninstall "$CHART_RELEASE" --namespace "$CHART_NAMESPACE" --wait --timeout 3m >&2 || die "helm uninstall failed"
  # The release's pods belong to its ReplicaSets, not to the release: they end after their grace
  # period, once the garbage collector has removed their ReplicaSets.
  kctl -n "$CHART_NAMESPACE" wait --for=delete pod -l "app.kubernetes.io/instance=$CHART_RELEASE" --timeout=120s >/dev/null ||
    die "the release's pods still run 120 s after helm uninstall"
  # What is still there of the release's objects, but what the chart keeps on purpose; and no pod
  # of the release runs any more.
  left=$({
    kctl get -f "$manifest" --ignore-not-found -o name | sed 's|^\([a-z]*\)\.[^/]*/|\1/|'
    kctl -n "$CHART_NAMESPACE" get pods -l "app.kubernetes.io/instance=$CHART_RELEASE" -o name
  } | grep -vxF -f <(echo "$kept"; echo '#none#') || true)
  [ -z "$left" ] || die "helm uninstall left $(echo "$left" | xargs)"
  for crd in projects insights workflows workflowruns datasets; do
    kctl get crd "$crd.ludis.dev" >/dev/null || die "the CRD $crd.ludis.dev was removed although crds.keep is true"
  done
  ok "helm uninstall left only what the chart keeps on purpose ($(echo "${kept:-nothing}" | xargs)) and the CRDs"
  kctl delete namespace "$CHART_NAMESPACE" --wait=false >/dev/null
}
