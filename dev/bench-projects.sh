#!/usr/bin/env bash
# Benchmark of a project's streams and files (issue 14) on the local platform, which it starts
# with dev/up.sh (or finds running): terminal round trip through the API vs the API server's exec
# stream, log lines/s through the API vs the API server's log stream, the API's memory for 500
# log sessions, and repocontents of a 10,000-file folder vs git ls-tree. What each figure means:
# api/examples/projects_bench.rs. The platform runs optimised builds (LUDIS_PROFILE=release; the
# first run builds them), as a deployment does; LUDIS_PROFILE=debug measures the debug builds.
#   dev/bench-projects.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"

export LUDIS_PROFILE=${LUDIS_PROFILE:-release}
log "starting the platform (dev/up.sh; log in $LUDIS_STATE/bench-projects-up.log)"
"$DEV_DIR/up.sh" >"$LUDIS_STATE/bench-projects-up.log" 2>&1 ||
  { tail -n 20 "$LUDIS_STATE/bench-projects-up.log" >&2; die "dev/up.sh failed"; }
export KUBECONFIG=${KUBECONFIG:-$LUDIS_STATE/cluster/kubeconfig}
export LUDIS_BENCH_URL=http://127.0.0.1:$LUDIS_API_PORT
LUDIS_BENCH_PASSWORD=$(cat "$LUDIS_STATE/api/admin-password")
LUDIS_BENCH_API_PID=$(cat "$LUDIS_STATE/api/pids/ludis-api.pid")
LUDIS_BENCH_KUBECTL="$(tool_dir kubernetes)/kubectl"
export LUDIS_BENCH_PASSWORD LUDIS_BENCH_API_PID LUDIS_BENCH_KUBECTL
if [ "$LUDIS_PROFILE" = release ]; then
  cargo run --locked --quiet --release -p ludis-api --example projects_bench
else
  cargo run --locked --quiet -p ludis-api --example projects_bench
fi
