#!/usr/bin/env bash
# Workflow engines side by side, on the same local control plane and the same machine:
#   1. Ludis vs Argo Workflows: a burst of BENCH_COUNT (default 1,000) single-task runs on the KWOK
#      node — time until every run has its pod, and runs finished per minute at saturation.
#      Argo's workflow-controller is built from its Go module (dev/build-tools.sh argo-workflows)
#      and runs with its CRDs from that module, with client limits raised (--qps/--burst) so the
#      API server, not its default client throttle, is the limit.
#   2. Ludis vs Airflow: scheduling cost per task — the controller's CPU seconds per task for
#      100 DAGs × 10 tasks and one DAG of 1,000 tasks. Airflow (apache-airflow from PyPI, its
#      scheduler on PostgreSQL) runs EmptyOperator tasks, which its scheduler marks successful
#      itself: dependency resolution and state changes only, Airflow's lower bound. Ludis's
#      figure includes creating each task's pod and watching it finish.
# Prints the ratios, the versions and the machine.
#   dev/bench-workflows.sh            (BENCH_COUNT=1000; BENCH_PARTS="argo airflow" to choose)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_DIR"
AIRFLOW_VERSION=3.3.2
N=${BENCH_COUNT:-1000}
PARTS=${BENCH_PARTS:-argo airflow}
pid_alive "$LUDIS_STATE/operator/pids/ludis-operator.pid" &&
  die "dev/up.sh's operator runs on this platform: stop it first (dev/down.sh)"
"$DEV_DIR/cluster.sh" up
if [ -z "${KUBECONFIG:-}" ]; then export KUBECONFIG=$LUDIS_STATE/cluster/kubeconfig; fi
KUBECTL="$(tool_dir kubernetes)/kubectl"
log "building the operator and the benchmark (release)"
cargo build --release --locked --quiet -p ludis-operator --bin ludis-operator --example workflow_bench
"$KUBECTL" apply --server-side -f charts/ludis/files/crds/ >/dev/null
"$KUBECTL" create namespace ludis-system --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
apply_admin_lists ludis-system
B=$LUDIS_STATE/bench-workflows
mkdir -p "$B"
port=18082
require_free_port "the benchmarked operator" "$port"

start_ludis() {
  # Task pods go to the KWOK node (its taint tolerated, the real node's not).
  RUST_LOG=warn start_bg ludis-operator "$B" "$CARGO_TARGET_DIR/release/ludis-operator" \
    --listen "127.0.0.1:$port" --lease-name "bench-wf-$$" --lease-seconds 5 \
    --workload-tolerations kwok.x-k8s.io/node
  wait_for "the operator" 30 "$B/logs/ludis-operator.log" curl -fsS "http://127.0.0.1:$port/readyz"
}
stop_all() {
  stop_pidfile "$B/pids/ludis-operator.pid"
  stop_pidfile "$B/pids/workflow-controller.pid"
  [ -n "${AIRFLOW_PG_STARTED:-}" ] && LUDIS_STATE=$B LUDIS_PG_PORT=$AIRFLOW_PG_PORT "$DEV_DIR/postgres.sh" down >/dev/null 2>&1
  return 0
}
trap stop_all EXIT
# `value key` from the RESULT line of a run's output.
value() { grep '^RESULT' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

SUMMARY=()
if [[ " $PARTS " == *" argo "* ]]; then
  "$DEV_DIR/build-tools.sh" argo-workflows
  ARGO=$(tool_dir argo-workflows)
  ARGO_SRC=$(cd "$DEV_DIR/tools/argo-workflows" && go list -m -f '{{.Dir}}' github.com/argoproj/argo-workflows/v3)
  "$KUBECTL" apply --server-side -k "$ARGO_SRC/manifests/base/crds/minimal/" >/dev/null

  log "Ludis: a burst of $N single-task runs"
  start_ludis
  BENCH_ENGINE=ludis BENCH_SHAPE=burst BENCH_COUNT=$N BENCH_CONTROLLER_PID=$(cat "$B/pids/ludis-operator.pid") \
    "$CARGO_TARGET_DIR/release/examples/workflow_bench" | tee "$B/ludis-burst.txt"
  stop_pidfile "$B/pids/ludis-operator.pid"

  log "Argo Workflows $(gomod_version argo-workflows github.com/argoproj/argo-workflows/v3): the same burst"
  # Its installation namespace holds its (here empty, so default) configuration.
  "$KUBECTL" create namespace argo --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
  "$KUBECTL" -n argo create configmap workflow-controller-configmap --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
  LEADER_ELECTION_IDENTITY=bench-$$ start_bg workflow-controller "$B" "$ARGO/workflow-controller" --kubeconfig "$KUBECONFIG" -n argo \
    --qps 500 --burst 1000 --executor-image localhost/ludis/argoexec:bench --loglevel warn
  sleep 5 # its informers' initial lists
  pid_alive "$B/pids/workflow-controller.pid" || die "Argo's workflow-controller exited (log: $B/logs/workflow-controller.log)"
  BENCH_ENGINE=argo BENCH_SHAPE=burst BENCH_COUNT=$N BENCH_CONTROLLER_PID=$(cat "$B/pids/workflow-controller.pid") \
    "$CARGO_TARGET_DIR/release/examples/workflow_bench" | tee "$B/argo-burst.txt"
  stop_pidfile "$B/pids/workflow-controller.pid"

  SUMMARY+=("burst of $N to 'pod created': Ludis $(value burst_s "$B/ludis-burst.txt") s, Argo $(value burst_s "$B/argo-burst.txt") s -> Ludis $(ratio "$(value burst_s "$B/argo-burst.txt")" "$(value burst_s "$B/ludis-burst.txt")")x faster (goal >= 2x)")
  SUMMARY+=("runs/min at saturation: Ludis $(value per_min "$B/ludis-burst.txt"), Argo $(value per_min "$B/argo-burst.txt") -> $(ratio "$(value per_min "$B/ludis-burst.txt")" "$(value per_min "$B/argo-burst.txt")")x (goal >= 2x)")
fi

if [[ " $PARTS " == *" airflow "* ]]; then
  PYV=$(python3 -c 'import sys; print(f"{sys.version_info.major}.{sys.version_info.minor}")')
  VENV=$LUDIS_CACHE/python/airflow-$AIRFLOW_VERSION-$PYV
  if [ ! -f "$VENV/.complete" ]; then
    # A venv cannot move (its scripts name their folder): built in place, marked when complete.
    log "installing apache-airflow $AIRFLOW_VERSION (first time only)"
    rm -rf "$VENV"
    python3 -m venv "$VENV" && "$VENV/bin/pip" install -q "apache-airflow[postgres]==$AIRFLOW_VERSION" &&
      touch "$VENV/.complete" || die "installing apache-airflow failed"
  fi
  AIRFLOW_PG_PORT=18543
  require_free_port "Airflow's PostgreSQL" "$AIRFLOW_PG_PORT"
  LUDIS_STATE=$B LUDIS_PG_PORT=$AIRFLOW_PG_PORT "$DEV_DIR/postgres.sh" up >/dev/null
  AIRFLOW_PG_STARTED=1
  export AIRFLOW_HOME=$B/airflow PATH=$VENV/bin:$PATH
  export AIRFLOW__DATABASE__SQL_ALCHEMY_CONN=postgresql+psycopg2://ludis:ludis@127.0.0.1:$AIRFLOW_PG_PORT/ludis
  export AIRFLOW__CORE__LOAD_EXAMPLES=False AIRFLOW__CORE__DAGS_FOLDER=$AIRFLOW_HOME/dags
  export AIRFLOW__CORE__EXECUTOR=LocalExecutor
  rm -rf "$AIRFLOW_HOME" && mkdir -p "$AIRFLOW_HOME"
  log "Airflow $AIRFLOW_VERSION: database, DAG files, scheduler on PostgreSQL"
  python "$DEV_DIR/bench/airflow_scheduler.py" write-dags "$AIRFLOW__CORE__DAGS_FOLDER"
  airflow db reset --yes >"$AIRFLOW_HOME/db.log" 2>&1 || airflow db migrate >>"$AIRFLOW_HOME/db.log" 2>&1 ||
    die "airflow db migrate failed (log: $AIRFLOW_HOME/db.log)"
  airflow dags reserialize >"$AIRFLOW_HOME/reserialize.log" 2>&1 || die "airflow dags reserialize failed"
  python "$DEV_DIR/bench/airflow_scheduler.py" measure fans 2>/dev/null | grep -v '^20' | tee "$B/airflow-fans.txt"
  python "$DEV_DIR/bench/airflow_scheduler.py" measure big 2>/dev/null | grep -v '^20' | tee "$B/airflow-big.txt"

  for shape in fans big; do
    log "Ludis: the same DAG shape ($shape)"
    start_ludis
    BENCH_ENGINE=ludis BENCH_SHAPE=$shape BENCH_CONTROLLER_PID=$(cat "$B/pids/ludis-operator.pid") \
      "$CARGO_TARGET_DIR/release/examples/workflow_bench" | tee "$B/ludis-$shape.txt"
    stop_pidfile "$B/pids/ludis-operator.pid"
  done
  SUMMARY+=("scheduling CPU per task, 100 DAGs x 10 tasks: Ludis $(value per_task_ms "$B/ludis-fans.txt") ms, Airflow $(value per_task_ms "$B/airflow-fans.txt") ms -> $(ratio "$(value per_task_ms "$B/airflow-fans.txt")" "$(value per_task_ms "$B/ludis-fans.txt")")x cheaper (goal >= 100x)")
  SUMMARY+=("scheduling CPU per task, one DAG of 1,000 tasks: Ludis $(value per_task_ms "$B/ludis-big.txt") ms, Airflow $(value per_task_ms "$B/airflow-big.txt") ms -> $(ratio "$(value per_task_ms "$B/airflow-big.txt")" "$(value per_task_ms "$B/ludis-big.txt")")x cheaper (goal >= 100x)")
fi

echo
echo "Workflow engines side by side on $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo "  Ludis $(cargo pkgid -p ludis-operator | sed 's/.*[#@]//'), Argo Workflows $(gomod_version argo-workflows github.com/argoproj/argo-workflows/v3), Airflow $AIRFLOW_VERSION (Python $(python3 -V | cut -d' ' -f2)), Kubernetes $(gomod_version kubernetes k8s.io/kubernetes)"
for line in "${SUMMARY[@]}"; do echo "  $line"; done
