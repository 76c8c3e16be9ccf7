#!/usr/bin/env bash
# A real SMTP server for tests (aiosmtpd, from PyPI, in a virtualenv in the cache) on
# 127.0.0.1:$LUDIS_SMTP_PORT; every message it receives is stored in a Maildir.
#   dev/smtp.sh up | down | purge | status | maildir
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

D=$LUDIS_STATE/smtp
AIOSMTPD_VERSION=1.4.6
VENV=$LUDIS_CACHE/python/aiosmtpd-$AIOSMTPD_VERSION-$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')

running() { pid_alive "$D/pids/aiosmtpd.pid" && port_in_use "$LUDIS_SMTP_PORT"; }

install() {
  [ -x "$VENV/bin/aiosmtpd" ] && return 0
  log "installing aiosmtpd $AIOSMTPD_VERSION into $VENV"
  rm -rf "$VENV.tmp"
  python3 -m venv "$VENV.tmp" && "$VENV.tmp/bin/pip" install -q "aiosmtpd==$AIOSMTPD_VERSION" &&
    mv "$VENV.tmp" "$VENV" || die "installing aiosmtpd failed"
}

up() {
  if running; then
    ok "the SMTP server is already running on 127.0.0.1:$LUDIS_SMTP_PORT"
    return 0
  fi
  stop_pidfile "$D/pids/aiosmtpd.pid"
  install
  require_free_port "SMTP server (aiosmtpd)" "$LUDIS_SMTP_PORT"
  mkdir -p "$D/maildir/tmp" "$D/maildir/new" "$D/maildir/cur"
  start_bg aiosmtpd "$D" "$VENV/bin/python" -m aiosmtpd -n -l "127.0.0.1:$LUDIS_SMTP_PORT" \
    -c aiosmtpd.handlers.Mailbox "$D/maildir"
  wait_for "SMTP server (aiosmtpd)" 30 "$D/logs/aiosmtpd.log" port_in_use "$LUDIS_SMTP_PORT"
  ok "SMTP server ready on 127.0.0.1:$LUDIS_SMTP_PORT (messages in $D/maildir)"
}

case "${1:-}" in
  up) up ;;
  down) stop_pidfile "$D/pids/aiosmtpd.pid" && ok "SMTP server stopped" ;;
  purge) stop_pidfile "$D/pids/aiosmtpd.pid" && rm -rf "$D" && ok "SMTP server stopped and its mail removed" ;;
  status) if running; then echo "aiosmtpd running on 127.0.0.1:$LUDIS_SMTP_PORT"; else echo "aiosmtpd stopped"; fi ;;
  maildir) echo "$D/maildir" ;;
  *) die "usage: dev/smtp.sh up|down|purge|status|maildir" ;;
esac
