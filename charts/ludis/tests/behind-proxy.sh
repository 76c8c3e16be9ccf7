#!/usr/bin/env bash
# The sign-in throttle of the installed chart behind a real reverse proxy (run by dev/e2e-chart.sh
# once the API answers through nginx at $LUDIS_E2E_URL, with api.trustedProxies naming the proxy).
# Clients are this machine's loopback addresses (all of 127.0.0.0/8), so the proxy sees each one as
# a client of its own, as an ingress sees browsers:
#   - one client guessing passwords until its address is locked locks out only itself: another
#     client through the same proxy signs in (with every request from the proxy's one address,
#     that is what the throttle keyed on before);
#   - a client cannot name its own address: the locked one sending X-Forwarded-For stays locked
#     (the proxy appends the address it saw, and the API walks the chain from the proxy back);
#   - the per-account limit holds whatever the address: 5 wrong passwords from one client lock the
#     account for another.
# Needs LUDIS_E2E_URL, LUDIS_E2E_ADMIN_EMAIL and LUDIS_E2E_ADMIN_PASSWORD (an account without 2FA
# enrolled or required is fine: a right password answers 200 either way), and the API's limit per
# address (LUDIS_E2E_ADDRESS_FAILURES, the chart's default 50). The last line counts the checks.
set -euo pipefail
: "${LUDIS_E2E_URL:?the address of the installed API}" "${LUDIS_E2E_ADMIN_EMAIL:?}" "${LUDIS_E2E_ADMIN_PASSWORD:?}"
limit=${LUDIS_E2E_ADDRESS_FAILURES:-50}
run=$RANDOM$RANDOM

# sign_in FROM EMAIL PASSWORD [X-Forwarded-For]: the status of a sign-in from address FROM.
sign_in() {
  local headers=(-H 'content-type: application/json')
  [ -n "${4:-}" ] && headers+=(-H "x-forwarded-for: $4")
  curl -sS -o /dev/null -w '%{http_code}' --max-time 30 --interface "$1" "${headers[@]}" \
    --data "$(jq -nc --arg e "$2" --arg p "$3" '{user: {email: $e, password: $p}}')" "$LUDIS_E2E_URL/v1/auth/login"
}

passed=0 failed=0
check() { # check <what> <expected status> <actual status>
  if [ "$3" = "$2" ]; then
    passed=$((passed + 1))
    echo "ok   - $1"
  else
    failed=$((failed + 1))
    echo "FAIL - $1: expected $2, got $3"
  fi
}

guesser=127.0.0.21 other=127.0.0.22
# The guessing client tries $limit unknown accounts: each a failure of its address, none of an account.
statuses=$(for i in $(seq 1 "$limit"); do sign_in "$guesser" "guess-$run-$i@behind-proxy.example" wrong; echo; done | sort | uniq -c | xargs)
check "the guessing client's $limit wrong sign-ins are refused one by one ($statuses)" "$limit 401" "$statuses"
check "then the guessing client is locked, even with a right password" 429 \
  "$(sign_in "$guesser" "$LUDIS_E2E_ADMIN_EMAIL" "$LUDIS_E2E_ADMIN_PASSWORD")"
check "another client through the same proxy signs in" 200 \
  "$(sign_in "$other" "$LUDIS_E2E_ADMIN_EMAIL" "$LUDIS_E2E_ADMIN_PASSWORD")"
check "the locked client naming another address in X-Forwarded-For stays locked" 429 \
  "$(sign_in "$guesser" "$LUDIS_E2E_ADMIN_EMAIL" "$LUDIS_E2E_ADMIN_PASSWORD" 127.0.0.99)"
check "the address it named is not locked (the control: that client signs in)" 200 \
  "$(sign_in 127.0.0.99 "$LUDIS_E2E_ADMIN_EMAIL" "$LUDIS_E2E_ADMIN_PASSWORD")"

# The account's limit: 5 wrong passwords from one client, then another client is refused too.
victim=victim-$run@behind-proxy.example
for i in 1 2 3 4 5; do sign_in 127.0.0.23 "$victim" wrong >/dev/null; done
check "5 wrong passwords from one client lock the account for another client" 429 \
  "$(sign_in 127.0.0.24 "$victim" wrong)"

echo "chart: $passed passed, $failed failed"
[ "$failed" = 0 ]
