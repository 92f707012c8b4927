import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { build, defineConfig, type Plugin, type UserConfig } from 'vite';
import { gzipBest } from './scripts/gzip-best.js';

/**
 * Builds the drop-in into public/dropin/v1/:
 * - checkout.js: the script tag (IIFE; defines window.ServiceCheckout): everything the QR needs, the picker
 *   included (as a chunk of its own it cost the customer-picks flow more than it costs a preset checkout here);
 * - chunks/*.js: what the QR does not need (the closing screens, live status, test mode's simulate, the words
 *   for invalid options), each a small script loaded next to checkout.js when first needed;
 * - checkout.mjs + checkout.d.ts: the ES module with TypeScript types, for bundler users (one file);
 * - page.js: the hosted payment page (/pay/{id}), the same components as a full page (one file);
 * - locales/*.json: the non-English messages, fetched only when used.
 */
const OUT_DIR = 'public/dropin/v1';

const shared: UserConfig = {
  plugins: [signalsWithoutDomBindings()],
  // Vite 8 compiles TSX with Oxc. Classic `h` calls rather than the automatic runtime: preact/jsx-runtime would
  // add its own vnode factory (about 0.25 KB gzipped) next to the `h` that render() needs anyway. The type check
  // (tsconfig) keeps `react-jsx`: the JSX types are the same.
  oxc: {
    jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' },
    jsxInject: `import { h, Fragment } from 'preact'`,
    // JSX files only (where `h` must be in scope); Rolldown strips the types of the .ts files itself.
    include: /\.tsx$/,
  },
  define: {
    'process.env.NODE_ENV': '"production"',
    // @preact/signals checks for its browser devtools at load and calls them on every update: never in the drop-in.
    'window.__PREACT_SIGNALS_DEVTOOLS__': 'undefined',
  },
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
};

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

/** In checkout.js, the chunks come from chunk-scripts.ts (scripts next to it) instead of dynamic imports. */
function chunksAsScripts(): Plugin {
  return {
    name: 'checkout-chunks-as-scripts',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('/widget/') && /(^|\/)chunks\.js$/.test(source))
        return fileURLToPath(new URL('widget/chunk-scripts.ts', import.meta.url));
      return null;
    },
  };
}

/**
 * What a chunk shares with checkout.js: taken from `ServiceCheckout._` (entry.ts), never bundled again. Every name
 * a chunk imports from these modules must be in `_` (the e2e runs load every chunk), Fragment included if a chunk
 * ever uses `<>`.
 */
const SHARED = /^(preact|@preact\/signals)$|\/widget\/(i18n|chunk-scripts)\.(js|ts)$/;

/** One chunk: an IIFE that takes the shared modules from `ServiceCheckout._` and registers its exports. */
const chunk = (name: string) =>
  build({
    ...shared,
    configFile: false,
    build: {
      ...out,
      rolldownOptions: {
        external: (id) => SHARED.test(id),
        output: { codeSplitting: false, comments: false, globals: () => 'ServiceCheckout._' },
      },
      lib: {
        entry: `widget/chunk-entries/${name}.ts`,
        formats: ['iife'],
        name: 'x',
        fileName: () => `chunks/${name}.js`,
      },
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

/**
 * Every file of the build gzipped once, as small as gzip gets (scripts/gzip-best.ts: Zopfli), written next to it (`checkout.js.gz`)
 * for the service to send as it is (static-files.ts); returns the gzipped sizes by path.
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

/**
 * @preact/signals without the two features the drop-in never uses, which its module installs as side effects
 * (so tree-shaking cannot drop them): rendering a signal itself as a text node (`{sig}` in JSX) and binding a
 * signal itself to a DOM property (`<input value={sig}>`). Our components read `.value` everywhere, which the
 * part kept (re-rendering the components whose render read a signal) handles. Exact text replacements: an
 * upgrade of the library that changes this text fails the build here rather than shipping half a patch.
 */
export function signalsWithoutDomBindings(): Plugin {
  const cuts: [RegExp, string][] = [
    // The text node component and the vnode disguise of Signal.prototype it relies on.
    [/function w\(i\)\{var n=this,r=i\.data.*?__b:\{configurable:!0,value:1\}\}\);/s, ''],
    // Props that are signals: collected before diffing...
    [
      /b\("__b",function\(i,n\)\{y\(\);d=void 0;if\("string"==typeof n\.type\).*?\}i\(n\)\}\);/s,
      'b("__b",function(i,n){y();d=void 0;i(n)});',
    ],
    // ...bound after it...
    [
      /b\("diffed",function\(i,n\)\{y\(\);d=void 0;var r;.*?i\.removeAttribute\(n\)\}\}\)\}\}/s,
      'b("diffed",function(i,n){y();d=void 0;i(n)});',
    ],
    // ...and unbound on unmount (components keep their cleanup).
    [
      /b\("unmount",function\(i,n\)\{if\("string"==typeof n\.type\)\{.*?n\.__np=void 0\}else\{/s,
      'b("unmount",function(i,n){if("string"!=typeof n.type){',
    ],
  ];
  return {
    name: 'signals-without-dom-bindings',
    enforce: 'pre',
    transform(code, id) {
      if (!/@preact\/signals\/dist\/signals\.module\.js$/.test(id)) return null;
      let out = code;
      for (const [re, by] of cuts) {
        if (!re.test(out)) throw new Error(`@preact/signals changed: ${re} no longer matches (vite.config.ts)`);
        out = out.replace(re, by);
      }
      return out;
    },
  };
}

/** After checkout.js: its chunks, the ES module build and its declaration file, the hosted page, the size line. */
function otherBuilds(): Plugin {
  return {
    name: 'checkout-chunks-esm-page-types',
    apply: 'build',
    async closeBundle() {
      for (const f of readdirSync('widget/chunk-entries')) await chunk(f.replace(/\.ts$/, ''));
      await oneFile('widget/index.ts', 'es', 'checkout.mjs');
      await oneFile('widget/page-entry.ts', 'iife', 'page.js', 'ServiceCheckoutPage');
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
        `gzipped: checkout.js ${gz['checkout.js']} bytes (budget to the QR with the API answers: 15 KB); chunks: ${chunks.join(', ')}`,
      );
    },
  };
}

export default defineConfig({
  ...shared,
  plugins: [signalsWithoutDomBindings(), locales(), chunksAsScripts(), otherBuilds()],
  build: {
    ...out,
    // No comments: nothing downstream needs annotations.
    rolldownOptions: { output: { comments: false } },
    lib: { entry: 'widget/entry.ts', formats: ['iife'], name: 'ServiceCheckoutBundle', fileName: () => 'checkout.js' },
  },
});
