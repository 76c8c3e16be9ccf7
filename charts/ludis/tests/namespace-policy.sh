#!/usr/bin/env bash
# The chart's namespace policies on a real API server (run by dev/test.sh, chart_tests, with
# KUBECONFIG set): as the API's service account — with RBAC allowing it everything on namespaces
# and RoleBindings of its organization role anywhere, as the chart's ClusterRole does — it binds
# that role in, changes and deletes a namespace labelled `ludis.dev/organization` (the control),
# and is refused in one without the label. Everything it
# makes is removed at the end. The last line counts the checks: `chart: N passed, 0 failed`.
set -euo pipefail
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHART_DIR=$(dirname "$TESTS_DIR")
# shellcheck source=../../../dev/lib.sh
source "$CHART_DIR/../../dev/lib.sh"
HELM=${HELM:-$(tool_dir helm)/helm}
KUBECTL=${KUBECTL:-$(tool_dir kubernetes)/kubectl}
[ -n "${KUBECONFIG:-}" ] || die "KUBECONFIG is not set: dev/test.sh starts the test cluster"

ns=ludis-policy-test sa=policy-test-api suffix=$RANDOM
as=(--as "system:serviceaccount:$ns:$sa")
own=policy-own-$suffix foreign=policy-foreign-$suffix
cleanup() {
  "$HELM" template policy-test "$CHART_DIR" --namespace "$ns" --set 'api.appsOrigin=https://*.apps.ludis.example' --set api.serviceAccount.create=false \
    --set "api.serviceAccount.name=$sa" --show-only templates/api/namespace-policy.yaml 2>/dev/null |
    "$KUBECTL" delete --ignore-not-found -f - >/dev/null 2>&1 || true
  "$KUBECTL" delete clusterrolebinding,clusterrole "$sa" "$sa-binder" --ignore-not-found >/dev/null 2>&1 || true
  "$KUBECTL" delete clusterrole "$sa-organization" --ignore-not-found >/dev/null 2>&1 || true
  "$KUBECTL" delete namespace "$ns" "$own" "$foreign" --ignore-not-found --wait=false >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$KUBECTL" create namespace "$ns" >/dev/null
"$KUBECTL" create serviceaccount "$sa" -n "$ns" >/dev/null
"$KUBECTL" create clusterrole "$sa" --verb=get,create,patch,update,delete --resource=namespaces >/dev/null
"$KUBECTL" create clusterrolebinding "$sa" --clusterrole="$sa" --serviceaccount="$ns:$sa" >/dev/null
# RoleBindings anywhere, of a role it may bind, as the chart's ClusterRole grants.
"$KUBECTL" create clusterrole "$sa-binder" --verb=get,create,patch --resource=rolebindings.rbac.authorization.k8s.io >/dev/null
"$KUBECTL" create clusterrole "$sa-organization" --verb=get --resource=configmaps >/dev/null
"$KUBECTL" patch clusterrole "$sa-binder" --type=json -p "[{\"op\": \"add\", \"path\": \"/rules/-\", \"value\": {\"apiGroups\": [\"rbac.authorization.k8s.io\"], \"resources\": [\"clusterroles\"], \"resourceNames\": [\"$sa-organization\"], \"verbs\": [\"bind\"]}}]" >/dev/null
"$KUBECTL" create clusterrolebinding "$sa-binder" --clusterrole="$sa-binder" --serviceaccount="$ns:$sa" >/dev/null
"$HELM" template policy-test "$CHART_DIR" --namespace "$ns" --set 'api.appsOrigin=https://*.apps.ludis.example' --set api.serviceAccount.create=false \
  --set "api.serviceAccount.name=$sa" --show-only templates/api/namespace-policy.yaml 2>/dev/null |
  "$KUBECTL" apply -f - >/dev/null
"$KUBECTL" create namespace "$own" >/dev/null
"$KUBECTL" label namespace "$own" ludis.dev/organization=some-org >/dev/null
"$KUBECTL" create namespace "$foreign" >/dev/null

passed=0
check() { # check <what> <expected: allowed|refused> <command...>
  local what=$1 expected=$2 out got
  shift 2
  if out=$("$@" 2>&1); then got=allowed; else got=refused; fi
  if [ "$got" = refused ] && [[ $out != *"the Ludis API changes and deletes only the namespaces it made"* ]] &&
    [[ $out != *"the Ludis API binds roles only in the namespaces it made"* ]]; then
    got="refused otherwise: $out"
  fi
  [ "$got" = "$expected" ] || die "namespace policy: $what: expected $expected, got $got"
  passed=$((passed + 1))
}
bind() { "$KUBECTL" "${as[@]}" create rolebinding "${2:-ludis-api}" -n "$1" --clusterrole="$sa-organization" --serviceaccount="$ns:$sa"; }
# A policy is enforced a moment after it is created (the API server's informer): wait for both.
for _ in $(seq 1 150); do
  if ! "$KUBECTL" "${as[@]}" label namespace "$foreign" probe=1 >/dev/null 2>&1; then break; fi
  "$KUBECTL" label namespace "$foreign" probe- >/dev/null
  sleep 0.2
done
for _ in $(seq 1 150); do
  if ! bind "$foreign" probe >/dev/null 2>&1; then break; fi
  "$KUBECTL" delete rolebinding probe -n "$foreign" >/dev/null
  sleep 0.2
done
check "the API binds its organization role in a foreign namespace" refused bind "$foreign"
check "the API binds its organization role in its own namespace" allowed bind "$own"
# RBAC's own escalation check: no role it neither holds nor may bind.
if out=$("$KUBECTL" "${as[@]}" create rolebinding other -n "$own" --clusterrole=admin --serviceaccount="$ns:$sa" 2>&1); then
  die "namespace policy: the API bound the admin role in its own namespace"
fi
[[ $out == *"forbidden"* ]] || die "namespace policy: binding the admin role failed otherwise: $out"
passed=$((passed + 1))
check "the API labels a foreign namespace" refused "$KUBECTL" "${as[@]}" label namespace "$foreign" taken=yes
check "the API deletes a foreign namespace" refused "$KUBECTL" "${as[@]}" delete namespace "$foreign" --wait=false
check "the API changes its own namespace" allowed "$KUBECTL" "${as[@]}" label namespace "$own" changed=yes
check "the API deletes its own namespace" allowed "$KUBECTL" "${as[@]}" delete namespace "$own" --wait=false
check "an administrator deletes the foreign namespace" allowed "$KUBECTL" delete namespace "$foreign" --wait=false
echo "chart: $passed passed, 0 failed"
