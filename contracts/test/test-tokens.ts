import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';
import { solcCompile } from '../compile.js';

const here = dirname(fileURLToPath(import.meta.url));

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

/**
 * Compiles one token of contracts/test/TestTokens.sol with the pinned solc-js (no network, no native compiler):
 * `TestToken` (transfers return true) or `NoBoolToken` (USDT-like: they return nothing). Deploy with
 * [name, symbol, supply]; the supply goes to the deployer.
 */
export function compileToken(name: 'TestToken' | 'NoBoolToken'): CompiledContract {
  const file = 'TestTokens.sol';
  const out = solcCompile({ [file]: { content: readFileSync(join(here, file), 'utf8') } });
  const c = out[file]?.[name];
  if (!c) throw new Error(`solc produced no ${name}`);
  return { abi: c.abi as Abi, bytecode: `0x${c.evm.bytecode.object}` };
}

/** The standard 6-decimal test token (USDT/USDC stand-in whose transfers return true). */
export const compileTestToken = (): CompiledContract => compileToken('TestToken');

/** The USDT-like test token whose transfers return nothing. */
export const compileNoBoolToken = (): CompiledContract => compileToken('NoBoolToken');
