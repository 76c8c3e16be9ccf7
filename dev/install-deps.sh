#!/usr/bin/env bash
# Installs what the platform and its tests need on a fresh machine, and nothing twice:
# Debian packages (PostgreSQL, openssl, curl, git, OpenSSL headers, Python's venv and libgomp1;
# containerd, runc, the CNI plugins, iptables, ipset, socat and mmdebstrap for the real node;
# Chromium for browser tests and nginx in front of the chart install's API; none of them started
# as a service), the console's npm packages, the cluster's binaries (built from source into the
# cache, dev/build-tools.sh) and the node's images (dev/images.sh).
#   dev/install-deps.sh [--browser]
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

want_browser=false
[ "${1:-}" = --browser ] && want_browser=true

# --- toolchains that come with the machine image ---
for tool in go cargo node npm; do
  command -v "$tool" >/dev/null || die "$tool is not installed; this machine kind provides Go, Rust, Node and npm"
done

# --- Debian packages ---
missing=()
command -v openssl >/dev/null || missing+=(openssl)
command -v curl >/dev/null || missing+=(curl)
command -v ss >/dev/null || missing+=(iproute2)
# git's smart-HTTP server program (hosted project repositories) and the git client its tests use.
[ -x /usr/lib/git-core/git-http-backend ] || missing+=(git)
# git2 builds libgit2 from source with HTTPS through the system's OpenSSL.
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
# The real node (dev/node.sh) and its images (dev/images.sh).
command -v containerd >/dev/null || missing+=(containerd)
command -v runc >/dev/null || missing+=(runc)
[ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
command -v iptables >/dev/null || missing+=(iptables)
# The node's NetworkPolicy enforcer (kube-router's firewall) keeps its address sets with ipset.
command -v ipset >/dev/null || missing+=(ipset)
command -v socat >/dev/null || missing+=(socat)
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
command -v jq >/dev/null || missing+=(jq)
# Python virtualenvs (dev/smtp.sh; dev/ai.sh, the assistant's local model, whose llama.cpp wheel
# needs the GNU OpenMP runtime).
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
ls /usr/lib/*/libgomp.so.1 >/dev/null 2>&1 || missing+=(libgomp1)
if $want_browser; then
  command -v chromium >/dev/null || missing+=(chromium)
  # The reverse proxy in front of the chart install's API (dev/e2e-chart.sh).
  command -v nginx >/dev/null || missing+=(nginx)
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >/dev/null
  # No package starts a system-wide service (nginx would listen on every address's port 80): a
  # policy-rc.d refusing every start, for the length of the install, unless the machine has one.
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy"
  fi
  status=0
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
  [ -z "$policy" ] || $sudo rm -f "$policy"
  [ "$status" = 0 ] || die "apt-get install ${missing[*]} failed"
  # The Debian package starts a system-wide cluster; ours are private, so stop it.
  if [[ " ${missing[*]} " == *" postgresql "* ]] && command -v pg_lsclusters >/dev/null; then
    $sudo pg_ctlcluster --force "$(pg_lsclusters -h | awk 'NR==1 {print $1}')" main stop 2>/dev/null || true
  fi
fi

# --- the console's packages (only when package-lock.json changed) ---
stamp="$REPO_DIR/console/node_modules/.ludis-lock-hash"
hash=$(sha256sum "$REPO_DIR/console/package-lock.json" | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$hash" ]; then
  log "installing the console's npm packages"
  (cd "$REPO_DIR/console" && npm ci --no-audit --no-fund --loglevel=error) >&2 || die "npm ci failed in console/"
  echo "$hash" >"$stamp"
fi

# --- servers built from source (cached by version), and the node's images beside them (the Go
# and Rust builds want the CPUs, the image builds mostly the network and the disk) ---
"$DEV_DIR/images.sh" build >&2 &
images=$!
# shellcheck disable=SC2086 # a word list
"$DEV_DIR/build-tools.sh" ${LUDIS_TOOLS:-kubernetes kubernetes-node etcd kwok coredns local-volumes kube-router s3-server helm helm-docs health} >&2
wait "$images" || die "building the node's images failed (logs: $LUDIS_CACHE/logs/image-*.log)"
