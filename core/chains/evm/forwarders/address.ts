import { type Address, concat, getAddress, getContractAddress, type Hex, keccak256, stringToHex } from 'viem';

/**
 * Where a payment's forwarder lives, computed here exactly as ForwarderFactory computes it on chain
 * (OpenZeppelin Clones with immutable args), so the service hands out the address without asking a node and can
 * recompute every address from its store.
 */

/** The salt of a payment's forwarder: keccak256 of its id, so the id alone names the address (with the payout). */
export function forwarderSalt(paymentId: string): Hex {
  return keccak256(stringToHex(paymentId));
}

/**
 * The factory's implementation: its first creation (a contract's nonce starts at 1, EIP-161). A factory deployed at
 * the same address on two chains therefore has the same implementation on both, and the same forwarders.
 */
export function implementationOf(factory: Address): Address {
  return getContractAddress({ from: factory, nonce: 1n });
}

/** EIP-1167 clone init code with the payout appended as immutable args (Clones._cloneCodeWithImmutableArgs). */
export function cloneInitCode(implementation: Address, payout: Address): Hex {
  // 0x61 PUSH2 (runtime length: 45 bytes of proxy + 20 of args), then the creation prefix and the proxy around the
  // implementation's address.
  return concat([
    '0x610041',
    '0x3d81600a3d39f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
    payout,
  ]);
}

/**
 * @example forwarderAddress('0x5FbDB2315678afecb367f032d93F642f64180aa3', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', forwarderSalt('pay_1'))
 */
export function forwarderAddress(factory: Address, payout: Address, salt: Hex): Address {
  const bytecode = cloneInitCode(implementationOf(factory), payout);
  return getAddress(getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode }));
}
