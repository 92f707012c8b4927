import { createPublicClient, createWalletClient, formatUnits, getContractAddress, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { forwarderFactoryAbi, forwarderFactoryBytecode } from '../../contracts/build/forwarders.js';
import { shippedAssets } from '../../core/catalog/assets.js';
import type { ChainsConfig } from '../../core/chains/chains-config.js';
import { forwarders } from '../../core/chains/families.js';
import { getMerchant } from '../../core/merchants/merchants.js';
import { type CliContext, type Command, UsageError } from './command.js';
import { print } from './output.js';

type EvmNetworkConfig = ChainsConfig['evm'][number];

function networkOf(ctx: CliContext, v: unknown): EvmNetworkConfig {
  const key = String(v ?? '');
  const n = ctx.evmNetworks.find((x) => x.network === key);
  if (!n)
    throw new UsageError(
      `--network: ${key || '(none)'} is not an EVM network of CHAINS_CONFIG (${ctx.evmNetworks.map((x) => x.network).join(', ') || 'none configured'})`,
    );
  return n;
}

/** The RPC URL may carry an API key: it never reaches the terminal. */
function safe(e: unknown, n: EvmNetworkConfig): string {
  const m = e instanceof Error ? ((e as { shortMessage?: string }).shortMessage ?? e.message) : String(e);
  return m.split(n.rpcUrl).join('<rpc url>');
}

export const evmCommands: Command[] = [
  {
    name: 'evm deploy-factory',
    summary:
      "Deploys the ForwarderFactory on a configured EVM network from a deployer key read from standard input (never stored, never logged), after checking the node's chain id, and prints the address for CHAINS_CONFIG's forwarderFactory. From a fresh key (nonce 0) the address is the same on every chain.",
    options: {
      network: { type: 'string', description: 'network key in CHAINS_CONFIG (eth, bsc, matic, base)', required: true },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const n = networkOf(ctx, v.network);
      const text = (await ctx.readStdin()).trim();
      const key = (text.startsWith('0x') ? text : `0x${text}`) as Hex;
      if (!/^0x[0-9a-fA-F]{64}$/.test(key))
        throw new UsageError('standard input: a 32-byte hex private key of the deployer (it pays the gas)');
      const account = privateKeyToAccount(key);
      const transport = http(n.rpcUrl, { timeout: n.timeoutMs, retryCount: 0 });
      const client = createPublicClient({ transport, cacheTime: 0 });
      try {
        const chainId = await client.getChainId();
        if (chainId !== n.chainId)
          throw new Error(`the node of ${n.network} serves chain id ${chainId}, CHAINS_CONFIG says ${n.chainId}`);
        const nonce = await client.getTransactionCount({ address: account.address });
        const expected = getContractAddress({ from: account.address, nonce: BigInt(nonce) });
        const wallet = createWalletClient({ account, transport });
        const hash = await wallet.deployContract({
          abi: forwarderFactoryAbi,
          bytecode: forwarderFactoryBytecode,
          chain: null,
        });
        const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 250, timeout: 300_000 });
        if (receipt.status !== 'success' || !receipt.contractAddress)
          throw new Error(`the deployment ${hash} reverted`);
        const address = receipt.contractAddress;
        const note =
          nonce === 0
            ? 'Deployed from nonce 0: the same key deploys it at this same address on every chain.'
            : `The deployer had sent ${nonce} transaction(s) before: the address is not the one a fresh key would give on other chains (${expected}).`;
        print(
          v.json === true,
          ctx.out,
          {
            network: n.network,
            chain_id: chainId,
            factory: address,
            tx: hash,
            deployer_nonce: nonce,
          },
          [
            `ForwarderFactory deployed on ${n.network} (chain ${chainId}) at ${address} in ${hash}.`,
            `Add to CHAINS_CONFIG: "networks": { "${n.network}": { ..., "forwarderFactory": "${address}" } }`,
            note,
          ].join('\n'),
        );
      } catch (e) {
        throw new Error(safe(e, n));
      }
    },
  },
  {
    name: 'evm sweep',
    summary:
      "Prints the one transaction that flushes every unswept forwarder of a merchant on a network (to the factory, no value), for any wallet to send: funds can only go to each forwarder's payout. The CLI holds no key.",
    options: {
      merchant: { type: 'string', description: 'merchant_id', required: true },
      network: { type: 'string', description: 'network key in CHAINS_CONFIG', required: true },
      calldata: {
        type: 'boolean',
        description: 'Print the transaction (to, data, chain id) to send from any wallet',
        required: true,
      },
      json: { type: 'boolean', description: 'Print one JSON object' },
    },
    async run(ctx, v) {
      const n = networkOf(ctx, v.network);
      if (!n.forwarders) throw new UsageError(`--network: ${n.network} has no forwarderFactory in CHAINS_CONFIG`);
      const merchantId = String(v.merchant);
      if (!(await getMerchant(ctx.db, merchantId))) throw new UsageError(`--merchant: no merchant ${merchantId}`);
      const sweep = await forwarders.walletSweep(ctx.db, n, merchantId, ctx.clock.now());
      if (!sweep) {
        print(v.json === true, ctx.out, { network: n.network, forwarders: 0 }, 'Nothing to sweep.');
        return;
      }
      const amounts: Record<string, string> = {};
      for (const u of sweep.forwarders)
        for (const [asset, units] of u.units)
          amounts[asset] = ((BigInt(amounts[asset] ?? '0') + units) as bigint).toString();
      const decimalsOf = (code: string) => shippedAssets.find((a) => a.code === code)?.decimals ?? 0;
      const tx = { chain_id: sweep.chainId, to: sweep.to, value: '0', data: sweep.data };
      print(
        v.json === true,
        ctx.out,
        { network: n.network, ...tx, forwarders: sweep.forwarders.length, units: amounts },
        [
          `${sweep.forwarders.length} forwarder(s) of ${merchantId} on ${n.network}: ${Object.entries(amounts)
            .map(([a, u]) => `${formatUnits(BigInt(u), decimalsOf(a))} ${a}`)
            .join(', ')}`,
          `Send from any wallet on chain ${sweep.chainId}:`,
          `  to:    ${sweep.to}`,
          '  value: 0',
          `  data:  ${sweep.data}`,
        ].join('\n'),
      );
    },
  },
];
