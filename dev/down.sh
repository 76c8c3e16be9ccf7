#!/usr/bin/env bash
# Stops everything dev/up.sh started (data is kept; add --purge to delete it too).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
stop_pidfile "$LUDIS_STATE/api/pids/ludis-api.pid"
stop_pidfile "$LUDIS_STATE/operator/pids/ludis-operator.pid"
if [ "${1:-}" = --purge ]; then
  "$DEV_DIR/s3.sh" purge
  "$DEV_DIR/cluster.sh" purge
  rm -rf "$LUDIS_STATE/api" "$LUDIS_STATE/operator"
else
  "$DEV_DIR/s3.sh" down
  "$DEV_DIR/cluster.sh" down
fi
ok "Ludis stopped"
