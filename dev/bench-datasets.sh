#!/usr/bin/env bash
# Benchmark of datasets against a private local S3 server (s3s-fs): presigned URLs per second per
# core (GET and PUT, beside aws-sdk-s3's own presigning; target >= 50,000/s), and listing a dataset
# of <objects> files page by page through the API versus ListObjectsV2 paging directly against the
# same server in the same run (target ratio <= 1.1).
#   dev/bench-datasets.sh [objects=100000]
#
# The server runs from its own state folder and port (LUDIS_BENCH_STATE, LUDIS_BENCH_S3_PORT),
# never the development or test servers. Its data is kept when the script ends: the dataset's
# objects (a fixed dataset id per object count) are uploaded once and reused by the next run, which
# is then much faster. The server is stopped at exit when this script started it. To remove the data:
#   LUDIS_STATE=${LUDIS_BENCH_STATE:-~/.local/state/ludis-bench} LUDIS_S3_PORT=34900 dev/s3.sh purge
set -euo pipefail
export LUDIS_STATE=${LUDIS_BENCH_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/ludis-bench}
export LUDIS_S3_PORT=${LUDIS_BENCH_S3_PORT:-34900}
# Always this server, whatever LUDIS_S3_ENDPOINT the environment has.
export LUDIS_S3_ENDPOINT=http://127.0.0.1:$LUDIS_S3_PORT
export LUDIS_S3_BUCKET=ludis-bench
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
objects=${1:-100000}
# One run at a time per server: a second run would share (and at its end stop) the first's server,
# and two runs spoil each other's numbers.
mkdir -p "$LUDIS_STATE"
exec 9>"$LUDIS_STATE/bench-datasets.lock"
if ! flock -n 9; then
  log "another dev/bench-datasets.sh is using $LUDIS_STATE; waiting for it to end"
  flock 9
fi
case $("$DEV_DIR/s3.sh" status) in
  *" running at "*) log "the benchmark's S3 server is already running at $LUDIS_S3_ENDPOINT; it is left running" ;;
  *)
    "$DEV_DIR/s3.sh" up >&2 9>&- # the server must not hold the lock
    trap '"$DEV_DIR/s3.sh" down >/dev/null 2>&1 || true' EXIT
    ;;
esac
log "the benchmark's objects are kept in $LUDIS_STATE/s3 (remove them: LUDIS_STATE=$LUDIS_STATE LUDIS_S3_PORT=$LUDIS_S3_PORT dev/s3.sh purge)"
# The benchmark measures object storage and the API, not a cluster: no Kubernetes client.
LUDIS_BENCH_S3_ENDPOINT=$LUDIS_S3_ENDPOINT env -u KUBECONFIG \
  cargo run --release --locked -q -p ludis-api --example datasets_bench -- "$objects"
