// `npm start` builds what is missing (the drop-in bundle) before serving, so a fresh clone just works.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = ['checkout.js', 'page.js'].every((f) => existsSync(`public/dropin/v1/${f}`));
if (existsSync('vite.config.ts') && !built) {
  console.log('Building the drop-in checkout (first start)...');
  execSync('npx vite build', { stdio: 'inherit' });
}
