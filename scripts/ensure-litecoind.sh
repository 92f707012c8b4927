#!/usr/bin/env bash
# Bitcoin-family chain tests run a real regtest node: Debian's litecoind (Litecoin Core speaks Bitcoin Core's RPC).
# Install it when missing and we may (root); otherwise say what to install.
set -euo pipefail
if [ -n "${LITECOIND_PATH:-}" ] && [ -x "$LITECOIND_PATH" ]; then exit 0; fi
if command -v litecoind >/dev/null 2>&1 || [ -x /usr/bin/litecoind ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's litecoind for the Bitcoin-family chain tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq litecoind) >/dev/null
  exit 0
fi
echo "The Bitcoin-family chain tests need litecoind: install Debian's 'litecoind' package (apt-get install litecoind)," >&2
echo "or set LITECOIND_PATH to a litecoind binary (Litecoin Core 0.21)." >&2
exit 1
