#!/usr/bin/env bash
# The Medusa provider's proof (issue 32): installs this package's own dependencies (Medusa v2 from npm, its own
# lockfile), builds it, then runs test/run.ts against a real Medusa server on the local PostgreSQL and the real
# service. Needs the repository's root `npm ci` (the service, tsx, esbuild) and /usr/bin/chromium.
# Called by .ci/run; CI=true, no stdin, no network but the npm registry.
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

# Install scripts stay off: Medusa needs none, and some would fetch binaries from outside the registry.
if [ ! -d node_modules/@medusajs/medusa ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  nice -n 10 npm ci --no-audit --no-fund --ignore-scripts
fi
npm run -s build
npx tsc -p tsconfig.test.json
# The hosted page's script is the drop-in bundle: built once if this checkout has none yet.
if [ ! -f "$root/public/dropin/v1/checkout.js" ]; then
  (cd "$root" && nice -n 10 npm run -s build)
fi
npx --prefix "$root" biome check "$PWD/src" "$PWD/test" "$PWD/storefront" "$PWD/scripts"
# The provider's own decisions first (seconds), then the proof against real servers (minutes).
"$root/node_modules/.bin/tsx" test/unit.ts
# From the root: the service is bundled there (dist/) beside its public/ assets.
cd "$root"
exec node_modules/.bin/tsx integrations/medusa/test/run.ts
