import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The merchant dashboard: its own bundle (budget 60 KB gzip for JS+CSS, checked in `npm run bench`), built into
 * public/dashboard/ and served by the service at /dashboard/. Same stack as the drop-in: Preact, @preact/signals,
 * classic `h` JSX. The page is index.html with one module script and one stylesheet, no inline script, so it passes
 * the service's Content-Security-Policy as it is.
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const BROWSERS = ['chrome111', 'safari16.4', 'firefox115', 'edge111'];

export default defineConfig({
  root,
  base: '/dashboard/',
  oxc: {
    jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
    jsxInject: `import { h, Fragment } from 'preact'`,
    include: /\.tsx$/,
  },
  define: { 'process.env.NODE_ENV': '"production"' },
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../public/dashboard', import.meta.url)),
    emptyOutDir: true,
    target: BROWSERS,
    cssTarget: BROWSERS,
    // The polyfill is for browsers older than BROWSERS; without it the entry has no preload helper either.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { comments: false } },
  },
});
