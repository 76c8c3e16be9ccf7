# shellcheck shell=bash
# Shared settings and helpers for the dev/ scripts. Sourced, never run.
#
# Everything that is built or started lives outside the repository:
#   $LUDIS_CACHE  built binaries, keyed by version (default ~/.cache/ludis)
#   $LUDIS_STATE  running processes: pid files, logs, data, kubeconfig (default ~/.local/state/ludis)

set -euo pipefail

DEV_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$DEV_DIR")
export LUDIS_CACHE=${LUDIS_CACHE:-$HOME/.cache/ludis}
export LUDIS_STATE=${LUDIS_STATE:-$HOME/.local/state/ludis}

# Cargo builds are cached outside the checkout too, keyed by the compiler version, so a fresh
# clone (CI) reuses what an earlier run on this machine compiled.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$LUDIS_CACHE/cargo-target/rustc-$(rustc --version | awk '{print $2}')}

# Go: never download another toolchain; static binaries.
export GOTOOLCHAIN=local
export CGO_ENABLED=0

# Loopback ports (override any of them from the environment).
: "${LUDIS_ETCD_PORT:=23790}"
: "${LUDIS_ETCD_PEER_PORT:=23800}"
: "${LUDIS_APISERVER_PORT:=26443}"
: "${LUDIS_KCM_PORT:=26257}"
: "${LUDIS_SCHEDULER_PORT:=26259}"
: "${LUDIS_KWOK_PORT:=26250}"
: "${LUDIS_S3_PORT:=29000}"
: "${LUDIS_PG_PORT:=25432}"
: "${LUDIS_API_PORT:=8080}"
: "${LUDIS_SMTP_PORT:=22525}"
: "${LUDIS_AI_PORT:=29100}"
# The local Ethereum chains' JSON-RPC (dev/chain.sh): chain ids 31337 and 31338.
: "${LUDIS_CHAIN_ETHEREUM_PORT:=29545}"
: "${LUDIS_CHAIN_POLYGON_PORT:=29546}"
export LUDIS_ETCD_PORT LUDIS_ETCD_PEER_PORT LUDIS_APISERVER_PORT LUDIS_KCM_PORT LUDIS_SCHEDULER_PORT \
  LUDIS_KWOK_PORT LUDIS_S3_PORT LUDIS_PG_PORT LUDIS_API_PORT LUDIS_SMTP_PORT LUDIS_AI_PORT \
  LUDIS_CHAIN_ETHEREUM_PORT LUDIS_CHAIN_POLYGON_PORT

# Our servers' ports are taken out of the kernel's ephemeral range (as root), so that no client
# connection can be holding one as its local port when its server starts: the tests' ports lie in
# 32768-60999, and once the API server's connection to etcd took PostgreSQL's port ("Address
# already in use"). Idempotent; reserved ports are only ever added, until the next boot.
reserve_ports() {
  local f=/proc/sys/net/ipv4/ip_local_reserved_ports current port add=()
  [ -w "$f" ] || return 0
  current=$(cat "$f")
  for port in "$@"; do
    [[ ",$current," == *",$port,"* ]] || add+=("$port")
  done
  [ ${#add[@]} -gt 0 ] || return 0
  (IFS=,; echo "${current:+$current,}${add[*]}" >"$f") 2>/dev/null || true
}
reserve_ports "$LUDIS_ETCD_PORT" "$LUDIS_ETCD_PEER_PORT" "$LUDIS_APISERVER_PORT" "$LUDIS_KCM_PORT" \
  "$LUDIS_SCHEDULER_PORT" "$LUDIS_KWOK_PORT" "$LUDIS_S3_PORT" "$LUDIS_PG_PORT" "$LUDIS_API_PORT" "$LUDIS_SMTP_PORT" \
  "$LUDIS_AI_PORT" "$LUDIS_CHAIN_ETHEREUM_PORT" "$LUDIS_CHAIN_POLYGON_PORT" ${LUDIS_E2E_PORT:+"$LUDIS_E2E_PORT"}

# Credentials of the local S3 server (loopback only, development and tests).
export LUDIS_S3_ACCESS_KEY=${LUDIS_S3_ACCESS_KEY:-ludis-dev}
export LUDIS_S3_SECRET_KEY=${LUDIS_S3_SECRET_KEY:-ludis-dev-secret-key}
export LUDIS_S3_ENDPOINT=${LUDIS_S3_ENDPOINT:-http://127.0.0.1:$LUDIS_S3_PORT}

# The versions of what is built from source are pinned by dev/tools/*: go.mod/go.sum for the Go
# servers, Cargo.toml/Cargo.lock for the S3 server (dev/tools/s3-server).

if [ -t 2 ]; then _c_info=$'\e[36m' _c_err=$'\e[31m' _c_ok=$'\e[32m' _c_off=$'\e[0m'; else _c_info='' _c_err='' _c_ok='' _c_off=''; fi
log() { printf '%s[ludis]%s %s\n' "$_c_info" "$_c_off" "$*" >&2; }
ok() { printf '%s[ludis]%s %s\n' "$_c_ok" "$_c_off" "$*" >&2; }
die() { printf '%s[ludis] error:%s %s\n' "$_c_err" "$_c_off" "$*" >&2; exit 1; }

# Seconds since the epoch with millisecond precision, for timing reports.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The version a wrapper module pins for its main module, e.g. `gomod_version kubernetes k8s.io/kubernetes`.
gomod_version() {
  awk -v m="$2" '$1 == "require" && $2 == m { print $3 } $1 == m && $2 ~ /^v/ { print $2 }' \
    "$DEV_DIR/tools/$1/go.mod" | head -n 1
}

# A short hash of a wrapper module's go.mod, go.sum and main.go (when it has its own program), so
# a changed pin or program means a new cache key.
gomod_hash() {
  local d=$DEV_DIR/tools/$1
  cat "$d/go.mod" "$d/go.sum" $([ -f "$d/main.go" ] && echo "$d/main.go") | sha256sum | cut -c1-10
}

go_version() { go env GOVERSION; }

rustc_version() { rustc --version | awk '{print $2}'; }

# A short hash of a Rust tool crate's Cargo.toml, Cargo.lock and sources, so any change to the
# crate or its pinned dependencies means a new cache key.
crate_hash() {
  (cd "$DEV_DIR/tools/$1" && find Cargo.toml Cargo.lock src -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) |
    sha256sum | cut -c1-10
}

# The cache folder for one built component. Every input that changes the binary is in the name.
tool_dir() {
  case "$1" in
    kubernetes | kubernetes-node | etcd | kwok | helm | helm-docs | coredns | local-volumes | argo-workflows | health | kube-router)
      local mod wrapper=$1
      case "$1" in
        kubernetes) mod=k8s.io/kubernetes ;;
        # kubelet and kube-proxy: the same wrapper module, a cache folder of their own
        kubernetes-node) mod=k8s.io/kubernetes wrapper=kubernetes ;;
        etcd) mod=go.etcd.io/etcd/server/v3 ;;
        kwok) mod=sigs.k8s.io/kwok ;;
        helm) mod=helm.sh/helm/v4 ;;
        helm-docs) mod=github.com/norwoodj/helm-docs ;;
        coredns) mod=github.com/coredns/coredns ;;
        local-volumes) mod=sigs.k8s.io/sig-storage-lib-external-provisioner/v10 ;;
        argo-workflows) mod=github.com/argoproj/argo-workflows/v3 ;;
        health) mod=sigs.k8s.io/cli-utils ;;
        kube-router) mod=github.com/cloudnativelabs/kube-router/v2 ;;
      esac
      echo "$LUDIS_CACHE/bin/$1-$(gomod_version "$wrapper" "$mod")-$(gomod_hash "$wrapper")-$(go_version)"
      ;;
    s3-server) echo "$LUDIS_CACHE/bin/s3-server-$(crate_hash s3-server)-$(rustc_version)" ;;
    *) die "unknown tool $1" ;;
  esac
}

# Is something listening on 127.0.0.1:PORT?
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Which process listens on a port, for error messages.
port_owner() { ss -ltnpH "sport = :$1" 2>/dev/null | sed -n 's/.*users:((\("[^"]*"\),pid=\([0-9]*\).*/\1 (pid \2)/p' | head -n 1; }

# Wait until a command succeeds, or fail naming the component and its log.
wait_for() {
  local what=$1 timeout=$2 logfile=$3
  shift 3
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      [ -f "$logfile" ] && { echo "--- last lines of $logfile:" >&2; tail -n 15 "$logfile" >&2; }
      die "$what did not become ready within ${timeout}s (log: $logfile)"
    fi
    sleep 0.3
  done
}

# Is the process in this pid file alive (a zombie, dead but not yet reaped, is not)?
pid_alive() {
  local pid state
  [ -f "$1" ] || return 1
  pid=$(cat "$1")
  state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# Stop the process in a pid file: TERM, wait up to 10 s, then KILL; remove the pid file.
stop_pidfile() {
  local pidfile=$1 pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if pid_alive "$pidfile"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do pid_alive "$pidfile" || break; sleep 0.1; done
    pid_alive "$pidfile" && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

# Start a long-running process detached from this shell, logging to a file and writing its pid.
start_bg() {
  local name=$1 dir=$2
  shift 2
  mkdir -p "$dir/logs" "$dir/pids"
  setsid "$@" >"$dir/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$dir/pids/$name.pid"
}

# Fail clearly when a port this component needs is taken by someone else.
require_free_port() {
  local component=$1 port=$2
  if port_in_use "$port"; then
    die "$component cannot start: port $port on 127.0.0.1 is taken${3:+ $3} by $(port_owner "$port" || echo 'another process'). Stop it, or set the port variable (see dev/lib.sh)."
  fi
}

# --- certificates and kubeconfigs of the local cluster ------------------------------------------
# X.509 extensions of a client certificate (a leaf that may only authenticate clients).
CLIENT_EXT='basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth'

# issue_cert DIR NAME SUBJECT EXTENSIONS: DIR/NAME.{key,crt} signed by DIR/ca.{crt,key}.
issue_cert() {
  local dir=$1 name=$2 subject=$3 ext=$4
  openssl req -newkey rsa:2048 -nodes -keyout "$dir/$name.key" -out "$dir/$name.csr" -subj "$subject" &&
    printf '%s\n' "$ext" >"$dir/$name.ext" &&
    openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
      -days 3650 -extfile "$dir/$name.ext" -out "$dir/$name.crt"
}

# write_kubeconfig OUT SERVER CA CERT KEY [USER]: a kubeconfig with the certificates embedded
# (mode 600).
write_kubeconfig() {
  local out=$1 server=$2 ca=$3 cert=$4 key=$5 user=${6:-user}
  cat >"$out.tmp" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: ludis-local
  cluster:
    server: $server
    certificate-authority-data: $(base64 -w0 <"$ca")
users:
- name: $user
  user:
    client-certificate-data: $(base64 -w0 <"$cert")
    client-key-data: $(base64 -w0 <"$key")
contexts:
- name: ludis-local
  context: {cluster: ludis-local, user: $user}
current-context: ludis-local
KUBECONFIG
  chmod 600 "$out.tmp" && mv "$out.tmp" "$out"
}

# The administrator's image list (seeds/ludis-images.json, the images built here for the node) as
# the ConfigMap ludis-images in the namespace $1.
# apply_admin_lists NS: the administrator's image list (ConfigMap ludis-images, dev/images.sh) and
# size list (ConfigMap ludis-sizes, key sizes.json: seeds/ludis-sizes.json), as the chart makes them.
apply_admin_lists() {
  local ns=$1 kubectl
  kubectl="$(tool_dir kubernetes)/kubectl"
  # The platform's lists win over what tests applied (operator/tests/integration_sizes.rs).
  "$DEV_DIR/images.sh" configmap "$ns" |
    "$kubectl" apply --server-side --force-conflicts --field-manager=ludis-dev -f - >/dev/null || return 1
  jq 'del(.description)' "$REPO_DIR/seeds/ludis-sizes.json" |
    "$kubectl" create configmap ludis-sizes -n "$ns" --from-file=sizes.json=/dev/stdin \
      --dry-run=client -o yaml |
    "$kubectl" apply --server-side --force-conflicts --field-manager=ludis-dev -f - >/dev/null
}

# node_setting KEY: a setting the running real node wrote to $LUDIS_STATE/node/node.env (dev/node.sh
# write_env), e.g. LUDIS_NODE_HOST_IP, or the organizations' NetworkPolicy settings of an API on
# this machine (LUDIS_ORG_NETWORK_API_CIDRS, LUDIS_ORG_NETWORK_EGRESS_CIDRS); empty without a node.
node_setting() { sed -n "s/^$1='\(.*\)'$/\1/p" "$LUDIS_STATE/node/node.env" 2>/dev/null || true; }
