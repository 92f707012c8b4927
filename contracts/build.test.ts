import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as committed from './build/forwarders.js';
import { compileForwarders } from './compile.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

/** forge from npm (@foundry-rs/forge-linux-amd64), run in contracts/ so foundry.toml's local solc-js wrapper is used. */
function forgeBinary(): string {
  return join(dirname(require.resolve('@foundry-rs/forge-linux-amd64/package.json')), 'bin', 'forge');
}

async function forge(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(forgeBinary(), args, {
      cwd: here,
      env: { ...process.env, NO_COLOR: '1', FOUNDRY_OFFLINE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`forge ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
  }
}

function forgeArtifact(source: string, name: string): { abi: unknown[]; bytecode: string; deployed: string } {
  const j = JSON.parse(readFileSync(join(here, 'out', source, `${name}.json`), 'utf8')) as {
    abi: unknown[];
    bytecode: { object: string };
    deployedBytecode: { object: string };
  };
  return { abi: j.abi, bytecode: j.bytecode.object, deployed: j.deployedBytecode.object };
}

/** An ABI entry as JSON with its keys sorted (forge orders keys and entries its own way). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
const sorted = (abi: readonly unknown[]) => abi.map(canonical).sort();

describe('contracts', () => {
  it('the committed build (contracts/build/forwarders.ts) is what contracts/src compiles to: `npx tsx contracts/compile.ts` after a change', () => {
    const fresh = compileForwarders();
    expect(fresh.factoryAbi).toEqual(committed.forwarderFactoryAbi);
    expect(fresh.factoryBytecode).toBe(committed.forwarderFactoryBytecode);
    expect(fresh.forwarderAbi).toEqual(committed.forwarderAbi);
    expect(fresh.forwarderRuntime).toBe(committed.forwarderRuntime);
  });

  it('forge test passes offline (local solc-js), and forge compiles the same bytecode as the committed build', async () => {
    const out = await forge('test');
    expect(out).toMatch(/Suite result: ok/);
    expect(out).not.toMatch(/[1-9]\d* failed/);
    const factory = forgeArtifact('ForwarderFactory.sol', 'ForwarderFactory');
    expect(factory.bytecode).toBe(committed.forwarderFactoryBytecode);
    // forge orders ABI entries its own way: the same entries.
    expect(sorted(factory.abi)).toEqual(sorted([...committed.forwarderFactoryAbi]));
    const forwarder = forgeArtifact('Forwarder.sol', 'Forwarder');
    expect(forwarder.deployed).toBe(committed.forwarderRuntime);
  }, 300_000);
});
