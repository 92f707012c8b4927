import type { Signal } from '@preact/signals';
import type { BrowserWallet } from '../wallet.js';

/**
 * Which browser wallet sends (a refund, a sweep): a select when more than one announced itself, nothing otherwise.
 * `chosen` holds the picked wallet's id; `wallet` is the one in use (the first when none was picked).
 */
export function WalletChoice({
  wallets,
  wallet,
  chosen,
}: {
  wallets: BrowserWallet[];
  wallet: BrowserWallet | undefined;
  chosen: Signal<string>;
}) {
  if (wallets.length <= 1) return null;
  return (
    <label>
      Wallet
      <select value={wallet?.id} onChange={(e) => (chosen.value = (e.currentTarget as HTMLSelectElement).value)}>
        {wallets.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
}
