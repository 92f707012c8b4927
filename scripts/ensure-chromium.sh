#!/usr/bin/env bash
# Browser tests use Debian's Chromium. Install it when missing and we may (root); otherwise say what to install.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  exit 0
fi
echo "The browser tests need Chromium: install Debian's 'chromium' package (apt-get install chromium)," >&2
echo "or set CHROMIUM_PATH to a Chromium/Chrome binary." >&2
exit 1
