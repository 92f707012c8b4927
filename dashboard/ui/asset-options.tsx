import type { AssetOption } from '../types.js';
import { Notice } from './notice.js';

/** The `<option>`s of a currency picker; a sandbox-only asset says so, since it can never be paid live. */
export function AssetOptions({ assets }: { assets: readonly AssetOption[] }) {
  return (
    <>
      {assets.map((a) => (
        <option key={a.code} value={a.code}>
          {a.code} ({a.name}){a.test_only ? ' · test only' : ''}
        </option>
      ))}
    </>
  );
}

/** Shown instead of a silent empty picker: a live merchant with no network configured can be offered nothing. */
export function NoAssetsNotice({ assets }: { assets: readonly AssetOption[] | null | undefined }) {
  return assets && assets.length === 0 ? (
    <Notice kind="info">
      No currency can be paid yet: the operator has configured no live network (CHAINS_CONFIG) for this merchant's mode.
    </Notice>
  ) : null;
}
