#!/usr/bin/env node
// A native-solc-shaped front for the pinned npm solc (solc-js), so forge compiles offline with the same compiler as
// contracts/compile.ts: `solc = "solc-js.mjs"` in contracts/foundry.toml. forge asks `--version`, then runs
// `--standard-json` with the input on stdin (sources with their content) and reads the output JSON on stdout.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const solc = require('solc');

const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-v')) {
  // Native solc prints "<version>.<platform>"; forge reads the semver part.
  const version = solc.version().replace(/\.Emscripten\.clang$/, '');
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${version}.Linux.g++\n`);
  process.exit(0);
}

if (!args.includes('--standard-json')) {
  process.stderr.write('solc-js.mjs: only --version and --standard-json are supported\n');
  process.exit(1);
}

/** The directories a missing import is looked up in: --base-path, --include-path, --allow-paths, the cwd. */
function roots() {
  const dirs = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.includes('=') ? a.split(/=(.*)/s) : [a, undefined];
    if (flag === '--base-path' || flag === '--include-path' || flag === '--allow-paths') {
      const value = inline ?? args[++i];
      if (value) dirs.push(...value.split(',').filter(Boolean));
    }
  }
  dirs.push(process.cwd());
  return dirs;
}

function findImports(path) {
  const candidates = isAbsolute(path) ? [path] : roots().map((d) => resolve(d, path));
  for (const file of candidates) if (existsSync(file)) return { contents: readFileSync(file, 'utf8') };
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') };
  } catch {
    return { error: `File not found: ${path}` };
  }
}

const input = readFileSync(0, 'utf8');
process.stdout.write(solc.compile(input, { import: findImports }));
