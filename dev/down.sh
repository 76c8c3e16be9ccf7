#!/usr/bin/env bash
# Stops everything dev/up.sh started and undoes the node's changes to the machine (data is kept;
# add --purge to delete it too: the cluster, the node's images and volumes, S3, the API's data, the
# assistant's key, the chains' state; the assistant's installed model and the chains' packages stay
# in the cache). The local Ethereum chains live in memory: a stop forgets them, a start seeds them anew.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
stop_pidfile "$LUDIS_STATE/api/pids/ludis-api.pid"
stop_pidfile "$LUDIS_STATE/operator/pids/ludis-operator.pid"
"$DEV_DIR/demo.sh" down
if [ "${1:-}" = --purge ]; then
  "$DEV_DIR/ai.sh" purge
  "$DEV_DIR/chain.sh" purge
  "$DEV_DIR/s3.sh" purge
  "$DEV_DIR/cluster.sh" purge
  rm -rf "$LUDIS_STATE/api" "$LUDIS_STATE/operator" "$LUDIS_STATE/demo"
else
  "$DEV_DIR/ai.sh" down
  "$DEV_DIR/chain.sh" down
  "$DEV_DIR/s3.sh" down
  "$DEV_DIR/cluster.sh" down
fi
ok "Ludis stopped"
