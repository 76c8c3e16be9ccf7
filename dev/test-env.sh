# shellcheck shell=bash
# The test command's own state folder and ports (sourced by dev/test.sh before dev/lib.sh), so it
# runs beside a running `dev/up.sh` platform: every port of dev/lib.sh is set here to another one
# (each can be moved with LUDIS_TEST_<NAME>), and dev/tests/scripts.sh checks that none is left at
# the platform's.
export LUDIS_STATE=${LUDIS_TEST_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/ludis-test}
export LUDIS_ETCD_PORT=${LUDIS_TEST_ETCD_PORT:-33790} LUDIS_ETCD_PEER_PORT=${LUDIS_TEST_ETCD_PEER_PORT:-33800}
export LUDIS_APISERVER_PORT=${LUDIS_TEST_APISERVER_PORT:-36443} LUDIS_KCM_PORT=${LUDIS_TEST_KCM_PORT:-36257}
export LUDIS_SCHEDULER_PORT=${LUDIS_TEST_SCHEDULER_PORT:-36259} LUDIS_KWOK_PORT=${LUDIS_TEST_KWOK_PORT:-36250}
export LUDIS_S3_PORT=${LUDIS_TEST_S3_PORT:-39000} LUDIS_PG_PORT=${LUDIS_TEST_PG_PORT:-35432}
export LUDIS_SMTP_PORT=${LUDIS_TEST_SMTP_PORT:-32525} LUDIS_AI_PORT=${LUDIS_TEST_AI_PORT:-39100}
export LUDIS_CHAIN_ETHEREUM_PORT=${LUDIS_TEST_CHAIN_ETHEREUM_PORT:-39545}
export LUDIS_CHAIN_POLYGON_PORT=${LUDIS_TEST_CHAIN_POLYGON_PORT:-39546}
# The end-to-end API (dev/e2e.sh; its operator listens on the next port), which the tests' node
# forwards to its pods.
export LUDIS_E2E_PORT=${LUDIS_E2E_PORT:-38080}
export LUDIS_API_PORT=$LUDIS_E2E_PORT LUDIS_NODE_FORWARD_API=true
# The tests' own cluster, whatever KUBECONFIG the shell holds (the README shows how to point it at
# the dev/up.sh platform, which the tests must never share); LUDIS_TEST_KUBECONFIG names another
# cluster to test against on purpose.
if [ -n "${LUDIS_TEST_KUBECONFIG:-}" ]; then
  export KUBECONFIG=$LUDIS_TEST_KUBECONFIG
else
  unset KUBECONFIG
fi
