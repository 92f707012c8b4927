import { execSync } from 'node:child_process';

/** The specs test the built drop-in, exactly what `npm start` serves: build it fresh once per run. */
export default function globalSetup(): void {
  execSync('npx vite build', { stdio: 'inherit' });
}
