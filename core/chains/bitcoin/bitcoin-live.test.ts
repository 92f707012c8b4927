import { bech32 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../server/cli/command.js';
import { xpubCommands } from '../../../server/cli/xpub-commands.js';
import type { TestService } from '../../../server/testing/harness.js';
import { until } from '../../../server/testing/until.js';
import type { Litecoind } from './testing/litecoind.js';
import {
  CONFIRMATIONS,
  create,
  deposits,
  events,
  processed,
  seen,
  status,
  waitStatus,
  withLive,
} from './testing/live-bitcoin.js';

/*
 * Live Bitcoin-family payments end to end, one litecoind and service per test (set-up in testing/live-bitcoin.ts): LTC
 * paid in full, in parts, in one transaction with others and over; BTC and DOGE by paying the Litecoin encoding of
 * their scripts; the gap-limit guard. bitcoin-live-recovery.test.ts has late payments, reorgs, RBF, restarts and the
 * node down.
 */

/** Runs the admin CLI's `xpub show` command for the service's merchant on the service's store; returns its output. */
async function xpubShow(s: TestService, args: string[], gapLimit: number): Promise<string> {
  const cmd = xpubCommands.find((c) => c.name === 'xpub show');
  if (!cmd?.run) throw new Error('no xpub show command');
  const lines: string[] = [];
  const values = parseCommandArgs(cmd, ['--merchant', s.merchant.merchant_id, ...args]);
  await cmd.run(
    {
      db: s.service.deps.db,
      clock: s.service.deps.clock,
      out: (l) => lines.push(l),
      publicUrl: s.url,
      readStdin: async () => '',
      utxoNetOf: (chain) => s.service.config.UTXO_NETWORKS.find((n) => n.network === chain)?.chain ?? null,
      gapLimit,
      evmNetworks: [],
      secrets: s.service.secrets,
    },
    values,
  );
  return lines.join('\n');
}

/** BIP21 parsed from the grammar alone: `scheme:ADDRESS?amount=DECIMAL`. */
function parseBip21(uri: string): { scheme: string; address: string; amount: string | null } {
  const m = /^([a-z]+):([^?]+)(?:\?(.*))?$/.exec(uri);
  if (!m) throw new Error(`not BIP21: ${uri}`);
  const params = new URLSearchParams(m[3] ?? '');
  return { scheme: m[1] as string, address: m[2] as string, amount: params.get('amount') };
}

/** The node's own derivation of receive address 0/index of a descriptor over the account key (independent of ours). */
async function nodeAddress(node: Litecoind, descriptor: string, index: number): Promise<string> {
  const info = await node.rpc.call<{ checksum: string }>('getdescriptorinfo', [descriptor]);
  const [address] = await node.rpc.call<string[]>('deriveaddresses', [
    `${descriptor}#${info.checksum}`,
    [index, index],
  ]);
  return address as string;
}

/** The Litecoin regtest encoding (rltc1q...) of a bech32 address of another chain: the same output script. */
function asLitecoin(address: string): string {
  const decoded = bech32.decode(address as `${string}1${string}`);
  return bech32.encode('rltc', decoded.words);
}

describe('live LTC payments on a real litecoind (regtest)', () => {
  it("paid in full through the BIP21 URI: address is the wallet's 0/N, waiting -> confirming from the mempool -> finished", async () => {
    await withLive(async ({ t, node, wallets }) => {
      const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
      expect(listed.map((c) => c.code)).toEqual(['LTC']);
      const p = await create(t);
      expect(p.address).toMatch(/^rltc1q/);
      expect(new RegExp(listed[0]?.wallet_regex ?? '$^').test(p.address)).toBe(true);
      const account = wallets.ltc.derive("m/84'/1'/0'").publicExtendedKey;
      expect(p.address).toBe(await nodeAddress(node, `wpkh(${account}/0/*)`, p.index));
      expect(p.index).toBe(0);
      const second = await create(t);
      expect(second.index).toBe(1);
      expect(second.address).toBe(await nodeAddress(node, `wpkh(${account}/0/*)`, 1));

      expect(p.amount).toBe('0.3'); // $30 at $100
      const uri = parseBip21(p.uri);
      expect(uri).toEqual({ scheme: 'litecoin', address: p.address, amount: '0.3' });
      expect(p.payload).toBe(`litecoin:${p.address}`);

      // Pay exactly what the URI says, as a wallet scanning the QR would; no block yet.
      const txid = await node.send(uri.address, uri.amount as string);
      let s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.3');
      expect(s.confirmed_at).toBeNull();
      const [dep] = await deposits(t, p.id);
      expect(dep).toMatchObject({
        txid,
        network: 'live:ltc',
        asset: 'LTC',
        amount_units: '30000000',
        block_height: null,
      });

      const [h1] = await node.mine(1);
      const height = await node.rpc.call<number>('getblockcount');
      await processed(t, height);
      expect((await status(t, p.id)).payment_status).toBe('confirming');
      expect((await deposits(t, p.id))[0]).toMatchObject({ block_hash: h1, block_height: height });
      await node.mine(1);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('none');
      expect(s.confirmed_at).not.toBeNull();
      expect(await events(t, p.id)).toEqual(['confirming', 'finished']);
      expect(await deposits(t, p.id)).toHaveLength(1);
      expect((await status(t, second.id)).payment_status).toBe('waiting');
      const balances = await t.api('/api/v1/balances');
      expect(balances.text).toMatch(/"currency":"LTC","amount":0\.3,/);
    });
  });

  it('two outputs to one payment in one transaction add up; one transaction paying two payments pays both', async () => {
    await withLive(async ({ t, node }) => {
      const a = await create(t);
      const b = await create(t);
      const c = await create(t);
      const one = await node.sendOutputs([
        { address: a.address, amount: '0.1' },
        { address: a.address, amount: '0.2' },
      ]);
      const two = await node.sendOutputs([
        { address: b.address, amount: '0.3' },
        { address: c.address, amount: '0.3' },
      ]);
      await waitStatus(t, a.id, 'confirming');
      await node.mine(CONFIRMATIONS);
      const sa = await waitStatus(t, a.id, 'finished');
      expect(sa.paid).toBe('0.3');
      expect(sa.status_detail).toBe('none');
      expect((await deposits(t, a.id)).map((d) => [d.txid, d.log_index, d.amount_units])).toEqual(
        [
          [one.txid, one.indexes[0], '10000000'],
          [one.txid, one.indexes[1], '20000000'],
        ].sort((x, y) => Number(x[1]) - Number(y[1])),
      );
      for (const p of [b, c]) {
        const s = await waitStatus(t, p.id, 'finished');
        expect(s.paid).toBe('0.3');
        const ds = await deposits(t, p.id);
        expect(ds).toHaveLength(1);
        expect(ds[0]?.txid).toBe(two.txid);
      }
    });
  });

  it('partial then top-up: partially_paid (underpaid) once confirmed short, then confirming and finished', async () => {
    await withLive(async ({ t, node }) => {
      const p = await create(t);
      await node.send(p.address, '0.1');
      await node.mine(CONFIRMATIONS);
      let s = await waitStatus(t, p.id, 'partially_paid');
      expect(s.status_detail).toBe('underpaid');
      expect(s.paid).toBe('0.1');
      // One satoshi short is still short: amounts are exact base units.
      await node.send(p.address, '0.19999999');
      s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.29999999');
      await node.mine(CONFIRMATIONS);
      s = await waitStatus(t, p.id, 'partially_paid');
      await until(
        () => status(t, p.id),
        (v) => v.paid === '0.29999999' && v.status_detail === 'underpaid',
      );
      await node.send(p.address, '0.00000001');
      await waitStatus(t, p.id, 'confirming');
      await node.mine(CONFIRMATIONS);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.paid).toBe('0.3');
      expect(s.status_detail).toBe('none');
      const seenStatuses = await events(t, p.id);
      expect(seenStatuses.at(-1)).toBe('finished');
      expect(seenStatuses.filter((x) => x === 'partially_paid')).toHaveLength(2);
    });
  });

  it('overpaid by one satoshi: finished with status_detail overpaid and the exact amount', async () => {
    await withLive(async ({ t, node }) => {
      const p = await create(t);
      await node.send(p.address, '0.30000001');
      await node.mine(CONFIRMATIONS);
      const s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('overpaid');
      expect(s.paid).toBe('0.30000001');
    });
  });
});

describe('BTC and DOGE on the same code path, watched on the same regtest node by script', () => {
  it('a BTC (P2WPKH) and a DOGE (P2PKH) payment are paid through the Litecoin encoding of their scripts', async () => {
    await withLive(
      async ({ t, node, wallets }) => {
        const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
        expect(listed.map((c) => c.code).sort()).toEqual(['BTC', 'DOGE', 'LTC']);

        const btc = await create(t, 'BTC');
        expect(btc.address).toMatch(/^bcrt1q/);
        expect(btc.index).toBe(0);
        expect(btc.amount).toBe('0.0006'); // $30 at $50,000
        expect(parseBip21(btc.uri)).toEqual({ scheme: 'bitcoin', address: btc.address, amount: '0.0006' });
        const btcAccount = wallets.btc.derive("m/84'/1'/0'").publicExtendedKey;
        const paidAt = asLitecoin(btc.address);
        // The node's own derivation of the wallet's 0/0, in its encoding: the same script as our BTC address.
        expect(paidAt).toBe(await nodeAddress(node, `wpkh(${btcAccount}/0/*)`, 0));

        const doge = await create(t, 'DOGE');
        // Dogecoin regtest and Litecoin regtest share the P2PKH version (111): the same text is the same script.
        expect(doge.address).toMatch(/^[mn]/);
        expect(doge.index).toBe(0);
        expect(doge.amount).toBe('3'); // $30 at $10 (the regtest wallet holds tens of coins, not hundreds)
        expect(parseBip21(doge.uri)).toEqual({ scheme: 'dogecoin', address: doge.address, amount: '3' });
        const dogeAccount = wallets.doge.derive("m/44'/1'/0'").publicExtendedKey;
        expect(doge.address).toBe(await nodeAddress(node, `pkh(${dogeAccount}/0/*)`, 0));
        for (const c of listed) {
          const address = c.code === 'BTC' ? btc.address : c.code === 'DOGE' ? doge.address : null;
          if (address) expect(new RegExp(c.wallet_regex).test(address), c.code).toBe(true);
        }

        // Each chain counts its own indexes: a second LTC payment does not move BTC's or DOGE's.
        expect((await create(t, 'LTC')).index).toBe(0);
        expect((await create(t, 'BTC')).index).toBe(1);

        await node.send(paidAt, '0.0006');
        await node.send(doge.address, '3');
        await waitStatus(t, btc.id, 'confirming');
        await waitStatus(t, doge.id, 'confirming');
        await node.mine(CONFIRMATIONS);
        const sb = await waitStatus(t, btc.id, 'finished');
        const sd = await waitStatus(t, doge.id, 'finished');
        expect(sb.paid).toBe('0.0006');
        expect(sd.paid).toBe('3');
        expect((await deposits(t, btc.id))[0]).toMatchObject({
          network: 'live:btc',
          asset: 'BTC',
          amount_units: '60000',
        });
        expect((await deposits(t, doge.id))[0]).toMatchObject({
          network: 'live:doge',
          asset: 'DOGE',
          amount_units: '300000000',
        });
      },
      { chains: ['ltc', 'btc', 'doge'] },
    );
  }, 60_000);
});

describe('gap limit', () => {
  it('past UTXO_GAP_LIMIT unpaid addresses: a warning, then new addresses only at the slow rate (429, nothing written); a paid one resets the run', async () => {
    await withLive(
      async ({ t, node, logs }) => {
        const made = [];
        for (let i = 0; i < 3; i++) made.push(await create(t));
        expect(logs.some((l) => /gap limit/.test(l.msg))).toBe(false);
        // Index 3 follows three unused addresses: a wallet with a gap limit of 3 stops before it.
        const past = await create(t);
        expect(past.index).toBe(3);
        const warning = logs.find((l) => /gap limit/.test(l.msg));
        expect(warning).toMatchObject({
          level: 'warn',
          fields: { merchant_id: t.merchant.merchant_id, network: 'ltc', index: 3, gap_limit: 3 },
        });
        const before = await t.service.deps.db.selectFrom('payments').select('id').execute();
        const refused = await t.api('/api/v1/payments', {
          body: { amount: 30, currency: 'LTC', email: 'a@example.com' },
        });
        expect(refused.status, refused.text).toBe(429);
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await t.service.deps.db.selectFrom('payments').select('id').execute()).toHaveLength(before.length);

        // The operator's view of it: `xpub show --chain ltc` (the CLI's own command, on this store).
        const shown = await xpubShow(t, ['--chain', 'ltc'], 3);
        expect(shown).toContain('4 address(es) handed out since the last paid one (none paid yet); gap limit 3.');
        expect(shown).toContain('WARNING: past the gap limit');

        // A customer pays the newest one: the wallet finds it, and the addresses after it are in reach again.
        const txid = await node.send(past.address, '0.3');
        await seen(t, past.id, txid);
        const next = await create(t);
        expect(next.index).toBe(4); // the refused payment's index was rolled back with it, never handed out
        const after = JSON.parse(await xpubShow(t, ['--chain', 'ltc', '--json'], 3));
        expect(after).toMatchObject({ last_paid_index: 3, unused_run: 1, gap_limit: 3, next_address_index: 5 });
        expect(await xpubShow(t, ['--chain', 'ltc'], 3)).not.toContain('WARNING');
      },
      { env: { UTXO_GAP_LIMIT: '3', UTXO_PAST_GAP_PER_MINUTE: '1' } },
    );
  });
});
