#!/usr/bin/env bash
# Benchmark of the insights list: 100,000 insights of 1,000 users with realistic sharing; p50/p99
# of GET /v1/applications/insights (filter shared, sort by updated_at, search) for a user who sees
# about 1,000, on SQLite and on PostgreSQL (a private server started here from Debian's packages,
# on the test port unless one is already running), with the bare query's numbers from the same run
# and the query plan. Target: p99 <= 20 ms.
#   dev/bench-insights.sh [sqlite|postgres|both] [requests per query]
set -euo pipefail
export LUDIS_STATE=${LUDIS_BENCH_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/ludis-bench}
export LUDIS_PG_PORT=${LUDIS_BENCH_PG_PORT:-34432}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
which=${1:-both}
if [ "$which" != sqlite ] && [ -z "${LUDIS_BENCH_POSTGRES_URL:-}" ]; then
  "$DEV_DIR/postgres.sh" up >&2
  trap '"$DEV_DIR/postgres.sh" purge >/dev/null 2>&1 || true' EXIT
  LUDIS_BENCH_POSTGRES_URL=$("$DEV_DIR/postgres.sh" url)
  export LUDIS_BENCH_POSTGRES_URL
fi
# The benchmark measures the database, not a cluster: no Kubernetes client.
env -u KUBECONFIG cargo run --release --locked -q -p ludis-api --example insights_bench -- "$which" "${2:-500}"
