#!/usr/bin/env bash
# The local Kubernetes cluster: the control plane (etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler) on loopback, a real node where pods run (dev/node.sh: containerd, kubelet,
# kube-proxy, CoreDNS in namespaces of their own), and kwok, fake nodes for scale tests (tainted:
# only pods that tolerate kwok.x-k8s.io/node land there), all built from source by
# dev/build-tools.sh.
#
#   dev/cluster.sh up       start (or find the running one); prints the kubeconfig path
#   dev/cluster.sh down     stop every process and undo the node's changes to the machine; keeps
#                           the data (etcd, certificates, the node's images and volumes)
#   dev/cluster.sh purge    stop and delete the data
#   dev/cluster.sh status   say what runs
#   dev/cluster.sh env      print `export KUBECONFIG=…` for eval
#
# If KUBECONFIG already points at a reachable cluster, `up` uses that one and starts nothing.
# State lives in $LUDIS_STATE/cluster (logs in logs/, one per component).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

D=$LUDIS_STATE/cluster
P=$D/pki
KUBECONFIG_OUT=$D/kubeconfig
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)
NODE_NAMES=${LUDIS_KWOK_NODES:-kwok-node-0}
READY_TIMEOUT=${LUDIS_READY_TIMEOUT:-120}

K8S_BIN=$(tool_dir kubernetes)
kubectl() { "$K8S_BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" "$@"; }

# --- certificates ---------------------------------------------------------------------------
make_pki() {
  [ -f "$P/.complete-node" ] && return 0
  [ -f "$P/.complete" ] &&
    die "the cluster in $D was made before it had a real node (other Service addresses and certificates): delete it with dev/cluster.sh purge (or dev/down.sh --purge) and start again"
  rm -rf "$P" && mkdir -p "$P"
  (
    cd "$P"
    exec 2>openssl.log >&2
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout ca.key -out ca.crt -subj /CN=ludis-local-ca
    # serving certificate of the apiserver and kwok: a leaf with serverAuth and loopback SANs
    openssl req -newkey rsa:2048 -nodes -keyout serving.key -out serving.csr -subj /CN=kube-apiserver
    cat >serving.ext <<EOF
basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth,clientAuth
subjectAltName=IP:127.0.0.1,IP:$NODE_SVC_IP,IP:$NODE_HOST_IP,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local
EOF
    openssl x509 -req -in serving.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile serving.ext -out serving.crt
    # the admin client (group system:masters), used by the controllers, kwok and developers
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=ludis-admin"
    printf 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile client.ext -out admin.crt
    # the API server's identity towards kubelets (logs, exec); bound to system:kubelet-api-admin
    issue_cert "$P" kubelet-client /CN=kube-apiserver-kubelet-client "$CLIENT_EXT"
    # service-account token signing pair
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
  ) || die "creating the cluster certificates failed (log: $P/openssl.log)"
  touch "$P/.complete-node"
}

admin_kubeconfig() {
  write_kubeconfig "$KUBECONFIG_OUT" "https://127.0.0.1:$LUDIS_APISERVER_PORT" "$P/ca.crt" "$P/admin.crt" \
    "$P/admin.key" ludis-admin
}

# --- kwok configuration ---------------------------------------------------------------------
# Stages come from the kwok module source in the Go module cache (not copied into this repo):
# the node lifecycle with leases, and the "fast" pod stages (Running at once; pods owned by a Job
# then Succeed). ClusterLogs/ClusterExec/ClusterAttach make logs, exec and attach work on every pod
# of a KWOK node (the real node's pods have their own).
write_kwok_config() {
  local src
  src=$(cd "$DEV_DIR/tools/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok) ||
    die "cannot find the kwok module source (run dev/build-tools.sh kwok)"
  mkdir -p "$D/exec"
  # The kubelet's CRI log format: time, stream, P(artial)/F(ull) tag, message.
  [ -f "$D/container.log" ] || {
    local t
    t=$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)
    printf '%s stdout F ludis: container started\n%s stderr F ludis: a line on stderr\n' "$t" "$t" >"$D/container.log"
  }
  {
    for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
      pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
      echo "---"
      cat "$src/kustomize/stage/$f"
    done
    cat <<EOF
---
kind: ClusterLogs
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: ludis-logs}
spec:
  logs:
  - containers: []
    logsFile: $D/container.log
    follow: true
---
kind: ClusterExec
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: ludis-exec}
spec:
  execs:
  - containers: []
    local:
      workDir: $D/exec
      envs:
      - {name: LUDIS_KWOK_EXEC, value: "1"}
---
kind: ClusterAttach
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: ludis-attach}
spec:
  attaches:
  - containers: []
    logsFile: $D/container.log
EOF
  } >"$D/kwok.yaml"
}

# --- processes ------------------------------------------------------------------------------
apiserver_ready() {
  curl -fsS --max-time 2 --cacert "$P/ca.crt" --cert "$P/admin.crt" --key "$P/admin.key" \
    "https://127.0.0.1:$LUDIS_APISERVER_PORT/readyz" >/dev/null 2>&1
}

all_running() {
  local c
  for c in "${COMPONENTS[@]}"; do pid_alive "$D/pids/$c.pid" || return 1; done
  apiserver_ready
}

any_running() {
  local c
  for c in "${COMPONENTS[@]}"; do pid_alive "$D/pids/$c.pid" && return 0; done
  return 1
}

stop_all() {
  local i
  "$DEV_DIR/node.sh" down
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do stop_pidfile "$D/pids/${COMPONENTS[i]}.pid"; done
}

external_cluster() {
  [ -n "${KUBECONFIG:-}" ] && [ "$KUBECONFIG" != "$KUBECONFIG_OUT" ] && [ -f "${KUBECONFIG%%:*}" ] || return 1
  local k
  if command -v kubectl >/dev/null 2>&1; then k=$(command -v kubectl); else k=$K8S_BIN/kubectl; fi
  [ -x "$k" ] && timeout 10 "$k" get --raw /readyz >/dev/null 2>&1
}

start_components() {
  local bin kwok_bin etcd_bin
  bin=$K8S_BIN
  etcd_bin=$(tool_dir etcd)/etcd
  kwok_bin=$(tool_dir kwok)/kwok
  for c in etcd:$LUDIS_ETCD_PORT etcd-peer:$LUDIS_ETCD_PEER_PORT kube-apiserver:$LUDIS_APISERVER_PORT \
    kube-controller-manager:$LUDIS_KCM_PORT kube-scheduler:$LUDIS_SCHEDULER_PORT kwok:$LUDIS_KWOK_PORT; do
    require_free_port "${c%%:*}" "${c##*:}"
  done
  mkdir -p "$D/etcd" "$D/logs" "$D/pids"

  start_bg etcd "$D" "$etcd_bin" --name ludis --data-dir "$D/etcd" \
    --listen-client-urls "http://127.0.0.1:$LUDIS_ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$LUDIS_ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$LUDIS_ETCD_PEER_PORT" \
    --initial-advertise-peer-urls "http://127.0.0.1:$LUDIS_ETCD_PEER_PORT" \
    --initial-cluster "ludis=http://127.0.0.1:$LUDIS_ETCD_PEER_PORT" \
    --unsafe-no-fsync --quota-backend-bytes=2147483648 --log-level=warn
  wait_for etcd 30 "$D/logs/etcd.log" curl -fsS --max-time 2 "http://127.0.0.1:$LUDIS_ETCD_PORT/health"

  # API Priority and Fairness is on, as in every real cluster: the administrator's certificate
  # (system:masters, which the controllers here use too) is exempt from it, while a ServiceAccount's
  # requests go through its FlowSchema (dev/bench-operator.sh steady runs the operator as the
  # chart's, under the chart's FlowSchema).
  start_bg kube-apiserver "$D" "$bin/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$LUDIS_ETCD_PORT" \
    --bind-address=127.0.0.1 --secure-port="$LUDIS_APISERVER_PORT" \
    --advertise-address="$NODE_HOST_IP" \
    --cert-dir="$D/apiserver" \
    --tls-cert-file="$P/serving.crt" --tls-private-key-file="$P/serving.key" \
    --client-ca-file="$P/ca.crt" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$P/sa.pub" --service-account-signing-key-file="$P/sa.key" \
    --service-cluster-ip-range="$NODE_SVC_CIDR" \
    --authorization-mode=Node,RBAC \
    --allow-privileged=true \
    --kubelet-preferred-address-types=InternalIP,Hostname \
    --kubelet-client-certificate="$P/kubelet-client.crt" --kubelet-client-key="$P/kubelet-client.key" \
    --kubelet-certificate-authority="$P/ca.crt" \
    --profiling=false --v=1
  wait_for kube-apiserver "$READY_TIMEOUT" "$D/logs/kube-apiserver.log" apiserver_ready
  admin_kubeconfig

  start_bg kube-controller-manager "$D" "$bin/kube-controller-manager" \
    --kubeconfig="$KUBECONFIG_OUT" \
    --authentication-kubeconfig="$KUBECONFIG_OUT" --authorization-kubeconfig="$KUBECONFIG_OUT" \
    --service-account-private-key-file="$P/sa.key" --root-ca-file="$P/ca.crt" \
    --cluster-signing-cert-file="$P/ca.crt" --cluster-signing-key-file="$P/ca.key" \
    --controllers='*' --leader-elect=false \
    --kube-api-qps=200 --kube-api-burst=400 \
    --bind-address=127.0.0.1 --secure-port="$LUDIS_KCM_PORT"
  start_bg kube-scheduler "$D" "$bin/kube-scheduler" \
    --kubeconfig="$KUBECONFIG_OUT" \
    --authentication-kubeconfig="$KUBECONFIG_OUT" --authorization-kubeconfig="$KUBECONFIG_OUT" \
    --leader-elect=false --bind-address=127.0.0.1 --secure-port="$LUDIS_SCHEDULER_PORT" \
    --kube-api-qps=200 --kube-api-burst=400
  write_kwok_config
  start_bg kwok "$D" "$kwok_bin" \
    --kubeconfig="$KUBECONFIG_OUT" --config="$D/kwok.yaml" \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
    --node-ip=127.0.0.1 --node-name=localhost --node-port="$LUDIS_KWOK_PORT" \
    --server-address="127.0.0.1:$LUDIS_KWOK_PORT" \
    --tls-cert-file="$P/serving.crt" --tls-private-key-file="$P/serving.key" \
    --node-lease-duration-seconds=40

  local c
  for c in kube-controller-manager kube-scheduler kwok; do
    sleep 0.2
    pid_alive "$D/pids/$c.pid" || { tail -n 15 "$D/logs/$c.log" >&2; die "$c exited at start (log: $D/logs/$c.log)"; }
  done
}

register_nodes() {
  local n
  for n in $NODE_NAMES; do
    kubectl apply -f - >/dev/null <<EOF || die "registering the kwok node $n failed"
apiVersion: v1
kind: Node
metadata:
  name: $n
  labels:
    type: kwok
    kubernetes.io/hostname: $n
    kubernetes.io/os: linux
    kubernetes.io/arch: amd64
    node-role.kubernetes.io/agent: ""
  annotations:
    kwok.x-k8s.io/node: fake
spec:
  taints:
  - {key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}
EOF
  done
  for n in $NODE_NAMES; do
    wait_for "kwok node $n" 60 "$D/logs/kwok.log" \
      sh -c "'$K8S_BIN/kubectl' --kubeconfig '$KUBECONFIG_OUT' get node $n -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
    # kwok's node stage keeps an allocatable it finds and names no local disk: every Ludis pod
    # asks for ephemeral storage (its size), so a fake node says it has plenty.
    kubectl patch node "$n" --subresource=status --type=merge >/dev/null \
      -p '{"status":{"capacity":{"ephemeral-storage":"1Pi"},"allocatable":{"ephemeral-storage":"1Pi"}}}' ||
      die "giving the kwok node $n local disk failed"
  done
  # Volumes: folders of this machine made by dev/tools/local-volumes (started with the node),
  # behind the default StorageClass, so PersistentVolumeClaims bind and their pods schedule.
  kubectl apply -f - >/dev/null <<EOF || die "creating the default StorageClass failed"
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: standard
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
provisioner: ludis.dev/local-volumes
reclaimPolicy: Delete
volumeBindingMode: Immediate
EOF
  wait_for "default service account" 60 "$D/logs/kube-controller-manager.log" kubectl get serviceaccount default -n default
}

up() {
  if external_cluster; then
    ok "using the cluster of KUBECONFIG=$KUBECONFIG (started nothing)"
    return 0
  fi
  eval "$("$DEV_DIR/node.sh" plan)"
  if all_running; then
    ok "the local cluster is already running (KUBECONFIG=$KUBECONFIG_OUT)"
    "$DEV_DIR/node.sh" up
    return 0
  fi
  if any_running; then
    log "cleaning up a partly running cluster from an earlier start"
    stop_all
  fi
  local start
  start=$(now)
  "$DEV_DIR/build-tools.sh" kubernetes etcd kwok >&2
  make_pki
  start_components
  register_nodes
  "$DEV_DIR/node.sh" up
  ok "local cluster ready in $(elapsed "$start")s: $("$K8S_BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" version 2>/dev/null | grep -i server)"
  ok "export KUBECONFIG=$KUBECONFIG_OUT"
}

status() {
  local c rss total=0
  for c in "${COMPONENTS[@]}"; do
    if pid_alive "$D/pids/$c.pid"; then
      rss=$(($(awk '/VmRSS/ {print $2}' "/proc/$(cat "$D/pids/$c.pid")/status" 2>/dev/null || echo 0) / 1024))
      total=$((total + rss))
      printf '%-24s running (pid %s, %s MiB)\n' "$c" "$(cat "$D/pids/$c.pid")" "$rss"
    else
      printf '%-24s stopped\n' "$c"
    fi
  done
  echo "memory (RSS) of the control plane: $total MiB"
  if apiserver_ready; then echo "apiserver /readyz: ok (KUBECONFIG=$KUBECONFIG_OUT)"; else echo "apiserver /readyz: not answering"; fi
  "$DEV_DIR/node.sh" status
}

case "${1:-}" in
  up) up ;;
  down) stop_all && ok "local cluster stopped (data kept in $D)" ;;
  purge) stop_all && "$DEV_DIR/node.sh" purge && rm -rf "$D" && ok "local cluster stopped and its data removed" ;;
  status) status ;;
  env) echo "export KUBECONFIG=$KUBECONFIG_OUT" ;;
  *) die "usage: dev/cluster.sh up|down|purge|status|env" ;;
esac
