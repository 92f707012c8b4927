import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * Builds the drop-in into public/dropin/v1/:
 * - checkout.js: the script tag (a small IIFE loader; defines window.ServiceCheckout and imports core.js);
 * - core.js + chunks/*.js: the checkout as ES modules; what the QR does not need (the picker, the closing
 *   screens, live status) sits in chunks loaded when needed, so the page downloads only what shows the QR;
 * - checkout.mjs + checkout.d.ts: the ES module with TypeScript types, for bundler users (one file);
 * - page.js: the hosted payment page (/pay/{id}), the same components as a full page (one file);
 * - locales/*.json: the non-English messages, fetched only when used.
 */
const OUT_DIR = 'public/dropin/v1';

const shared: UserConfig = {
  // Vite 8 compiles TSX with Oxc. Classic `h` calls rather than the automatic runtime: preact/jsx-runtime would
  // add its own vnode factory (about 0.25 KB gzipped) next to the `h` that render() needs anyway. The type check
  // (tsconfig) keeps `react-jsx`: the JSX types are the same.
  oxc: {
    jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
    jsxInject: `import { h, Fragment } from 'preact'`,
    include: /\.tsx$/,
  },
  define: { 'process.env.NODE_ENV': '"production"' },
  publicDir: false,
  logLevel: 'warn',
};

/**
 * Browsers of the last few years, for the script as for the stylesheet: no legacy fallbacks inflate the bundle
 * (an ES2020 target, for one, turned every class field into a defineProperty helper call).
 */
const BROWSERS = ['chrome111', 'safari16.4', 'firefox115', 'edge111'];

/** Output settings of every build. */
const out = {
  outDir: OUT_DIR,
  emptyOutDir: false,
  minify: true,
  target: BROWSERS,
  cssTarget: BROWSERS,
  // No modulepreload helper around the chunks' dynamic imports: a chunk here imports nothing core.js lacks.
  modulePreload: false,
};

/** A one-file build (dynamic imports inlined): the loader, the ES module for bundlers, the hosted page. */
const oneFile = (entry: string, format: 'es' | 'iife', fileName: string, name?: string) =>
  build({
    ...shared,
    configFile: false,
    build: {
      ...out,
      rolldownOptions: { output: { codeSplitting: false } },
      lib: { entry, formats: [format], fileName: () => fileName, ...(name ? { name } : {}) },
    },
  });

/** Emits the non-English locale files next to the script; drops the chunks of earlier builds. */
function locales(): Plugin {
  return {
    name: 'checkout-locales',
    buildStart() {
      rmSync(`${OUT_DIR}/chunks`, { recursive: true, force: true });
    },
    generateBundle() {
      for (const f of readdirSync('widget/locales')) {
        if (!f.endsWith('.json')) continue;
        // Re-serialised compactly: the source is indented for review.
        const source = JSON.stringify(JSON.parse(readFileSync(`widget/locales/${f}`, 'utf8')));
        this.emitFile({ type: 'asset', fileName: `locales/${f}`, source });
      }
    },
  };
}

/** After the core build: the loader, the ES module build and its declaration file, the hosted page, the size line. */
function otherBuilds(): Plugin {
  return {
    name: 'checkout-loader-esm-page-types',
    apply: 'build',
    async closeBundle() {
      await oneFile('widget/entry.ts', 'iife', 'checkout.js', 'ServiceCheckoutLoader');
      await oneFile('widget/index.ts', 'es', 'checkout.mjs');
      await oneFile('widget/page-entry.ts', 'iife', 'page.js', 'ServiceCheckoutPage');
      const types = ts.transpileDeclaration(readFileSync('widget/types.ts', 'utf8'), {
        compilerOptions: { declaration: true },
      }).outputText;
      writeFileSync(
        `${OUT_DIR}/checkout.d.ts`,
        `${types}\n/** Opens the checkout popup. Never throws; see CheckoutOptions. */\nexport declare function open(options: CheckoutOptions): CheckoutHandle;\nexport declare const version: string;\n`,
      );
      const gz = (f: string) => gzipSync(readFileSync(`${OUT_DIR}/${f}`), { level: 9 }).length;
      const chunks = readdirSync(`${OUT_DIR}/chunks`).map((f) => `chunks/${f} ${gz(`chunks/${f}`)}`);
      console.log(
        `gzipped: checkout.js ${gz('checkout.js')} + core.js ${gz('core.js')} bytes to the QR (budget with the API answers: 15 KB); later: ${chunks.join(', ')}`,
      );
    },
  };
}

export default defineConfig({
  ...shared,
  plugins: [locales(), otherBuilds()],
  build: {
    ...out,
    lib: { entry: 'widget/core.ts', formats: ['es'], fileName: () => 'core.js' },
    rolldownOptions: {
      // Shared code stays in core.js (a strict entry signature would move it to a chunk of its own).
      preserveEntrySignatures: 'allow-extension',
      // Vite leaves a library's ES output unminified for bundlers; this one goes straight to browsers.
      // No comments either: the `@__PURE__` annotations that lib mode keeps serve bundlers, not browsers.
      output: { minify: true, comments: false, chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
