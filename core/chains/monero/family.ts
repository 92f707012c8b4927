import { GapGuard } from '../../addresses/gap.js';
import type { ChainFamilyDescriptor, ViewKeySettings } from '../family.js';
import { chainKey } from '../types.js';
import { checkMoneroAddress } from './address-check.js';
import { createMoneroAllocator } from './allocator.js';
import { readMoneroNetwork } from './config.js';
import { sandboxSubaddress } from './monero.js';
import { MoneroChain } from './monero-chain.js';
import { allMoneroKeys, MONERO_SUBADDRESS_LOOKAHEAD, moneroViewKeys } from './monero-keys.js';
import { proveMoneroRefund } from './refund-proof.js';

/** Monero (xmr): the merchant's monerod scanned with every merchant's view key; a subaddress per payment. */
export const moneroFamily: ChainFamilyDescriptor &
  Required<Pick<ChainFamilyDescriptor, 'proveRefund'>> & { viewKeys: ViewKeySettings } = {
  name: 'monero',
  assetFamilies: ['monero'],
  readConfig: (entries) => ({ monero: readMoneroNetwork(entries) }),
  isLive: (networks) => networks.monero !== null,
  checkAddress: checkMoneroAddress,
  sandboxAddress: (_asset, seed) => sandboxSubaddress(seed),
  viewKeys: moneroViewKeys,
  proveRefund: proveMoneroRefund,
  build({ db, clock, logger, chains, networks, gap }) {
    const n = networks.monero;
    const sources = n
      ? [
          new MoneroChain(n, {
            keys: () => allMoneroKeys(db),
            checkpointHeight: () => chains.headOf(chainKey('live', n.network)),
          }),
        ]
      : [];
    // A Monero wallet restored from keys looks 200 subaddresses ahead: the same warning and slow-down past that run.
    const lookahead = new GapGuard({
      limit: MONERO_SUBADDRESS_LOOKAHEAD,
      pastLimitPerMinute: gap.pastLimitPerMinute,
      logger,
      now: () => clock.now(),
    });
    return { sources, liveAllocator: createMoneroAllocator({ gap: lookahead }) };
  },
};
