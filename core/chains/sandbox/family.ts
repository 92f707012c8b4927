import type { ChainFamilyDescriptor, SimulatedChain } from '../family.js';
import { sandboxAllocator } from './allocator.js';
import { SandboxChain, sandboxMine, sandboxSend, startSandboxBlocks } from './sandbox-chain.js';

/**
 * The sandbox: test mode's simulated chain of every catalog network, with random addresses shaped like the real ones
 * and, when SANDBOX_BLOCK_INTERVAL_MS is set, a block timer. It has no live payments.
 */
export const sandboxFamily: ChainFamilyDescriptor & { simulated: SimulatedChain } = {
  name: 'sandbox',
  assetFamilies: [],
  isLive: () => false,
  simulated: { send: sandboxSend, mine: sandboxMine },
  build(ctx) {
    return {
      sources: ctx.catalogNetworks.map((n) => new SandboxChain(ctx.db, n)),
      testAllocator: sandboxAllocator,
      start: () =>
        ctx.blockIntervalMs > 0 ? startSandboxBlocks(ctx, ctx.catalogNetworks, ctx.blockIntervalMs) : undefined,
    };
  },
};
