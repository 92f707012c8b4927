import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Abi, Hex } from 'viem';
import { SOLC_SETTINGS } from '../compile.js';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/**
 * Compiles contracts/test/NoBoolToken.sol (a USDT-like token: 6 decimals, `transfer` returns nothing) with the pinned
 * solc-js, for anvil tests and the bench: deploy with args [name, symbol, supply]; the supply goes to the deployer.
 */
export function compileNoBoolToken(): { abi: Abi; bytecode: Hex } {
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'NoBoolToken.sol': { content: readFileSync(join(here, 'NoBoolToken.sol'), 'utf8') } },
    settings: { ...SOLC_SETTINGS, outputSelection: { '*': { NoBoolToken: ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = out.contracts?.['NoBoolToken.sol']?.NoBoolToken;
  if (!c) throw new Error('solc produced no NoBoolToken');
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}
