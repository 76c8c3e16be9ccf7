#!/usr/bin/env bash
# The template apps' numerics beside the Python references, on the same files and machine:
#   k-means on BENCH_ROWS (default 1,000,000) rows x 3 columns, 4 clusters, 10 Lloyd iterations,
#   one k-means++ start: Ludis (linfa) vs scikit-learn;
#   the forecast of BENCH_POINTS (default 100,000) points, exponential smoothing chosen by AICc
#   among the non-seasonal models: Ludis (augurs' AutoETS) vs statsmodels' ETSModel.
# Prints the speed ratios (goal >= 1x) and whether the results agree: k-means inertia within 1 %
# and the same cluster sizes within 1 %; the 12-step forecasts within 1 %.
#   dev/bench-templates.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
SKLEARN_VERSION=1.9.1
STATSMODELS_VERSION=0.15.0
B=$LUDIS_STATE/bench-templates
rm -rf "$B" && mkdir -p "$B"

PYV=$(python3 -c 'import sys; print(f"{sys.version_info.major}.{sys.version_info.minor}")')
VENV=$LUDIS_CACHE/python/templates-bench-$SKLEARN_VERSION-$STATSMODELS_VERSION-$PYV
if [ ! -f "$VENV/.complete" ]; then
  # A venv cannot move (its scripts name their folder): built in place, marked when complete.
  log "installing scikit-learn $SKLEARN_VERSION and statsmodels $STATSMODELS_VERSION (first time only)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "scikit-learn==$SKLEARN_VERSION" "statsmodels==$STATSMODELS_VERSION" &&
    touch "$VENV/.complete" || die "installing the Python references failed"
fi

log "building the benchmark (release)"
cargo build --release --locked --quiet -p ludis-api --example templates_bench
log "Ludis: k-means on ${BENCH_ROWS:-1000000} rows, forecast of ${BENCH_POINTS:-100000} points"
ROWS=${BENCH_ROWS:-1000000} POINTS=${BENCH_POINTS:-100000} "$CARGO_TARGET_DIR/release/examples/templates_bench" "$B" > "$B/ludis.json"
log "scikit-learn and statsmodels on the same files"
"$VENV/bin/python" dev/bench/templates_reference.py "$B" > "$B/reference.json"

echo
echo "Template numerics on $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "  Ludis $(cargo pkgid -p ludis-api | sed 's/.*[#@]//') (linfa-clustering, augurs-ets), scikit-learn $SKLEARN_VERSION, statsmodels $STATSMODELS_VERSION, Python $(python3 -V | cut -d' ' -f2)"
python3 - "$B/ludis.json" "$B/reference.json" <<'PY'
import json, sys
ours, ref = (json.load(open(p)) for p in sys.argv[1:3])
def close(a, b, tol=0.01):
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-12)
sizes = all(close(a, b) for a, b in zip(ours["sizes"], ref["sizes"]))
print(f"  k-means, {ours['rows']:,} rows x 3: Ludis {ours['kmeans_s']:.3f} s (CSV read {ours['read_s']:.2f} s apart), "
      f"scikit-learn {ref['kmeans_s']:.3f} s -> {ref['kmeans_s'] / ours['kmeans_s']:.2f}x (goal >= 1x); "
      f"inertia {ours['inertia']:.6g} vs {ref['inertia']:.6g} ({'agree' if close(ours['inertia'], ref['inertia']) else 'DIFFER'}), "
      f"sizes {'agree' if sizes else 'DIFFER'}")
agree = all(close(a, b) for a, b in zip(ours["forecast"], ref["forecast"]))
print(f"  forecast, {ours['points']:,} points: Ludis {ours['forecast_s']:.3f} s ({ours['model']}), "
      f"statsmodels {ref['forecast_s']:.3f} s ({ref['model']}) -> {ref['forecast_s'] / ours['forecast_s']:.2f}x (goal >= 1x); "
      f"12-step forecasts {'agree' if agree else 'DIFFER'} within 1 % (first {ours['forecast'][0]:.2f} vs {ref['forecast'][0]:.2f})")
PY
