// Bundles the service for `npm start`: plain Node runs the bundle, so no TypeScript loader thread sits in every
// service process (it cost about 90 MB of peak memory under load). Packages stay external (native better-sqlite3).
import { build } from 'esbuild';

export async function buildServer() {
  await build({
    entryPoints: { main: 'server/main.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
