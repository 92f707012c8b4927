#!/usr/bin/env bash
# e2e/caddy.spec.ts runs README's Caddyfile through Debian's caddy. Install it when missing and we may (root);
# otherwise say what to install (the spec skips, saying so, without it).
set -euo pipefail
if [ -n "${CADDY_PATH:-}" ] && [ -x "$CADDY_PATH" ]; then exit 0; fi
if [ -x /usr/bin/caddy ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's caddy for the reverse-proxy test..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy) >/dev/null
  # The package starts a caddy service on port 80; the test runs its own.
  (systemctl disable --now caddy >/dev/null 2>&1 || true)
  exit 0
fi
echo "The reverse-proxy test needs caddy: install Debian's 'caddy' package (apt-get install caddy)," >&2
echo "or set CADDY_PATH to a caddy binary." >&2
exit 1
