import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';

/**
 * Builds the drop-in into public/dropin/v1/:
 * - checkout.js: the script tag build (IIFE; defines window.ServiceCheckout only);
 * - checkout.mjs + checkout.d.ts: the ES module with TypeScript types, for bundler users;
 * - page.js: the hosted payment page (/pay/{id}), the same components as a full page;
 * - locales/*.json: the non-English messages, fetched only when used.
 */
const OUT_DIR = 'public/dropin/v1';

const shared: UserConfig = {
  // Vite 8 compiles TSX with Oxc: Preact's automatic JSX runtime.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  define: { 'process.env.NODE_ENV': '"production"' },
  publicDir: false,
  logLevel: 'warn',
};

/** Output settings of every build. Browsers of the last few years: no legacy CSS fallbacks inflate the bundle. */
const out = {
  outDir: OUT_DIR,
  emptyOutDir: false,
  minify: true,
  target: 'es2020',
  cssTarget: ['chrome111', 'safari16.4', 'firefox115', 'edge111'],
};

/** Emits the non-English locale files next to the script. */
function locales(): Plugin {
  return {
    name: 'checkout-locales',
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

/** After the script build: the ES module build and its declaration file, then the size line the budget checks. */
function moduleBuildAndTypes(): Plugin {
  return {
    name: 'checkout-esm-and-types',
    apply: 'build',
    async closeBundle() {
      await build({
        ...shared,
        configFile: false,
        build: {
          ...out,
          lib: { entry: 'widget/index.ts', formats: ['es'], fileName: () => 'checkout.mjs' },
        },
      });
      await build({
        ...shared,
        configFile: false,
        build: {
          ...out,
          lib: {
            entry: 'widget/page-entry.ts',
            formats: ['iife'],
            name: 'ServiceCheckoutPage',
            fileName: () => 'page.js',
          },
        },
      });
      const types = ts.transpileDeclaration(readFileSync('widget/types.ts', 'utf8'), {
        compilerOptions: { declaration: true },
      }).outputText;
      writeFileSync(
        `${OUT_DIR}/checkout.d.ts`,
        `${types}\n/** Opens the checkout popup. Never throws; see CheckoutOptions. */\nexport declare function open(options: CheckoutOptions): CheckoutHandle;\nexport declare const version: string;\n`,
      );
      const js = readFileSync(`${OUT_DIR}/checkout.js`);
      console.log(
        `checkout.js: ${js.length} bytes, ${gzipSync(js, { level: 9 }).length} bytes gzipped (budget for everything to the QR: 15 KB)`,
      );
    },
  };
}

export default defineConfig({
  ...shared,
  plugins: [locales(), moduleBuildAndTypes()],
  build: {
    ...out,
    lib: { entry: 'widget/entry.ts', formats: ['iife'], name: 'ServiceCheckoutBundle', fileName: () => 'checkout.js' },
  },
});
