#!/usr/bin/env bash
# Monero chain tests run a real regtest node: Debian's monero package (monerod and monero-wallet-rpc 0.18).
# Install it when missing and we may (root); otherwise say what to install.
set -euo pipefail
if [ -n "${MONEROD_PATH:-}" ] && [ -x "$MONEROD_PATH" ]; then exit 0; fi
if command -v monerod >/dev/null 2>&1 && command -v monero-wallet-rpc >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's monero for the Monero chain tests..."
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq monero) >/dev/null
  exit 0
fi
echo "The Monero chain tests need monerod and monero-wallet-rpc: install Debian's 'monero' package" >&2
echo "(apt-get install monero), or set MONEROD_PATH and MONERO_WALLET_RPC_PATH (Monero 0.18)." >&2
exit 1
