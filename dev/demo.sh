#!/usr/bin/env bash
# The demo of the local platform (seeds/k8s/demo.yaml, run by dev/up.sh): a project whose git
# repository holds seeds/k8s/demo/ (a Streamlit dashboard and a nightly extract) and the sample
# retail dataset (data/), served to pods over git's HTTP protocol as git.ludis-system.svc/demo.git
# (a Service leading to a static file server on the host's end of the node's link); then the
# resources themselves. No bucket key is given to the namespace: its pods reach their datasets
# with their own identity through the API's storage gateway (the operator's LUDIS_STORAGE_URL).
#   dev/demo.sh up      (after the API made the namespace ludis-demo)
#   dev/demo.sh down    stop the git server
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

G=$LUDIS_STATE/demo
NS=ludis-demo
kubectl() { "$(tool_dir kubernetes)/kubectl" "$@"; }

# The repository, committed with a fixed author and date, so the same files are the same commit.
make_repo() {
  local work=$G/work
  rm -rf "$work" "$G/git.tmp" && mkdir -p "$work/data" "$G/git.tmp"
  cp -r "$REPO_DIR/seeds/k8s/demo/." "$work/"
  cp "$REPO_DIR/seeds/datasets/retail-sales/"{README.txt,sales.csv,stores.json} "$work/data/"
  (
    cd "$work"
    export GIT_AUTHOR_NAME=Ludis GIT_AUTHOR_EMAIL=demo@ludis.local GIT_AUTHOR_DATE=2026-01-01T00:00:00Z
    export GIT_COMMITTER_NAME=Ludis GIT_COMMITTER_EMAIL=demo@ludis.local GIT_COMMITTER_DATE=2026-01-01T00:00:00Z
    git init -q --initial-branch=main && git add . && git commit -q -m "The demo project"
    git clone -q --bare . "$G/git.tmp/demo.git" && git -C "$G/git.tmp/demo.git" update-server-info
  ) || die "making the demo's git repository failed"
  rm -rf "$G/git" "$work" && mv "$G/git.tmp" "$G/git"
}

up() {
  eval "$("$DEV_DIR/node.sh" plan)"
  make_repo
  stop_pidfile "$G/pids/git-server.pid"
  start_bg git-server "$G" python3 -m http.server --bind "$NODE_HOST_IP" --directory "$G/git" 80
  wait_for "the demo's git server" 10 "$G/logs/git-server.log" \
    curl -fsS --max-time 2 "http://$NODE_HOST_IP/demo.git/HEAD"
  kubectl apply --server-side --field-manager=ludis-dev -f - >/dev/null <<EOF || die "creating the git Service failed"
apiVersion: v1
kind: Service
metadata: {name: git, namespace: ludis-system}
spec:
  ports: [{name: http, port: 80, targetPort: 80}]
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: git-host
  namespace: ludis-system
  labels: {kubernetes.io/service-name: git}
addressType: IPv4
ports: [{name: http, port: 80, protocol: TCP}]
endpoints: [{addresses: ["$NODE_HOST_IP"]}]
EOF
  wait_for "the namespace $NS (made by the API)" 60 "$LUDIS_STATE/api/logs/ludis-api.log" kubectl get namespace "$NS"
  # Earlier versions of this script gave the namespace the S3 server's keys in a Secret: gone.
  kubectl -n "$NS" delete secret ludis-storage --ignore-not-found >/dev/null ||
    die "deleting the demo's old storage Secret failed"
  kubectl apply --server-side --field-manager=ludis-dev -n "$NS" -f "$REPO_DIR/seeds/k8s/demo.yaml" >/dev/null ||
    die "applying seeds/k8s/demo.yaml failed"
  ok "demo applied in $NS (kubectl get ludis -n $NS)"
}

case "${1:-}" in
  up) up ;;
  down) stop_pidfile "$G/pids/git-server.pid" ;;
  *) die "usage: dev/demo.sh up|down" ;;
esac
