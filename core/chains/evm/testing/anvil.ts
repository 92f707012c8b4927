import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type WalletClient,
} from 'viem';
import { forwarderFactoryAbi, forwarderFactoryBytecode } from '../../../../contracts/build/forwarders.js';
import { type CompiledContract, compileTestToken } from '../../../../contracts/test/test-tokens.js';
import { testNode } from '../../../testing/test-node.js';

// The standard test token is compiled where the tokens live; re-exported for the EVM tests that deploy it here.
export { type CompiledContract, compileTestToken };

const require = createRequire(import.meta.url);
const _here = dirname(fileURLToPath(import.meta.url));

/** anvil's first default account (mnemonic "test test ... junk"), unlocked on the node: it signs for us. */
export const ANVIL_FUNDED: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** anvil's second and third default accounts: one sender per concurrent stream keeps nonces from colliding. */
export const ANVIL_FUNDED_2: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const ANVIL_FUNDED_3: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
export const ANVIL_CHAIN_ID = 31337;

export function anvilBinary(): string {
  const pkg = require.resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return join(dirname(pkg), 'bin', 'anvil');
}

export interface Anvil {
  url: string;
  port: number;
  process: ChildProcess;
  public: PublicClient;
  wallet: WalletClient;
  test: TestClient<'anvil'>;
  stop(): Promise<void>;
}

/**
 * Starts a real anvil. `blockTimeSeconds` mines on an interval; without it the node mines only when asked
 * (evm_mine), so tests decide exactly when blocks happen.
 */
export async function startAnvil(opts: { blockTimeSeconds?: number; port?: number } = {}): Promise<Anvil> {
  const args = ['--port', String(opts.port ?? 0), '--host', '127.0.0.1'];
  if (opts.blockTimeSeconds) args.push('--block-time', String(opts.blockTimeSeconds));
  else args.push('--no-mining');
  let port = 0;
  const node = testNode({
    command: anvilBinary(),
    args,
    label: 'anvil',
    // Port 0: the port anvil chose is read from its own "Listening on" line.
    ready: async (output) => {
      const m = /Listening on [\d.]+:(\d+)/.exec(output);
      if (!m?.[1]) throw new Error('not listening yet');
      port = Number(m[1]);
    },
    pollMs: 20,
    timeoutMs: 30_000,
  });
  await node.launch();
  const child = node.child as ChildProcess;
  const url = `http://127.0.0.1:${port}`;
  const transport = http(url, { retryCount: 0 });
  return {
    url,
    port,
    process: child,
    public: createPublicClient({ transport, cacheTime: 0 }),
    wallet: createWalletClient({ transport, account: ANVIL_FUNDED }),
    test: createTestClient({ mode: 'anvil', transport }),
    stop: () => node.halt(),
  };
}

/** Deploys a contract from ANVIL_FUNDED, mining the block itself when the node does not automine. */
export async function deploy(
  anvil: Anvil,
  contract: { abi: Abi | readonly unknown[]; bytecode: Hex },
  args: readonly unknown[] = [],
): Promise<Address> {
  const hash = await anvil.wallet.deployContract({
    abi: contract.abi as Abi,
    bytecode: contract.bytecode,
    args,
    account: ANVIL_FUNDED,
    chain: null,
  });
  const receipt = await minedReceipt(anvil, hash);
  if (!receipt.contractAddress) throw new Error('deployment has no contract address');
  return getAddress(receipt.contractAddress);
}

/** Deploys a test token (contracts/test/test-tokens.ts) named `Test ${symbol}`, its supply to ANVIL_FUNDED. */
export function deployTestToken(
  anvil: Anvil,
  token: CompiledContract,
  symbol: string,
  supplyUnits = 10n ** 15n,
): Promise<Address> {
  return deploy(anvil, token, [`Test ${symbol}`, symbol, supplyUnits]);
}

/** Deploys the committed ForwarderFactory (contracts/build), as `admin evm deploy-factory` does on a real chain. */
export function deployForwarderFactory(anvil: Anvil): Promise<Address> {
  return deploy(anvil, { abi: forwarderFactoryAbi, bytecode: forwarderFactoryBytecode });
}

/** Waits for a receipt, mining one block if the transaction is still pending on a --no-mining node. */
export async function minedReceipt(anvil: Anvil, hash: Hex) {
  for (let i = 0; i < 50; i++) {
    const r = await anvil.public.getTransactionReceipt({ hash }).catch(() => null);
    if (r) return r;
    if (i === 0) await anvil.test.mine({ blocks: 1 }).catch(() => undefined);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`transaction ${hash} was not mined`);
}
