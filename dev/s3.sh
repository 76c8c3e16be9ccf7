#!/usr/bin/env bash
# The local S3-protocol server (dev/tools/s3-server: s3s-fs's storage — SigV4 with an access key,
# presigned URLs, data in plain files — with CORS added so the console in a browser can use
# presigned URLs), on 127.0.0.1:$LUDIS_S3_PORT with the bucket $LUDIS_S3_BUCKET. Every origin may
# call it unless LUDIS_S3_CORS_ORIGINS lists the allowed ones (space-separated).
#   dev/s3.sh up | down | purge | status
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

D=$LUDIS_STATE/s3
export LUDIS_S3_BUCKET=${LUDIS_S3_BUCKET:-ludis}

running() { pid_alive "$D/pids/s3-server.pid" && port_in_use "$LUDIS_S3_PORT"; }

up() {
  if running; then
    ok "the S3 server is already running at $LUDIS_S3_ENDPOINT"
    return 0
  fi
  stop_pidfile "$D/pids/s3-server.pid"
  stop_pidfile "$D/pids/s3s-fs.pid" # left by an older checkout, which ran s3s-fs itself
  "$DEV_DIR/build-tools.sh" s3-server >&2
  require_free_port "S3 server (s3-server)" "$LUDIS_S3_PORT"
  # A bucket is a folder of the root.
  mkdir -p "$D/data/$LUDIS_S3_BUCKET"
  local cors=() origin
  for origin in ${LUDIS_S3_CORS_ORIGINS:-}; do cors+=(--cors-origin "$origin"); done
  start_bg s3-server "$D" "$(tool_dir s3-server)/s3-server" --host 127.0.0.1 --port "$LUDIS_S3_PORT" \
    --access-key "$LUDIS_S3_ACCESS_KEY" --secret-key "$LUDIS_S3_SECRET_KEY" "${cors[@]}" "$D/data"
  wait_for "S3 server (s3-server)" 30 "$D/logs/s3-server.log" port_in_use "$LUDIS_S3_PORT"
  ok "S3 server ready at $LUDIS_S3_ENDPOINT (bucket $LUDIS_S3_BUCKET, data in $D/data)"
}

down() {
  stop_pidfile "$D/pids/s3-server.pid"
  stop_pidfile "$D/pids/s3s-fs.pid"
}

case "${1:-}" in
  up) up ;;
  down) down && ok "S3 server stopped" ;;
  purge) down && rm -rf "$D" && ok "S3 server stopped and its data removed" ;;
  status) if running; then echo "s3-server running at $LUDIS_S3_ENDPOINT"; else echo "s3-server stopped"; fi ;;
  *) die "usage: dev/s3.sh up|down|purge|status" ;;
esac
