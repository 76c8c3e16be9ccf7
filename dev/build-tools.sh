#!/usr/bin/env bash
# Builds the local platform's third-party servers from source into a version-keyed cache
# outside the repository, rebuilding only what is missing:
#   kubernetes  kube-apiserver, kube-controller-manager, kube-scheduler, kubectl (k8s.io/kubernetes)
#   kubernetes-node  kubelet and kube-proxy for the local node (the same module and wrapper)
#   coredns     CoreDNS with the plugins cluster DNS needs (github.com/coredns/coredns)
#   local-volumes  the volume provisioner of the local StorageClass (dev/tools/local-volumes)
#   etcd        etcd server (go.etcd.io/etcd/server/v3)
#   kwok        kwok, the fake kubelet and node controller (sigs.k8s.io/kwok)
#   helm        helm CLI (helm.sh/helm/v4)
#   helm-docs   helm-docs, which writes the chart README from values.yaml (github.com/norwoodj/helm-docs)
#   s3-server   the S3-protocol server: s3s-fs's storage with CORS added (dev/tools/s3-server)
#   kube-router  the local node's NetworkPolicy enforcer: kube-router, of which dev/node.sh runs
#               only the firewall (github.com/cloudnativelabs/kube-router/v2; dev/tools/kube-router)
#   health      what kstatus and Argo CD's Lua health checks make of objects (dev/tools/health;
#               the operator's health tests run it)
#   argo-workflows  Argo Workflows' workflow-controller, only for dev/bench-workflows.sh (not built
#               by default)
# Usage: dev/build-tools.sh [component...]   (default: all)
# Prints one line per component with its cache folder; a failure names the component and its log.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build_go() {
  local name=$1 out=$2
  shift 2
  local tmp="$out.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  (cd "$DEV_DIR/tools/$name" && go build -mod=readonly -trimpath "$@" -o "$tmp/" ${GO_PKGS:?}) || return 1
  rm -rf "$out" && mv "$tmp" "$out"
}

# Version stamps of the Kubernetes binaries (else they report v0.0.0-master).
k8s_ldflags() {
  local v minor ld="-s -w"
  v=$(gomod_version kubernetes k8s.io/kubernetes)
  minor=$(echo "$v" | cut -d. -f2)
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $pkg.gitVersion=$v -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ld+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  echo "$ld"
}

build_one() {
  local name=$1 dir log start
  dir=$(tool_dir "$name")
  if [ -f "$dir/.complete" ]; then
    echo "$name: cached in $dir"
    return 0
  fi
  mkdir -p "$LUDIS_CACHE/logs"
  log="$LUDIS_CACHE/logs/build-$name.log"
  start=$(now)
  log "building $name (first time only; log: $log)"
  case "$name" in
    kubernetes)
      GO_PKGS="k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
               k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl" \
        build_go kubernetes "$dir" -ldflags "$(k8s_ldflags)" >"$log" 2>&1
      ;;
    kubernetes-node)
      GO_PKGS="k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy" \
        build_go kubernetes "$dir" -ldflags "$(k8s_ldflags)" >"$log" 2>&1
      ;;
    coredns | local-volumes | health) GO_PKGS=. build_go "$name" "$dir" -ldflags "-s -w" >"$log" 2>&1 ;;
    etcd) GO_PKGS=. build_go etcd "$dir" -ldflags "-s -w" >"$log" 2>&1 ;;
    kwok)
      local v
      v=$(gomod_version kwok sigs.k8s.io/kwok)
      GO_PKGS=sigs.k8s.io/kwok/cmd/kwok \
        build_go kwok "$dir" -ldflags "-s -w" >"$log" 2>&1
      ;;
    helm)
      local v
      v=$(gomod_version helm helm.sh/helm/v4)
      GO_PKGS=helm.sh/helm/v4/cmd/helm \
        build_go helm "$dir" -ldflags "-s -w -X helm.sh/helm/v4/internal/version.version=$v" >"$log" 2>&1
      ;;
    helm-docs)
      GO_PKGS=github.com/norwoodj/helm-docs/cmd/helm-docs \
        build_go helm-docs "$dir" -ldflags "-s -w" >"$log" 2>&1
      ;;
    kube-router)
      GO_PKGS=github.com/cloudnativelabs/kube-router/v2/cmd/kube-router \
        build_go kube-router "$dir" -ldflags "-s -w" >"$log" 2>&1
      ;;
    argo-workflows)
      GO_PKGS=github.com/argoproj/argo-workflows/v3/cmd/workflow-controller \
        build_go argo-workflows "$dir" -ldflags "-s -w" >"$log" 2>&1
      ;;
    s3-server)
      # Our crate (its own workspace and Cargo.lock), built with a target folder of its own so the
      # dependencies compile once; a changed crate or lock file is a new cache key (tool_dir).
      local tmp="$dir.tmp.$$"
      rm -rf "$tmp"
      cargo install --quiet --locked --path "$DEV_DIR/tools/s3-server" \
        --root "$tmp" --target-dir "$LUDIS_CACHE/cargo-target/s3-server" >"$log" 2>&1 &&
        rm -rf "$dir" && mv "$tmp/bin" "$dir" && rm -rf "$tmp"
      ;;
  esac || {
    echo "--- last lines of $log:" >&2
    tail -n 20 "$log" >&2
    die "building $name failed after $(elapsed "$start")s (full log: $log)"
  }
  # The marker holds the build's duration in seconds (dev/bench-node.sh prints it).
  elapsed "$start" >"$dir/.complete"
  ok "$name built in $(cat "$dir/.complete")s into $dir ($(du -sh "$dir" | cut -f1))"
}

components=("$@")
[ ${#components[@]} -gt 0 ] || components=(kubernetes kubernetes-node etcd kwok coredns local-volumes kube-router helm helm-docs s3-server health)
command -v go >/dev/null || die "go is not installed (needed to build the control plane)"
command -v cargo >/dev/null || die "cargo is not installed (needed to build the S3 server)"
for c in "${components[@]}"; do build_one "$c"; done
