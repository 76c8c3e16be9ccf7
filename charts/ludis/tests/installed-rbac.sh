#!/usr/bin/env bash
# The installed API's and operator's rights, asked of the real API server (run by
# dev/e2e-chart.sh once the chart is installed and its API has made the namespace of an
# organization):
#   installed-rbac.sh <release namespace> <API service account> <operator service account> <an organization's namespace>
# In the organization's namespace the API reads Secrets, opens terminals and writes ConfigMaps
# (the RoleBinding it made there: the control); in kube-system, in the release namespace and in a
# namespace nobody labelled it can do none of it, nor list pods or Secrets cluster-wide. The
# operator gets a Secret by name (a project's: the control) and never lists or watches them.
# The last line counts the checks.
set -euo pipefail
[ $# = 4 ] || { echo "usage: $0 <release namespace> <API service account> <operator service account> <organization namespace>" >&2; exit 2; }
release_ns=$1 account=$2 operator_account=$3 org_ns=$4
: "${KUBECONFIG:?the cluster of the install}"
KUBECTL=${KUBECTL:-kubectl}
as=(--as "system:serviceaccount:$release_ns:$account")
can() { "$KUBECTL" auth can-i "${as[@]}" "$@" 2>/dev/null || true; }
operator_can() { "$KUBECTL" auth can-i --as "system:serviceaccount:$release_ns:$operator_account" "$@" 2>/dev/null || true; }

passed=0 failed=0
check() { # check <what> <expected yes|no> <can-i arguments...>
  local what=$1 expected=$2 got
  shift 2
  got=$(can "$@")
  if [ "$got" = "$expected" ]; then
    passed=$((passed + 1))
    echo "ok   - $what"
  else
    failed=$((failed + 1))
    echo "FAIL - $what: expected $expected, got ${got:-an error}"
  fi
}

# The API binds its role right after making the namespace: wait for the binding to count.
for _ in $(seq 1 150); do
  [ "$(can get secrets -n "$org_ns")" = yes ] && break
  sleep 0.2
done
for verb_resource in "get secrets" "create pods --subresource=exec" "patch configmaps" "delete pods" "patch resourcequotas"; do
  # shellcheck disable=SC2086 # a verb and a resource
  check "the API may $verb_resource in the organization's namespace $org_ns" yes $verb_resource -n "$org_ns"
  for ns in kube-system "$release_ns" default; do
    # shellcheck disable=SC2086
    check "the API may not $verb_resource in $ns" no $verb_resource -n "$ns"
  done
done
check "the API may not list Secrets cluster-wide" no list secrets --all-namespaces
check "the API may not list pods cluster-wide" no list pods --all-namespaces
check "the API may not bind the cluster-admin role" no bind clusterroles/cluster-admin
as_operator() { # as_operator <what> <expected yes|no> <can-i arguments...>
  local what=$1 expected=$2 got
  shift 2
  got=$(operator_can "$@")
  if [ "$got" = "$expected" ]; then passed=$((passed + 1)); echo "ok   - $what"; else
    failed=$((failed + 1)); echo "FAIL - $what: expected $expected, got ${got:-an error}"; fi
}
as_operator "the operator may get a project's Secret by name" yes get secrets/some-project-env -n "$org_ns"
as_operator "the operator may not list Secrets" no list secrets -n "$org_ns"
as_operator "the operator may not watch Secrets cluster-wide" no watch secrets --all-namespaces
echo "chart: $passed passed, $failed failed"
[ "$failed" = 0 ]
