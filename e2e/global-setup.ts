import { execSync } from 'node:child_process';

/** The specs test the built drop-in and dashboard, exactly what `npm start` serves: build them fresh once per run. */
export default function globalSetup(): void {
  execSync('npx vite build', { stdio: 'inherit' });
  execSync('npx vite build -c dashboard/vite.config.ts', { stdio: 'inherit' });
}
