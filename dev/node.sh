#!/usr/bin/env bash
# The local platform's real node, beside dev/cluster.sh's control plane: containerd and runc
# (Debian's), kubelet and kube-proxy (built from k8s.io/kubernetes, dev/tools/kubernetes), CoreDNS
# (dev/tools/coredns), the bridge CNI plugin (Debian's containernetworking-plugins) and an enforcer
# of NetworkPolicies: kube-router's network policy controller alone (dev/tools/kube-router; its
# router and service proxy stay off), which keeps iptables rules and ipsets of the node's pods and
# rejects what no policy allows, so tests see policies enforced, not just stored.
#
# Everything of the node runs inside a network namespace and a mount namespace of its own, so two
# platforms on one machine (dev/up.sh's and dev/test.sh's) never share a port, a bridge, an
# iptables chain or a file, and the machine keeps none of it after `down`:
#   - network namespace ludis-<id> (id: a hash of $LUDIS_STATE): the bridge ludis0 with the node's
#     address, the pods behind it, kubelet, kube-proxy's and kube-router's iptables rules and
#     ipsets, CoreDNS on port 53; a veth
#     pair is its only link, to the host, with no default route anywhere: pods reach the node, the
#     Services, and what the host offers them on its end of the veth (the API server, S3 and the
#     API, forwarded there from loopback by socat), and nothing else (no route; no masquerading).
#   - mount namespace: fresh /run and /var/lib (kubelet's, containerd's and CNI's folders bound from
#     $LUDIS_STATE/node), /var/log bound from there too, and the kernel settings kubelet insists on
#     (vm.overcommit_memory, kernel.panic, kernel.panic_on_oops) bound to files, so kubelet's writes
#     never reach the machine.
#   - cgroups /ludis-<id> (kubelet's cgroupRoot): in every hierarchy on cgroup v1 (what this
#     machine kind has, and what is tested), one cgroup on v2.
# The host keeps two routes (pods and Services through the veth) while the node runs.
#
#   dev/node.sh up        start the node (after dev/cluster.sh started the control plane)
#   dev/node.sh down      stop it and undo every change to the machine; keeps images and volumes
#   dev/node.sh purge     down, then delete its state (images, volumes) and its address slot
#   dev/node.sh status    say what runs
#   dev/node.sh plan      print this platform's addresses as `export NODE_…=…` lines
#   dev/node.sh exec CMD  run CMD inside the node's namespaces (e.g. `ctr -n k8s.io images ls`)
#   dev/node.sh forward NAME PORT
#                         let pods reach this machine's loopback PORT at the host's end of the
#                         link (as the API server's, S3's and the API's are); stopped with the node
#   dev/node.sh import DIR [REF...]
#                         import the OCI image layout DIR (dev/images.sh) into the node, and tag it
#                         REF... too
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

D=$LUDIS_STATE/cluster
P=$D/pki
N=$LUDIS_STATE/node
NODE_NAME=ludis-node
ID=$(printf '%s' "$LUDIS_STATE" | sha256sum | cut -c1-8)
NETNS=ludis-$ID
VETH=lud-$ID
CGROUP=ludis-$ID
SLOTS=$LUDIS_CACHE/node-slots
READY_TIMEOUT=${LUDIS_READY_TIMEOUT:-120}
# Inside the namespaces, in start order; then the host-side helpers.
COMPONENTS=(node-ns containerd kubelet kube-proxy coredns kube-router)
HOST_COMPONENTS=(local-volumes forward-apiserver forward-s3 forward-api forward-storage)
# The kernel settings kubelet sets (it has no mode that only warns), bound to files inside.
KUBELET_SYSCTLS=(vm/overcommit_memory kernel/panic kernel/panic_on_oops)
# The taint of the real node: only pods that tolerate it (Ludis workloads) land there.
NODE_TAINT_KEY=ludis.dev/workloads

kubectl() { "$(tool_dir kubernetes)/kubectl" --kubeconfig "$D/kubeconfig" "$@"; }
holder() { cat "$N/pids/node-ns.pid" 2>/dev/null; }
node_exec() { nsenter --target "$(holder)" --mount --net -- "$@"; }

# --- addresses --------------------------------------------------------------------------------
# Slot k (0–31) gives this platform pods in 10.(128+k).0.0/24 on the node's bridge (the node is
# .1), the link to the host 10.(128+k).255.0/30 (host .1, node .2) and Services 10.(96+k).0.0/16.
# A slot is claimed in $LUDIS_CACHE/node-slots/<k> (naming the state folder that holds it) and kept
# in $N/slot, and it is never one whose ranges overlap a route, an address or a name server of
# this machine.

# cidr_range A.B.C.D/L: the first and last address as integers.
cidr_range() {
  local ip=${1%/*} len=${1#*/} a b c d
  [ "$ip" = "$1" ] && len=32
  IFS=. read -r a b c d <<<"$ip"
  local n=$(((a << 24) | (b << 16) | (c << 8) | d)) mask=$(((0xffffffff << (32 - len)) & 0xffffffff))
  echo "$((n & mask)) $(((n & mask) | (~mask & 0xffffffff)))"
}

# The networks this machine already uses: its routes (but the default), addresses and name servers.
machine_networks() {
  ip -4 route show table all 2>/dev/null | awk '$1 != "default" && $1 != "broadcast" && $1 != "local" && $1 != "unreachable" {print $1} $1 == "local" || $1 == "broadcast" {print $2}'
  ip -4 -o addr show 2>/dev/null | awk '{print $4}'
  awk '$1 == "nameserver" && $2 ~ /^[0-9.]+$/ {print $2}' /etc/resolv.conf 2>/dev/null
}

slot_is_free() {
  local k=$1 net lo hi mlo mhi
  for net in "10.$((96 + k)).0.0/16" "10.$((128 + k)).0.0/16"; do
    read -r lo hi < <(cidr_range "$net")
    while read -r m; do
      [[ $m =~ ^[0-9.]+(/[0-9]+)?$ ]] || continue
      read -r mlo mhi < <(cidr_range "$m")
      ((mlo <= hi && lo <= mhi)) && return 1
    done < <(machine_networks)
  done
  return 0
}

claim_slot() {
  mkdir -p "$SLOTS" "$N"
  local k i owner start=$((16#${ID:0:4} % 32))
  exec 9>"$SLOTS/.lock"
  flock 9
  for ((i = 0; i < 32; i++)); do
    k=$(((start + i) % 32))
    owner=$(cat "$SLOTS/$k" 2>/dev/null || true)
    # Held by another state folder that still has it.
    if [ -n "$owner" ] && [ "$owner" != "$LUDIS_STATE" ] && [ "$(cat "$owner/node/slot" 2>/dev/null)" = "$k" ]; then
      continue
    fi
    slot_is_free "$k" || continue
    echo "$LUDIS_STATE" >"$SLOTS/$k"
    echo "$k" >"$N/slot"
    exec 9>&-
    return 0
  done
  exec 9>&-
  die "no free address slot for the node: every 10.96–127.0.0/16 + 10.128–159.0.0/16 pair overlaps a route, address or name server of this machine or another Ludis platform (see $SLOTS)"
}

plan() {
  [ -s "$N/slot" ] || claim_slot
  local k
  k=$(cat "$N/slot")
  NODE_POD_CIDR=10.$((128 + k)).0.0/24
  NODE_IP=10.$((128 + k)).0.1
  NODE_HOST_IP=10.$((128 + k)).255.1
  NODE_NS_IP=10.$((128 + k)).255.2
  NODE_SVC_CIDR=10.$((96 + k)).0.0/16
  NODE_SVC_IP=10.$((96 + k)).0.1
  NODE_DNS_IP=$NODE_IP
}

print_plan() {
  plan
  local v
  for v in NODE_NAME NODE_POD_CIDR NODE_IP NODE_HOST_IP NODE_SVC_CIDR NODE_SVC_IP NODE_DNS_IP; do
    echo "export $v=${!v}"
  done
  echo "export NODE_NETNS=$NETNS NODE_VETH=$VETH NODE_CGROUP=$CGROUP"
}

# --- certificates and configuration -----------------------------------------------------------
make_certs() {
  if [ -f "$N/pki/.complete" ]; then
    # A node made before the enforcer existed gets its certificate now.
    [ -f "$N/pki/kube-router.crt" ] || enforcer_cert
    return 0
  fi
  [ -f "$P/ca.key" ] || die "the cluster's certificates are missing (start the control plane with dev/cluster.sh up)"
  rm -rf "$N/pki" && mkdir -p "$N/pki" && cp "$P/ca.crt" "$P/ca.key" "$N/pki/"
  (
    exec 2>"$N/pki/openssl.log" >&2
    # kubelet: its client identity (the Node authorizer knows system:node:<name>), and its serving
    # certificate, which the API server checks against the cluster CA.
    issue_cert "$N/pki" kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" "$CLIENT_EXT"
    issue_cert "$N/pki" kubelet-serving "/CN=$NODE_NAME" "basicConstraints=CA:FALSE
keyUsage=digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:$NODE_IP,DNS:$NODE_NAME"
    # kube-proxy: system:kube-proxy has the built-in role system:node-proxier.
    issue_cert "$N/pki" kube-proxy "/CN=system:kube-proxy" "$CLIENT_EXT"
    issue_cert "$N/pki" coredns "/CN=ludis:coredns" "$CLIENT_EXT"
    issue_cert "$N/pki" kube-router "/CN=ludis:kube-router" "$CLIENT_EXT"
  ) || die "creating the node's certificates failed (log: $N/pki/openssl.log)"
  rm -f "$N/pki/ca.key" "$N/pki"/*.csr
  touch "$N/pki/.complete"
}

write_config() {
  local server=https://$NODE_HOST_IP:$LUDIS_APISERVER_PORT pause
  pause=$("$DEV_DIR/images.sh" refs | awk '$1 == "pause" {print $2}')
  mkdir -p "$N/config" "$N/cni-conf" "$N/kubelet" "$N/containerd" "$N/cni" "$N/log" "$N/sysctl" "$N/volumes"
  for c in kubelet kube-proxy coredns kube-router; do
    write_kubeconfig "$N/config/$c.kubeconfig" "$server" "$N/pki/ca.crt" "$N/pki/$c.crt" "$N/pki/$c.key"
  done
  # Pods get the cluster's name server and nothing of the machine's resolver.
  printf 'nameserver %s\nsearch cluster.local\noptions ndots:5\n' "$NODE_DNS_IP" >"$N/config/resolv.conf"

  cat >"$N/config/containerd.toml" <<EOF
version = 2
root = "/var/lib/containerd"
state = "/run/containerd"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs",
  "io.containerd.internal.v1.tracing", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = "/run/containerd/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "/var/lib/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$pause"
  # runc cannot lower oom_score_adj here (no CAP_SYS_RESOURCE); without this every sandbox fails.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$N/cni-conf"
    max_conf_num = 1
EOF

  # The bridge network: no default route in pods, no masquerading; routes to the Services and to
  # the host's end of the link only.
  cat >"$N/cni-conf/10-ludis.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "ludis",
  "plugins": [{
    "type": "bridge",
    "bridge": "ludis0",
    "isGateway": false,
    "isDefaultGateway": false,
    "ipMasq": false,
    "hairpinMode": true,
    "ipam": {
      "type": "host-local",
      "ranges": [[{"subnet": "$NODE_POD_CIDR", "rangeStart": "${NODE_IP%.1}.10", "gateway": "$NODE_IP"}]],
      "routes": [{"dst": "$NODE_SVC_CIDR", "gw": "$NODE_IP"}, {"dst": "$NODE_HOST_IP/32", "gw": "$NODE_IP"}],
      "dataDir": "/var/lib/cni/networks"
    }
  }]
}
EOF

  cat >"$N/config/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
# Only the API server (its client certificate) and callers it authorizes may use the kubelet API.
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $N/pki/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $N/pki/kubelet-serving.crt
tlsPrivateKeyFile: $N/pki/kubelet-serving.key
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
cgroupDriver: cgroupfs
cgroupRoot: /$CGROUP
cgroupsPerQOS: true
enforceNodeAllocatable: [pods]
failSwapOn: false
failCgroupV1: false
clusterDNS: [$NODE_DNS_IP]
clusterDomain: cluster.local
resolvConf: $N/config/resolv.conf
registerWithTaints:
- {key: $NODE_TAINT_KEY, value: "true", effect: NoSchedule}
# Images are built here and cannot be pulled again: never collect them. Under disk pressure kubelet
# deletes unused images whatever these say (then pods cannot start until dev/up.sh imports them
# again), so the disk signals are absolute and small: a developer's disk that is 98% full is not
# pressure for a node that holds a few GB.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: 100Mi, nodefs.available: 512Mi, imagefs.available: 512Mi}
serializeImagePulls: false
# No CAP_SYS_RESOURCE here, so kubelet cannot lower its own oom_score_adj.
oomScoreAdj: 0
kubeAPIQPS: 50
kubeAPIBurst: 100
EOF

  cat >"$N/config/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $N/config/kube-proxy.kubeconfig}
hostnameOverride: $NODE_NAME
mode: iptables
bindAddress: $NODE_IP
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
clusterCIDR: $NODE_POD_CIDR
nodePortAddresses: [$NODE_POD_CIDR]
iptables: {localhostNodePorts: false}
# Leave the kernel's conntrack settings alone.
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF

  # Cluster DNS: the cluster's names, and NXDOMAIN for every other name (nothing is forwarded).
  cat >"$N/config/Corefile" <<EOF
cluster.local:53 ${NODE_SVC_CIDR%%.*}.in-addr.arpa:53 {
  bind $NODE_DNS_IP
  errors
  health 127.0.0.1:8080
  ready 127.0.0.1:8181
  kubernetes cluster.local ${NODE_SVC_CIDR%%.*}.in-addr.arpa {
    kubeconfig $N/config/coredns.kubeconfig
    pods insecure
  }
  cache 30
}
.:53 {
  bind $NODE_DNS_IP
  errors
  template ANY ANY {
    rcode NXDOMAIN
  }
}
EOF
}

enforcer_cert() {
  [ -f "$P/ca.key" ] || die "the cluster's certificates are missing (start the control plane with dev/cluster.sh up)"
  cp "$P/ca.key" "$N/pki/"
  (issue_cert "$N/pki" kube-router "/CN=ludis:kube-router" "$CLIENT_EXT") >>"$N/pki/openssl.log" 2>&1 ||
    die "creating the enforcer's certificate failed (log: $N/pki/openssl.log)"
  rm -f "$N/pki/ca.key" "$N/pki"/*.csr
}

# RBAC the node's components need beyond the built-in roles.
apply_rbac() {
  kubectl apply --server-side --field-manager=ludis-dev -f - >/dev/null <<'EOF' || die "applying the node's RBAC failed"
# The API server's client certificate for kubelets (logs, exec, port-forward, stats).
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "ludis:kube-apiserver-kubelet-client"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "system:kubelet-api-admin"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: kube-apiserver-kubelet-client}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "ludis:coredns"}
rules:
- apiGroups: [""]
  resources: [endpoints, services, pods, namespaces]
  verbs: [list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "ludis:coredns"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "ludis:coredns"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "ludis:coredns"}]
---
# The NetworkPolicy enforcer: what kube-router's informers watch (it starts them all, though only
# its firewall runs).
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "ludis:kube-router"}
rules:
- apiGroups: [""]
  resources: [pods, namespaces, nodes, services, endpoints]
  verbs: [get, list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [get, list, watch]
- apiGroups: [networking.k8s.io]
  resources: [networkpolicies]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "ludis:kube-router"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "ludis:kube-router"}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: "ludis:kube-router"}]
EOF
}

# --- the machine side: namespaces, link, cgroups --------------------------------------------------
# `ip netns add` makes /run/netns a mount point the first time it runs; the last platform to stop
# (under the slots' lock, which every platform takes around both) undoes that.
netns_add() {
  mkdir -p "$SLOTS"
  (flock 9 && ip netns add "$NETNS") 9>"$SLOTS/.lock"
}

netns_delete() {
  mkdir -p "$SLOTS"
  (
    flock 9
    if [ -e "/run/netns/$NETNS" ]; then ip netns delete "$NETNS"; fi
    if [ -d /run/netns ] && [ -z "$(ls -A /run/netns)" ]; then
      if mountpoint -q /run/netns; then umount /run/netns; fi
      rmdir /run/netns
    fi
  ) 9>"$SLOTS/.lock"
}

network_up() {
  netns_add
  ip -n "$NETNS" link set lo up
  ip link add "$VETH" type veth peer name host0 netns "$NETNS"
  ip addr add "$NODE_HOST_IP/30" dev "$VETH"
  ip link set "$VETH" up
  ip -n "$NETNS" addr add "$NODE_NS_IP/30" dev host0
  ip -n "$NETNS" link set host0 up
  ip -n "$NETNS" link add ludis0 type bridge
  ip -n "$NETNS" addr add "$NODE_IP/24" dev ludis0
  ip -n "$NETNS" link set ludis0 up
  # Forwarding between the bridge and the link, bridged traffic through iptables (Services between
  # pods), no IPv6: all of it the namespace's own settings.
  nsenter --net="/run/netns/$NETNS" sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1 \
    net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip route add "$NODE_POD_CIDR" via "$NODE_NS_IP" dev "$VETH"
  ip route add "$NODE_SVC_CIDR" via "$NODE_NS_IP" dev "$VETH"
}

# The node's cgroup in each hierarchy: /sys/fs/cgroup/<controller>/ludis-<id> on cgroup v1,
# /sys/fs/cgroup/ludis-<id> on v2 (a single hierarchy).
cgroup_dirs() {
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    echo "/sys/fs/cgroup/$CGROUP"
    return 0
  fi
  local h
  for h in /sys/fs/cgroup/*/; do
    [ -f "$h/cgroup.procs" ] && echo "$h$CGROUP"
  done
  return 0
}

cgroups_up() {
  local c
  for c in $(cgroup_dirs); do
    mkdir -p "$c"
    # cpuset (v1): a new cgroup has no CPUs or memory nodes until given its parent's.
    if [ -f "$(dirname "$c")/cpuset.cpus" ] && [ ! -f /sys/fs/cgroup/cgroup.controllers ]; then
      cat "$(dirname "$c")/cpuset.cpus" >"$c/cpuset.cpus"
      cat "$(dirname "$c")/cpuset.mems" >"$c/cpuset.mems"
    fi
  done
}

# The holder: a process that owns the node's mount namespace (made here) inside its network
# namespace; every node component enters both. Then the namespace's own mounts.
namespaces_up() {
  start_bg node-ns "$N" unshare --mount --propagation slave -- nsenter --net="/run/netns/$NETNS" -- sleep infinity
  wait_for "the node's namespaces" 10 "$N/logs/node-ns.log" holder_ready
  local s
  for s in "${KUBELET_SYSCTLS[@]}"; do cat "/proc/sys/$s" >"$N/sysctl/${s//\//.}"; done
  node_exec sh -euc '
    N=$1; shift
    mount -t tmpfs -o mode=0755 ludis-node-run /run
    mkdir -p /run/netns /run/containerd
    mount -t tmpfs -o mode=0755 ludis-node-lib /var/lib
    for d in kubelet containerd cni; do mkdir -p "/var/lib/$d" && mount --bind "$N/$d" "/var/lib/$d"; done
    mount --bind "$N/log" /var/log
    for s in "$@"; do mount --bind "$N/sysctl/$(echo "$s" | tr / .)" "/proc/sys/$s"; done
  ' sh "$N" "${KUBELET_SYSCTLS[@]}" || die "setting up the node's mounts failed"
}

# Forwards the host's end of the link to a loopback port (the API server, S3, the API).
forward() {
  local name=$1 port=$2
  start_bg "forward-$name" "$N" socat "TCP-LISTEN:$port,bind=$NODE_HOST_IP,reuseaddr,fork" "TCP:127.0.0.1:$port"
}

# import_layout DIR: one cached OCI image layout into the node's containerd.
import_layout() {
  log "importing the image $(cat "$1/ref") into the node"
  tar -C "$1" --exclude=./.complete --exclude=./ref -cf - . |
    node_exec ctr -n k8s.io images import - >>"$N/logs/images.log" 2>&1 ||
    die "importing the image $(cat "$1/ref") failed (log: $N/logs/images.log)"
}

import_images() {
  local have name ref
  have=$(node_exec ctr -n k8s.io images ls -q)
  while read -r name ref; do
    grep -qxF "$ref" <<<"$have" && continue
    import_layout "$("$DEV_DIR/images.sh" dir "$name")"
  done < <("$DEV_DIR/images.sh" refs)
}

# What tests and tools need to know of the node, as KEY='value' lines ($N/node.env; dev/test.sh
# exports them, and the operator's tests read the file when they are not exported).
write_env() {
  {
    echo "LUDIS_NODE_IP='$NODE_IP'"
    echo "LUDIS_NODE_HOST_IP='$NODE_HOST_IP'"
    echo "LUDIS_NODE_SVC_IP='$NODE_SVC_IP'"
    echo "LUDIS_POD_S3_ENDPOINT='http://$NODE_HOST_IP:$LUDIS_S3_PORT'"
    echo "LUDIS_IMAGE_REFS='$("$DEV_DIR/images.sh" refs | awk '{print $1 "=" $2}' | paste -sd ' ')'"
    # The organizations' NetworkPolicies of an API on this machine (api/README.md): its requests
    # reach pods from the host's end of the link, where pods reach its git server and its storage
    # gateway; pods reach cluster DNS (CoreDNS of the node, no pod of kube-system), one port each,
    # and never the S3 server (only the API, through the gateway, holds its key).
    echo "LUDIS_ORG_NETWORK_API_CIDRS='$NODE_HOST_IP/32'"
    echo "LUDIS_ORG_NETWORK_EGRESS_CIDRS='$NODE_DNS_IP/32:53/udp,$NODE_DNS_IP/32:53/tcp'"
    echo "LUDIS_NODE_NETWORK_POLICY_ENFORCER='kube-router'"
  } >"$N/node.env"
}

node_ready() {
  kubectl get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null | grep -qx True
}

all_running() {
  local c
  for c in "${COMPONENTS[@]}" local-volumes forward-apiserver; do
    # A node started before the enforcer existed runs on; `up` adds the enforcer.
    [ "$c" = kube-router ] && continue
    pid_alive "$N/pids/$c.pid" || return 1
  done
  node_ready
}

# The NetworkPolicy enforcer: kube-router's firewall only, on the node's own kubeconfig. It needs
# the Node (its address), so it starts once the node is registered; ready once its health check
# answers and its chains are in place (its first full sync of every policy and pod).
enforcer_ready() {
  node_exec curl -fsS --max-time 2 http://127.0.0.1:20244/healthz &&
    node_exec iptables -w -S KUBE-ROUTER-FORWARD
}

start_enforcer() {
  pid_alive "$N/pids/kube-router.pid" && return 0
  start_bg kube-router "$N" nsenter --target "$(holder)" --mount --net -- "$(tool_dir kube-router)/kube-router" \
    --kubeconfig="$N/config/kube-router.kubeconfig" --hostname-override="$NODE_NAME" \
    --run-firewall=true --run-router=false --run-service-proxy=false --run-loadbalancer=false \
    --enable-cni=false --enable-ipv6=false --enable-pod-egress=false \
    --service-cluster-ip-range="$NODE_SVC_CIDR" --health-port=20244 --metrics-port=0 --v=1
  wait_for "the NetworkPolicy enforcer (kube-router)" 60 "$N/logs/kube-router.log" enforcer_ready
}

start() {
  local start_time bin
  start_time=$(now)
  for t in containerd runc socat iptables ipset nsenter unshare ip; do
    command -v "$t" >/dev/null || die "$t is not installed (run dev/install-deps.sh)"
  done
  [ -x /usr/lib/cni/bridge ] || die "the CNI plugins are not installed (run dev/install-deps.sh)"
  "$DEV_DIR/build-tools.sh" kubernetes-node coredns local-volumes kube-router >&2
  "$DEV_DIR/images.sh" build >&2
  plan
  make_certs
  write_config
  apply_rbac
  mkdir -p "$N/logs" "$N/pids"
  network_up || die "creating the node's network namespace $NETNS failed"
  cgroups_up || die "creating the node's cgroups /$CGROUP failed"
  namespaces_up
  forward apiserver "$LUDIS_APISERVER_PORT"
  forward s3 "$LUDIS_S3_PORT"
  if [ "${LUDIS_NODE_FORWARD_API:-true}" = true ]; then
    forward api "$LUDIS_API_PORT"
    # The API's storage gateway (LUDIS_STORAGE_LISTEN, the API's port + 2; dev/up.sh, dev/e2e.sh).
    forward storage "$((LUDIS_API_PORT + 2))"
  fi
  start_bg local-volumes "$N" "$(tool_dir local-volumes)/local-volumes" --kubeconfig "$D/kubeconfig" --dir "$N/volumes"

  bin=$(tool_dir kubernetes-node)
  start_bg containerd "$N" nsenter --target "$(holder)" --mount --net -- containerd --config "$N/config/containerd.toml"
  wait_for containerd 30 "$N/logs/containerd.log" node_exec ctr version
  import_images
  start_bg kubelet "$N" nsenter --target "$(holder)" --mount --net -- "$bin/kubelet" \
    --config="$N/config/kubelet.yaml" --kubeconfig="$N/config/kubelet.kubeconfig" \
    --hostname-override="$NODE_NAME" --node-ip="$NODE_IP" \
    --node-labels="type=real,$NODE_TAINT_KEY=true" --v=1
  start_bg kube-proxy "$N" nsenter --target "$(holder)" --mount --net -- "$bin/kube-proxy" \
    --config="$N/config/kube-proxy.yaml" --v=1
  start_bg coredns "$N" nsenter --target "$(holder)" --mount --net -- "$(tool_dir coredns)/coredns" \
    -conf "$N/config/Corefile"
  write_env
  wait_for "the node $NODE_NAME" "$READY_TIMEOUT" "$N/logs/kubelet.log" node_ready
  start_enforcer
  wait_for "cluster DNS" 30 "$N/logs/coredns.log" node_exec curl -fsS --max-time 2 http://127.0.0.1:8181/ready
  ok "node $NODE_NAME ready in $(elapsed "$start_time")s (address $NODE_IP, pods $NODE_POD_CIDR, Services $NODE_SVC_CIDR)"
}

up() {
  if all_running; then
    # Images built since it started (a changed recipe is a new reference) are imported now, or
    # pods of the new references could not start; node.env names the new references.
    import_images
    plan
    if ! pid_alive "$N/pids/kube-router.pid"; then
      command -v ipset >/dev/null || die "ipset is not installed (run dev/install-deps.sh)"
      "$DEV_DIR/build-tools.sh" kube-router >&2
      make_certs
      write_kubeconfig "$N/config/kube-router.kubeconfig" "https://$NODE_HOST_IP:$LUDIS_APISERVER_PORT" \
        "$N/pki/ca.crt" "$N/pki/kube-router.crt" "$N/pki/kube-router.key"
      apply_rbac
      start_enforcer
    fi
    write_env
    ok "the node $NODE_NAME is already running"
    return 0
  fi
  if [ -e "/run/netns/$NETNS" ] || [ -n "$(ls -d $(cgroup_dirs) 2>/dev/null)" ]; then
    log "cleaning up a partly running node from an earlier start"
    stop
  fi
  start
}

# --- stopping: every process, then the cgroups, the namespaces and their link ---------------------
# The node's network namespace as a process sees it (`net:[inode]`), while its name pins it.
netns_id() { [ -e "/run/netns/$NETNS" ] && echo "net:[$(stat -L -c %i "/run/netns/$NETNS")]"; }

holder_ready() { [ "$(readlink "/proc/$(holder)/ns/net" 2>/dev/null)" = "$(netns_id)" ]; }

# Pids of every process in the node's network namespace (the holder, containerd and its shims,
# kubelet, kube-proxy, CoreDNS). The name pins the namespace, so its inode is not reused.
ns_pids() {
  local want p
  want=$(netns_id) || return 0
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$want" ] && echo "${p#/proc/}"
  done
  return 0
}

# Pids in the node's cgroups (the pods' containers).
cgroup_pids() {
  local c
  for c in $(cgroup_dirs); do
    [ -d "$c" ] && find "$c" -name cgroup.procs -exec cat {} + 2>/dev/null
  done | sort -u
  return 0
}

kill_all() { # kill_all LISTER: SIGKILL what LISTER prints until it prints nothing (10 s at most)
  local pids i
  for ((i = 0; i < 100; i++)); do
    pids=$("$1")
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086 # a list of pids
    kill -KILL $pids 2>/dev/null || true
    sleep 0.1
  done
  die "processes of the node would not stop: $("$1" | xargs)"
}

stop() {
  local c h
  [ -d "$N" ] || return 0
  for c in kubelet kube-proxy coredns kube-router; do stop_pidfile "$N/pids/$c.pid"; done
  kill_all cgroup_pids
  stop_pidfile "$N/pids/containerd.pid"
  kill_all ns_pids
  rm -f "$N/pids/node-ns.pid"
  for c in $(cgroup_dirs); do
    [ -d "$c" ] && find "$c" -depth -type d -exec rmdir {} + 2>/dev/null
    [ -d "$c" ] && die "the cgroup $c could not be removed"
  done
  # Deleting the namespace deletes its bridge, iptables rules, ipsets, the veth pair and the host's
  # routes through it.
  netns_delete
  if ip link show "$VETH" >/dev/null 2>&1; then ip link delete "$VETH"; fi
  for c in "${HOST_COMPONENTS[@]}"; do stop_pidfile "$N/pids/$c.pid"; done
  # Forwarders added by `dev/node.sh forward`.
  for c in "$N"/pids/forward-*.pid; do [ -e "$c" ] && stop_pidfile "$c"; done
  return 0
}

purge() {
  stop
  local k
  k=$(cat "$N/slot" 2>/dev/null || true)
  rm -rf "$N"
  [ -n "$k" ] && [ "$(cat "$SLOTS/$k" 2>/dev/null)" = "$LUDIS_STATE" ] && rm -f "$SLOTS/$k"
  return 0
}

status() {
  local c rss
  for c in "${COMPONENTS[@]}" "${HOST_COMPONENTS[@]}"; do
    if pid_alive "$N/pids/$c.pid"; then
      rss=$(($(awk '/VmRSS/ {print $2}' "/proc/$(cat "$N/pids/$c.pid")/status" 2>/dev/null || echo 0) / 1024))
      printf '%-24s running (pid %s, %s MiB)\n' "$c" "$(cat "$N/pids/$c.pid")" "$rss"
    else
      printf '%-24s stopped\n' "$c"
    fi
  done
  if node_ready; then echo "node $NODE_NAME: Ready"; else echo "node $NODE_NAME: not ready"; fi
}

case "${1:-}" in
  up) up ;;
  down) stop && ok "node stopped (images and volumes kept in $N)" ;;
  purge) purge && ok "node stopped and its state removed" ;;
  status) status ;;
  plan) print_plan ;;
  exec)
    shift
    pid_alive "$N/pids/node-ns.pid" || die "the node is not running"
    node_exec "$@"
    ;;
  forward)
    pid_alive "$N/pids/node-ns.pid" || die "the node is not running"
    [[ ${2:-} =~ ^[a-z0-9-]+$ && ${3:-} =~ ^[0-9]+$ ]] || die "usage: dev/node.sh forward NAME PORT"
    plan
    pid_alive "$N/pids/forward-$2.pid" || forward "$2" "$3"
    ;;
  import)
    pid_alive "$N/pids/node-ns.pid" || die "the node is not running"
    [ -f "${2:-}/index.json" ] || die "usage: dev/node.sh import DIR [REF...] (DIR: an OCI image layout)"
    node_exec ctr -n k8s.io images ls -q | grep -qxF "$(cat "$2/ref")" || import_layout "$2"
    for ref in "${@:3}"; do
      node_exec ctr -n k8s.io images tag --force "$(cat "$2/ref")" "$ref" >/dev/null ||
        die "tagging the image $(cat "$2/ref") as $ref failed"
    done
    ;;
  *) die "usage: dev/node.sh up|down|purge|status|plan|exec CMD...|forward NAME PORT|import DIR [REF...]" ;;
esac
