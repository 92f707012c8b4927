import { describe, expect, it } from 'vitest';
import { parseViewKey, subaddressAt } from './monero.js';
import {
  CONFIRMATIONS,
  confirm,
  create,
  deposits,
  events,
  node,
  processed,
  setUpMonerod,
  status,
  waitStatus,
  withLive,
} from './testing/live-monero.js';
import { randomWalletKeys } from './testing/wallet-keys.js';

/*
 * Live Monero keys and payments on a regtest monerod (set-up in testing/live-monero.ts). monero-live-recovery.test.ts
 * has late payments, restarts, the node down, popped blocks, a double spend and the subaddress lookahead.
 */

setUpMonerod();

describe('Monero keys against monero-wallet-rpc', () => {
  it("the view key is checked against the address (spend key, seed and another's key refused); our subaddresses are the wallet's", async () => {
    const k = randomWalletKeys();
    const other = randomWalletKeys();
    const parsed = parseViewKey(k.address, k.viewKey);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const fields = (r: ReturnType<typeof parseViewKey>) => (r.ok ? null : JSON.stringify(r.error.errors));
    expect(fields(parseViewKey(k.address, k.spendKey))).toMatch(/SPEND key/);
    expect(fields(parseViewKey(k.address, other.viewKey))).toMatch(/does not belong to this address/);
    expect(fields(parseViewKey(k.address, Array(25).fill('abbey').join(' ')))).toMatch(/mnemonic seed/);
    expect(fields(parseViewKey(k.address, 'ff'.repeat(32)))).toMatch(/not a reduced scalar/);
    // A character changed: the checksum fails.
    const typo = `${k.address.slice(0, 10)}${k.address[10] === 'A' ? 'B' : 'A'}${k.address.slice(11)}`;
    expect(fields(parseViewKey(typo, k.viewKey))).toMatch(/Not a Monero address/);

    // wallet-rpc 0.18 itself accepts the spend key as a "view key" (the reason for the check above); with the right
    // view key it makes the view-only wallet whose subaddresses must be exactly ours.
    const wallet = await node.viewOnlyWallet(k.address, k.viewKey);
    try {
      const created = await wallet.call<{ addresses: string[]; address_indices: number[] }>('create_address', {
        account_index: 0,
        count: 5,
      });
      expect(created.address_indices).toEqual([1, 2, 3, 4, 5]);
      expect(created.addresses).toEqual([1, 2, 3, 4, 5].map((i) => subaddressAt(parsed.value, i)));
      expect(wallet.address).toBe(k.address);
    } finally {
      await wallet.stop();
    }
  }, 60_000);
});

describe('live Monero payments on a regtest monerod', () => {
  it('paid exactly through the monero: URI: subaddress per payment, mempool -> confirming -> finished; the view-only wallet agrees', async () => {
    await withLive(async ({ t, keys }) => {
      const listed = (await t.api('/api/v1/currencies')).json.data as { code: string; wallet_regex: string }[];
      expect(listed.map((c) => c.code)).toEqual(['XMR']);
      const parsed = parseViewKey(keys.address, keys.viewKey);
      if (!parsed.ok) throw parsed.error;
      const p = await create(t);
      const second = await create(t);
      expect([p.index, second.index]).toEqual([1, 2]);
      expect(p.address).toBe(subaddressAt(parsed.value, 1));
      expect(second.address).toBe(subaddressAt(parsed.value, 2));
      expect(p.address).toMatch(/^8/);
      expect(new RegExp(listed[0]?.wallet_regex ?? '$^').test(p.address)).toBe(true);
      expect(p.amount).toBe('0.2');
      expect(p.uri).toBe(`monero:${p.address}?tx_amount=0.2`);

      // An amount down to the last piconero: $30.01 at $150 is 0.200066666667 (rounded up at 12 decimals).
      const exact = await create(t, 30.01);
      expect(exact.amount).toBe('0.200066666667');
      expect(exact.uri).toBe(`monero:${exact.address}?tx_amount=0.200066666667`);

      const txid = await node.pay([
        { address: p.address, amount: p.units },
        { address: exact.address, amount: exact.units },
      ]);
      let s = await waitStatus(t, p.id, 'confirming');
      expect(s.paid).toBe('0.2');
      expect(s.confirmed_at).toBeNull();
      expect(await deposits(t, p.id)).toMatchObject([
        { txid, network: 'live:xmr', asset: 'XMR', amount_units: '200000000000', block_height: null },
      ]);
      const height = await node.mineUntilIn(txid);
      await processed(t, height);
      expect((await status(t, p.id)).payment_status).toBe('confirming');
      expect((await deposits(t, p.id))[0]).toMatchObject({ block_height: height });
      await node.mine(CONFIRMATIONS - 1);
      s = await waitStatus(t, p.id, 'finished');
      expect(s.status_detail).toBe('none');
      expect(s.confirmed_at).not.toBeNull();
      expect(await events(t, p.id)).toEqual(['confirming', 'finished']);
      const se = await waitStatus(t, exact.id, 'finished');
      expect(se.paid).toBe('0.200066666667');
      expect(se.status_detail).toBe('none');
      expect((await status(t, second.id)).payment_status).toBe('waiting');

      // The merchant's own view-only wallet, made from the same address and view key, sees the same outputs.
      const wallet = await node.viewOnlyWallet(keys.address, keys.viewKey);
      try {
        await wallet.call('create_address', { account_index: 0, count: 3 });
        await wallet.call('rescan_blockchain');
        const seen = await wallet.call<{ in?: { txid: string; amount: number; subaddr_index: { minor: number } }[] }>(
          'get_transfers',
          { in: true, pool: true },
        );
        const mine = (seen.in ?? []).filter((x) => x.txid === txid).map((x) => [x.subaddr_index.minor, x.amount]);
        expect(mine.sort()).toEqual([
          [1, 200000000000],
          [3, 200066666667],
        ]);
      } finally {
        await wallet.stop();
      }
    });
  }, 120_000);

  it('one transaction paying three payments counts for each: exact, partial (then topped up) and over', async () => {
    await withLive(async ({ t }) => {
      const exact = await create(t);
      const partial = await create(t);
      const over = await create(t);
      const txid = await node.pay([
        { address: exact.address, amount: exact.units },
        { address: partial.address, amount: partial.units / 2n },
        { address: over.address, amount: over.units + 1n },
      ]);
      await confirm(t, txid);
      expect((await waitStatus(t, exact.id, 'finished')).paid).toBe('0.2');
      const o = await waitStatus(t, over.id, 'finished');
      expect(o.status_detail).toBe('overpaid');
      expect(o.paid).toBe('0.200000000001');
      const u = await waitStatus(t, partial.id, 'partially_paid');
      expect(u.paid).toBe('0.1');

      // A second transfer to the same subaddress adds up.
      const topUp = await node.pay([{ address: partial.address, amount: partial.units / 2n }]);
      await waitStatus(t, partial.id, 'confirming');
      await confirm(t, topUp);
      const f = await waitStatus(t, partial.id, 'finished');
      expect(f.paid).toBe('0.2');
      // Two deposits, one per transaction (first_seen_at is the block's whole-second time, so their order may tie).
      expect((await deposits(t, partial.id)).map((d) => d.txid).sort()).toEqual([txid, topUp].sort());
      for (const p of [exact, partial, over])
        expect((await deposits(t, p.id)).every((d) => d.removed === 0 && d.amount_units !== '0')).toBe(true);
    });
  }, 120_000);
});
