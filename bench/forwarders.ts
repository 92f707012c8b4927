import { type Address, encodeFunctionData, getAddress, type Hex, keccak256, parseEther, toHex } from 'viem';
import { forwarderFactoryAbi } from '../contracts/build/forwarders.js';
import { compileNoBoolToken } from '../contracts/test/test-tokens.js';
import {
  ANVIL_FUNDED,
  ANVIL_FUNDED_2,
  type Anvil,
  deploy,
  deployForwarderFactory,
  minedReceipt,
  startAnvil,
} from '../core/chains/evm/testing/anvil.js';
import { runIfMain } from './standalone.js';

/** The price the costs are stated at (README): 20 gwei, ETH at 3,000 USD. Costs scale linearly with both. */
export const GAS_PRICE_GWEI = 20;
export const ETH_USD = 3000;

export interface GasRow {
  /** Payments swept by the measured transactions. */
  payments: number;
  transactions: number;
  gasTotal: number;
  gasPerPayment: number;
  /** At GAS_PRICE_GWEI. */
  ethPerPayment: number;
  usdPerPayment: number;
}

export interface ForwardersBench {
  gasPriceGwei: number;
  ethUsd: number;
  token: string;
  /** flushMany over forwarders not yet deployed, each holding the no-bool token: deploy + flush. */
  batches: Record<string, GasRow>;
  /** flushMany over the batch-of-10 forwarders again, after a later deposit (already deployed: flush only). */
  laterFlush10: GasRow;
  /** The classic sweep of an xpub-derived address: a 21,000-gas ETH top-up, then the token transfer from it. */
  xpubSweep: GasRow;
}

const erc20Abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'who', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

function row(payments: number, transactions: number, gasTotal: bigint): GasRow {
  const gasPerPayment = Math.round(Number(gasTotal) / payments);
  const ethPerPayment = (gasPerPayment * GAS_PRICE_GWEI) / 1e9;
  return {
    payments,
    transactions,
    gasTotal: Number(gasTotal),
    gasPerPayment,
    ethPerPayment: Number(ethPerPayment.toPrecision(4)),
    usdPerPayment: Number((ethPerPayment * ETH_USD).toFixed(4)),
  };
}

async function send(anvil: Anvil, from: Address, to: Address, data?: Hex, value?: bigint) {
  const hash = await anvil.wallet.sendTransaction({
    account: from,
    to,
    chain: null,
    ...(data ? { data } : {}),
    ...(value ? { value } : {}),
  });
  const receipt = await minedReceipt(anvil, hash);
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

/**
 * Issue 18's sweep cost on a real anvil, with the USDT-like token (no bool return): gas per payment when the
 * relayer sweeps forwarders (not yet deployed, so flushMany deploys and flushes each) in batches of 1, 10 and 50,
 * beside the classic sweep of an xpub address (a 21,000-gas ETH top-up from a funded account, then the address's
 * token transfer: two transactions, and the top-up's leftover ETH stays stranded there). The payout already holds
 * some of the token in every case (a merchant's steady state), so no case pays for a fresh balance slot.
 */
export async function benchForwarders(): Promise<ForwardersBench> {
  const anvil = await startAnvil();
  try {
    await anvil.test.setAutomine(true);
    const token = compileNoBoolToken();
    const tokenAddress = await deploy(anvil, token, ['Tether USD', 'USDT', 10n ** 18n]);
    const factory = await deployForwarderFactory(anvil);
    const payout = getAddress(`0x${'be'.repeat(20)}`);
    const transfer = (to: Address, value: bigint) =>
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] });
    const balanceOf = (who: Address) =>
      anvil.public.readContract({ address: tokenAddress, abi: erc20Abi, functionName: 'balanceOf', args: [who] });
    await send(anvil, ANVIL_FUNDED, tokenAddress, transfer(payout, 1n));

    const amount = 12_345_678n; // 12.345678 USDT
    const salt = (label: string) => keccak256(toHex(label));
    const forwarderOf = (s: Hex) =>
      anvil.public.readContract({
        address: factory,
        abi: forwarderFactoryAbi,
        functionName: 'forwarderAddress',
        args: [payout, s],
      });
    const flushMany = async (salts: Hex[]) => {
      const data = encodeFunctionData({
        abi: forwarderFactoryAbi,
        functionName: 'flushMany',
        args: [salts.map((s) => ({ payout, salt: s, tokens: [tokenAddress] }))],
      });
      // The relayer: a gas-only account, another than the one holding the tokens.
      return send(anvil, ANVIL_FUNDED_2, factory, data);
    };

    const batches: Record<string, GasRow> = {};
    let tenSalts: Hex[] = [];
    for (const size of [1, 10, 50]) {
      const salts = Array.from({ length: size }, (_, i) => salt(`bench_${size}_${i}`));
      for (const s of salts) await send(anvil, ANVIL_FUNDED, tokenAddress, transfer(await forwarderOf(s), amount));
      const before = await balanceOf(payout);
      const receipt = await flushMany(salts);
      if ((await balanceOf(payout)) - before !== amount * BigInt(size)) throw new Error(`batch of ${size}: not swept`);
      batches[String(size)] = row(size, 1, receipt.gasUsed);
      if (size === 10) tenSalts = salts;
    }
    for (const s of tenSalts) await send(anvil, ANVIL_FUNDED, tokenAddress, transfer(await forwarderOf(s), amount));
    const later = await flushMany(tenSalts);
    const laterFlush10 = row(10, 1, later.gasUsed);

    // The classic sweep, ten times: fresh xpub-like addresses (impersonated: anvil signs for them), each holding
    // the token, topped up with ETH for the transfer's gas, then sending the whole token balance to the payout.
    const runs = 10;
    let classicGas = 0n;
    for (let i = 0; i < runs; i++) {
      const address = getAddress(keccak256(toHex(`xpub_${i}`)).slice(0, 42));
      await send(anvil, ANVIL_FUNDED, tokenAddress, transfer(address, amount));
      const topUp = await send(anvil, ANVIL_FUNDED, address, undefined, parseEther('0.005'));
      await anvil.test.impersonateAccount({ address });
      const sweep = await send(anvil, address, tokenAddress, transfer(payout, amount));
      await anvil.test.stopImpersonatingAccount({ address });
      if ((await balanceOf(address)) !== 0n) throw new Error('xpub sweep left tokens');
      classicGas += topUp.gasUsed + sweep.gasUsed;
    }
    const xpubSweep = row(runs, 2 * runs, classicGas);
    return {
      gasPriceGwei: GAS_PRICE_GWEI,
      ethUsd: ETH_USD,
      token: 'NoBoolToken (USDT-like: 6 decimals, transfer returns nothing)',
      batches,
      laterFlush10,
      xpubSweep,
    };
  } finally {
    await anvil.stop();
  }
}

runIfMain(import.meta.url, benchForwarders);
