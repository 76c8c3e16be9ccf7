#!/usr/bin/env bash
# The chart's tests, run by dev/test.sh (chart_tests); helm and helm-docs from dev/build-tools.sh.
#   charts/ludis/tests/test.sh            check
#   charts/ludis/tests/test.sh --update   rewrite expected/*.yaml and the chart README
#
# - golden renders: every cases/<name>.yaml is linted (--strict) and rendered with `helm template`
#   into expected/<name>.yaml; a different render fails with its diff. CRD documents keep their
#   header only (their schemas are generated and checked by the crds crate's crds_in_sync test).
# - stability: each case renders twice to the same bytes (no generated keys: GitOps tools render
#   on every sync).
# - refusals: every failing/<name>.yaml must fail to render, with the text of its first line
#   (`# error: <text>`) in the message: unknown keys and wrong types (values.schema.json), and the
#   chart's own checks.
# - README: charts/ludis/README.md is what helm-docs makes of values.yaml and README.md.gotmpl.
# - dashboard: docs/grafana/ludis.json parses, and queries only metrics of docs/grafana/metrics.txt.
# The last line counts the checks: `chart: N passed, 0 failed`.
set -euo pipefail
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHART_DIR=$(dirname "$TESTS_DIR")
# shellcheck source=../../../dev/lib.sh
source "$CHART_DIR/../../dev/lib.sh"
HELM=${HELM:-$(tool_dir helm)/helm}
HELM_DOCS=${HELM_DOCS:-$(tool_dir helm-docs)/helm-docs}
update=false
[ "${1:-}" = --update ] && update=true

passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  printf '%s[chart] FAILED:%s %s\n' "$_c_err" "$_c_off" "$*" >&2
}

# The release every case renders as: `ludis` in `ludis-system`.
render() { "$HELM" template ludis "$CHART_DIR" --namespace ludis-system "$@"; }

# CRD documents reduced to their header (apiVersion, kind, metadata).
without_crd_schemas() {
  awk '/^# Source: / { crd = ($3 ~ /templates\/crds\.yaml$/) } /^---/ { skip = 0 }
       crd && /^spec:/ { skip = 1 } !skip { print }'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for case_file in "$TESTS_DIR"/cases/*.yaml; do
  name=$(basename "$case_file" .yaml)
  expected=$TESTS_DIR/expected/$name.yaml
  if out=$("$HELM" lint --strict "$CHART_DIR" -f "$case_file" 2>&1); then pass; else fail "helm lint --strict ($name): $out"; continue; fi
  if ! render -f "$case_file" >"$tmp/$name.1" 2>"$tmp/$name.err"; then
    fail "$name does not render: $(cat "$tmp/$name.err")"
    continue
  fi
  render -f "$case_file" >"$tmp/$name.2"
  if cmp -s "$tmp/$name.1" "$tmp/$name.2"; then pass; else fail "$name renders differently twice: $(diff "$tmp/$name.1" "$tmp/$name.2" | head -n 20)"; fi
  without_crd_schemas <"$tmp/$name.1" >"$tmp/$name.golden"
  if $update; then
    cp "$tmp/$name.golden" "$expected"
    pass
  elif [ ! -f "$expected" ]; then
    fail "$name has no expected render (run $0 --update and review the new file)"
  elif diff -u "$expected" "$tmp/$name.golden" >"$tmp/$name.diff"; then
    pass
  else
    fail "$name renders differently from tests/expected/$name.yaml (review, then $0 --update):
$(head -n 60 "$tmp/$name.diff")"
  fi
done
# An expected render whose case is gone is stale.
for expected in "$TESTS_DIR"/expected/*.yaml; do
  [ -f "$TESTS_DIR/cases/$(basename "$expected")" ] || fail "tests/expected/$(basename "$expected") has no case"
done

for case_file in "$TESTS_DIR"/failing/*.yaml; do
  name=$(basename "$case_file" .yaml)
  want=$(sed -n '1s/^# error: //p' "$case_file")
  [ -n "$want" ] || { fail "failing/$name.yaml does not start with '# error: <text>'"; continue; }
  if out=$(render -f "$case_file" 2>&1); then
    fail "failing/$name.yaml rendered (it must be refused with '$want')"
  elif [[ $out == *"$want"* ]]; then
    pass
  else
    fail "failing/$name.yaml was refused without '$want': $out"
  fi
done

# The README: helm-docs over values.yaml with README.md.gotmpl.
cp -r "$CHART_DIR" "$tmp/chart"
"$HELM_DOCS" --chart-search-root "$tmp/chart" --template-files README.md.gotmpl --output-file README.md >/dev/null 2>&1 ||
  fail "helm-docs failed on the chart"
if $update; then
  cp "$tmp/chart/README.md" "$CHART_DIR/README.md"
  pass
elif diff -u "$CHART_DIR/README.md" "$tmp/chart/README.md" >"$tmp/readme.diff"; then
  pass
else
  fail "charts/ludis/README.md is not what helm-docs makes of values.yaml (run $0 --update):
$(head -n 40 "$tmp/readme.diff")"
fi

# The dashboard: valid JSON, panels with queries, and only known metrics.
dashboard=$CHART_DIR/docs/grafana/ludis.json
known=$CHART_DIR/docs/grafana/metrics.txt
if ! jq -e '.panels | length > 0' "$dashboard" >/dev/null 2>&1; then
  fail "docs/grafana/ludis.json is not a dashboard with panels"
else
  jq -r '[.. | objects | (.expr?, .query?) | strings] | .[]' "$dashboard" | grep -o 'ludis_[a-z0-9_]*' | sort -u >"$tmp/queried"
  grep -v '^#' "$known" | sed '/^$/d' | sort -u >"$tmp/known"
  unknown=$(comm -23 "$tmp/queried" "$tmp/known")
  if [ -z "$unknown" ] && [ -s "$tmp/queried" ]; then pass; else fail "the dashboard queries metrics nobody exports: ${unknown:-none at all}"; fi
  unused=$(comm -13 "$tmp/queried" "$tmp/known")
  if [ -z "$unused" ]; then pass; else fail "the dashboard shows nothing of: $unused"; fi
fi

echo "chart: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
