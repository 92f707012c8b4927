// Bundles the service for `npm start` and the container image: plain Node runs the bundles, so no TypeScript loader
// thread sits in every service process (it cost about 90 MB of peak memory under load) and the admin CLI starts in a
// fraction of a second instead of tsx's seconds. Packages stay external (native better-sqlite3), but the admin CLI
// takes in the few functions it uses of viem and its hash and curve libraries: loading all of viem from
// node_modules was most of its start-up time. The @noble libraries are inlined with it, not only for speed: viem
// imports its own @noble/hashes 1.x (`@noble/hashes/sha3`) and the Monero code the top-level 2.x
// (`@noble/hashes/sha3.js`); left external, both would resolve to the top-level one, which has no `./sha3`.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const common = {
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

export async function buildServer() {
  const deps = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).dependencies);
  const inlined = ['viem', '@scure/bip32', '@scure/base', '@noble/hashes', '@noble/curves'];
  await Promise.all([
    build({ ...common, entryPoints: { main: 'server/main.ts' }, packages: 'external' }),
    build({
      ...common,
      entryPoints: { admin: 'server/admin-cli.ts' },
      external: deps.filter((d) => !inlined.includes(d)),
    }),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
