// `npm start` builds what is missing or older than its sources before serving, so a fresh clone (or a pull that
// changed the code) just works: the drop-in bundle (Vite) and the server bundle (esbuild).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from './build-server.mjs';

function newest(paths) {
  let t = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const s = statSync(p);
    if (!s.isDirectory()) t = Math.max(t, s.mtimeMs);
    else for (const e of readdirSync(p)) if (e !== 'node_modules') t = Math.max(t, newest([join(p, e)]));
  }
  return t;
}

/** True when an output is missing or older than the newest source. */
function stale(outputs, sources) {
  if (outputs.some((f) => !existsSync(f))) return true;
  return newest(sources) > Math.min(...outputs.map((f) => statSync(f).mtimeMs));
}

const widgetOut = ['checkout.js', 'checkout.module.js', 'page.js'].map((f) => `public/dropin/v1/${f}`);
if (stale(widgetOut, ['widget', 'vite.config.ts'])) {
  console.log('Building the drop-in checkout...');
  execSync('npx vite build', { stdio: 'inherit' });
}
if (stale(['public/dashboard/index.html'], ['dashboard'])) {
  console.log('Building the merchant dashboard...');
  execSync('npx vite build -c dashboard/vite.config.ts', { stdio: 'inherit' });
}
if (
  stale(
    ['dist/main.mjs'],
    ['server', 'core', 'api-kit', 'merchant-api', 'dropin-api', 'dashboard-api', 'index.ts', 'package-lock.json'],
  )
) {
  console.log('Building the server...');
  await buildServer();
}
