#!/usr/bin/env bash
# The local S3-protocol server (s3s-fs: SigV4 with an access key, presigned URLs, data in plain
# files), on 127.0.0.1:$LUDIS_S3_PORT with the bucket $LUDIS_S3_BUCKET.
#   dev/s3.sh up | down | purge | status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

D=$LUDIS_STATE/s3
export LUDIS_S3_BUCKET=${LUDIS_S3_BUCKET:-ludis}

running() { pid_alive "$D/pids/s3s-fs.pid" && port_in_use "$LUDIS_S3_PORT"; }

up() {
  if running; then
    ok "the S3 server is already running at $LUDIS_S3_ENDPOINT"
    return 0
  fi
  stop_pidfile "$D/pids/s3s-fs.pid"
  "$DEV_DIR/build-tools.sh" s3s-fs >&2
  require_free_port "S3 server (s3s-fs)" "$LUDIS_S3_PORT"
  # A bucket is a folder of the root.
  mkdir -p "$D/data/$LUDIS_S3_BUCKET"
  start_bg s3s-fs "$D" "$(tool_dir s3s-fs)/s3s-fs" --host 127.0.0.1 --port "$LUDIS_S3_PORT" \
    --access-key "$LUDIS_S3_ACCESS_KEY" --secret-key "$LUDIS_S3_SECRET_KEY" "$D/data"
  wait_for "S3 server (s3s-fs)" 30 "$D/logs/s3s-fs.log" port_in_use "$LUDIS_S3_PORT"
  ok "S3 server ready at $LUDIS_S3_ENDPOINT (bucket $LUDIS_S3_BUCKET, data in $D/data)"
}

case "${1:-}" in
  up) up ;;
  down) stop_pidfile "$D/pids/s3s-fs.pid" && ok "S3 server stopped" ;;
  purge) stop_pidfile "$D/pids/s3s-fs.pid" && rm -rf "$D" && ok "S3 server stopped and its data removed" ;;
  status) if running; then echo "s3s-fs running at $LUDIS_S3_ENDPOINT"; else echo "s3s-fs stopped"; fi ;;
  *) die "usage: dev/s3.sh up|down|purge|status" ;;
esac
