#!/usr/bin/env bash
# Benchmark of the API: authenticated GET /v1/users/{id} against a bare axum+sqlx handler doing
# the same query, in the same run, on loopback. Usage: dev/bench-api.sh [seconds] [concurrency]
source "$(dirname "$0")/lib.sh"
cd "$REPO_DIR"
cargo run --release -q -p ludis-api --example api_bench -- "${1:-5}" "${2:-32}"
