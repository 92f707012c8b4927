import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import { gzipBest } from './scripts/gzip-best.js';

/**
 * Builds the drop-in into public/dropin/v1/:
 * - checkout.js: the script tag (a small classic script; defines window.ServiceCheckout) that imports
 * - checkout.module.js: the checkout as an ES module, everything the QR needs, and chunks/*.js, what the QR does
 *   not need (the closing screens, live status, test mode's simulate), imported when first needed;
 * - checkout.mjs + checkout.d.ts: the same module as one file with TypeScript types, for bundler users;
 * - page.js: the hosted payment page (/pay/{id}), the same components as a full page: a second entry of the
 *   module build, importing checkout.module.js and its chunks (the wallet chunk among them) rather than a copy;
 * - locales/*.json, locales/wallet/*.json: the non-English messages, fetched only when used.
 */
const OUT_DIR = 'public/dropin/v1';

const shared: UserConfig = {
  // Vite 8 compiles TSX with Oxc. Classic `h` calls rather than the automatic runtime: preact/jsx-runtime would
  // add its own vnode factory (about 0.25 KB gzipped) next to the `h` that render() needs anyway. The type check
  // (tsconfig) keeps `react-jsx`: the JSX types are the same.
  oxc: {
    jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
    jsxInject: `import { h, Fragment } from 'preact'`,
    // JSX files only (where `h` must be in scope); Rolldown strips the types of the .ts files itself.
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
const out = { outDir: OUT_DIR, emptyOutDir: false, minify: true, target: BROWSERS, cssTarget: BROWSERS };

/**
 * The checkout module with its chunks; chunk names carry a hash, so a cached module never meets a newer chunk.
 * Library mode: Vite adds no preload helper to dynamic imports there (the chunks need none).
 */
const moduleBuild = () =>
  build({
    ...shared,
    configFile: false,
    build: {
      ...out,
      // The hosted page is a second entry: it runs on checkout.module.js and its chunks (the wallet's among them)
      // instead of carrying a copy of them.
      lib: {
        entry: { 'checkout.module': 'widget/index.ts', page: 'widget/page-entry.ts' },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        // The entry may export more than its own exports: what its chunks share with it stays in it (one request).
        preserveEntrySignatures: 'allow-extension',
        // Minified whole (library mode keeps whitespace for bundlers; this module goes to browsers as it is).
        output: { chunkFileNames: 'chunks/[name]-[hash].js', comments: false, minify: true },
      },
    },
  });

/** A one-file build (dynamic imports inlined): the ES module for bundlers, the hosted page. */
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
      // The checkout's words, and wallet pay's (locales/wallet/, fetched by the wallet chunk).
      for (const dir of ['', 'wallet/'])
        for (const f of readdirSync(`widget/locales/${dir}`)) {
          if (!f.endsWith('.json')) continue;
          // Re-serialised compactly: the source is indented for review.
          const source = JSON.stringify(JSON.parse(readFileSync(`widget/locales/${dir}${f}`, 'utf8')));
          this.emitFile({ type: 'asset', fileName: `locales/${dir}${f}`, source });
        }
    },
  };
}

/**
 * Every file of the build gzipped once, as small as gzip gets (scripts/gzip-best.ts: Zopfli), written next to it
 * (`checkout.js.gz`) for the service to send as it is (api-kit/static-files.ts); returns the gzipped sizes by path.
 */
async function gzipAll(dir = OUT_DIR, rel = ''): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const f of readdirSync(dir)) {
    const path = `${dir}/${f}`;
    if (statSync(path).isDirectory()) Object.assign(sizes, await gzipAll(path, `${rel}${f}/`));
    else if (f.endsWith('.gz')) {
      // Left by an earlier build whose file is gone; the others are rewritten below.
      if (!existsSync(path.slice(0, -3))) rmSync(path);
    } else {
      const gz = await gzipBest(readFileSync(path));
      writeFileSync(`${path}.gz`, gz);
      sizes[`${rel}${f}`] = gz.length;
    }
  }
  return sizes;
}

/** After checkout.js: the module and its chunks, the one-file builds, the declaration file, the size line. */
function otherBuilds(): Plugin {
  return {
    name: 'checkout-module-esm-page-types',
    apply: 'build',
    async closeBundle() {
      await moduleBuild();
      await oneFile('widget/index.ts', 'es', 'checkout.mjs');
      const types = ts.transpileDeclaration(readFileSync('widget/types.ts', 'utf8'), {
        compilerOptions: { declaration: true },
      }).outputText;
      writeFileSync(
        `${OUT_DIR}/checkout.d.ts`,
        `${types}\n/** Opens the checkout popup. Never throws; see CheckoutOptions. */\nexport declare function open(options: CheckoutOptions): CheckoutHandle;\nexport declare const version: string;\n`,
      );
      const gz = await gzipAll();
      const chunks = Object.keys(gz)
        .filter((f) => f.startsWith('chunks/'))
        .map((f) => `${f} ${gz[f]}`);
      console.log(
        `gzipped: checkout.js ${gz['checkout.js']} + checkout.module.js ${gz['checkout.module.js']} bytes (budget to the QR: 15 KB); chunks: ${chunks.join(', ')}`,
      );
    },
  };
}

export default defineConfig({
  ...shared,
  plugins: [locales(), otherBuilds()],
  build: {
    ...out,
    // No comments: nothing downstream needs annotations.
    rolldownOptions: { output: { comments: false } },
    lib: { entry: 'widget/entry.ts', formats: ['iife'], name: 'ServiceCheckoutBundle', fileName: () => 'checkout.js' },
  },
});
