import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';

/* The forwarder settings of CHAINS_CONFIG: each mistake stops start-up with one line naming its place. */

const factory = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

function file(content: string): string {
  const path = join(tmpdir(), `fwd-${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, content);
  return path;
}

function load(eth: Record<string, unknown>) {
  const chains = file(
    JSON.stringify({ networks: { eth: { rpcUrl: 'https://eth.example/rpc', chainId: 1, confirmations: 12, ...eth } } }),
  );
  return loadConfig({ CHAINS_CONFIG: chains });
}

function failure(eth: Record<string, unknown>): string {
  try {
    load(eth);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('loaded');
}

describe('CHAINS_CONFIG forwarders', () => {
  it('reads the factory, the relayer key file and the sweep limits, with defaults', () => {
    const key = generatePrivateKey();
    const c = load({
      forwarderFactory: factory.toLowerCase(),
      relayerKeyFile: file(`${key}\n`),
      sweepMaxGasPriceGwei: '30.5',
      relayerLowBalance: '0.05',
    });
    expect(c.EVM_NETWORKS[0]?.forwarders).toEqual({
      factory,
      relayerKey: key,
      batchSize: 50,
      maxWaitMs: 3_600_000,
      maxGasPriceWei: 30_500_000_000n,
      intervalMs: 15_000,
      lowBalanceWei: 50_000_000_000_000_000n,
    });
    expect(load({}).EVM_NETWORKS[0]?.forwarders).toBeNull();
    expect(load({ forwarderFactory: factory }).EVM_NETWORKS[0]?.forwarders?.relayerKey).toBeNull();
  });

  it('refuses an unreadable or malformed relayer key file without showing its contents', () => {
    expect(failure({ forwarderFactory: factory, relayerKeyFile: '/nonexistent/relayer.key' })).toBe(
      'Invalid configuration: CHAINS_CONFIG: networks.eth.relayerKeyFile: cannot read /nonexistent/relayer.key: ENOENT',
    );
    const secretish = 'a'.repeat(63);
    const message = failure({ forwarderFactory: factory, relayerKeyFile: file(secretish) });
    expect(message).toContain('does not hold a 32-byte hex private key');
    expect(message).not.toContain(secretish);
    expect(failure({ relayerKeyFile: file(generatePrivateKey()) })).toContain(
      'networks.eth.relayerKeyFile: needs forwarderFactory',
    );
  });

  it('refuses a factory that is not an address, bad limits, and chains whose CREATE2 rule differs (zkSync-style)', () => {
    expect(failure({ forwarderFactory: '0x1234' })).toContain('networks.eth.forwarderFactory');
    expect(failure({ forwarderFactory: factory, sweepBatchSize: 0 })).toContain('sweepBatchSize');
    expect(failure({ forwarderFactory: factory, sweepMaxGasPriceGwei: '-1' })).toContain('sweepMaxGasPriceGwei');
    expect(
      failure({
        forwarderFactory: factory,
        chainId: 324,
        tokens: { USDTERC20: factory, USDCERC20: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
      }),
    ).toContain('chain 324 (zkSync Era) computes CREATE2 addresses differently');
  });
});
