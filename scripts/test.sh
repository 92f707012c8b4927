#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, lint, the store-backed suites (SQLite by default; set
# TEST_DATABASE_URL=postgres://... for PostgreSQL), then the browser runs in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== type check"
npx tsc --noEmit -p .
echo "== format, imports and lint (biome check)"
npx biome check .
echo "== unit and integration suites (vitest)"
# The Bitcoin-family tests run a real litecoind in regtest mode.
bash scripts/ensure-litecoind.sh
# The Monero tests run a real monerod --regtest and monero-wallet-rpc.
bash scripts/ensure-monero.sh
npx vitest run
if [ -d e2e ] && ls e2e/*.spec.ts >/dev/null 2>&1; then
  echo "== browser runs (playwright)"
  bash scripts/ensure-chromium.sh
  # e2e/caddy.spec.ts runs README's Caddyfile through a real caddy.
  bash scripts/ensure-caddy.sh
  npx playwright test
fi
