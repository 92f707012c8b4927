// `npm start` builds the drop-in before serving when it is missing or older than its sources, so a fresh clone
// (or a pull that changed the widget) just works.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const outputs = ['checkout.js', 'page.js', 'chunks/picker.js'].map((f) => `public/dropin/v1/${f}`);

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (existsSync('vite.config.ts')) {
  const missing = outputs.some((f) => !existsSync(f));
  const stale =
    !missing &&
    Math.max(newestSource('widget'), statSync('vite.config.ts').mtimeMs) > Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  if (missing || stale) {
    console.log(`Building the drop-in checkout (${missing ? 'first start' : 'sources changed'})...`);
    execSync('npx vite build', { stdio: 'inherit' });
  }
}
