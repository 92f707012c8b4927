import type { CoreDeps } from '../deps.js';
import { invalid, notFound } from '../errors.js';
import type { Merchant } from '../merchants/merchants.js';
import { checkTerms, type LinkStatus, type LinkTerms, linkStatus, newLinkRow, termColumns, termsOf } from './links.js';
import { countHeldPlaces, findMerchantLink, insertLink, type PaymentLink, updateLink } from './store.js';

/** A link and whether it takes payments now. */
export async function withStatus(
  deps: Pick<CoreDeps, 'db' | 'clock'>,
  link: PaymentLink,
): Promise<{ link: PaymentLink; status: LinkStatus }> {
  const held = link.max_payments === null ? 0 : await countHeldPlaces(deps.db, link.id);
  return { link, status: linkStatus(link, deps.clock.now(), held) };
}

/** Creates a merchant's reusable link; an end date already past is the 422 on `ends_at`. */
export async function createLink(deps: CoreDeps, merchant: Merchant, terms: LinkTerms): Promise<PaymentLink> {
  const now = deps.clock.now();
  const t = checkTerms(deps, merchant, terms);
  if (t.endsAt !== null && t.endsAt <= now) throw invalid('ends_at', 'Must be in the future');
  const link = newLinkRow(merchant.id, t, now);
  await insertLink(deps.db, link);
  return link;
}

/** Changes a merchant's link (another merchant's link is a 404); deactivation takes effect on the next visit. */
export async function changeLink(
  deps: CoreDeps,
  merchant: Merchant,
  id: string,
  change: (t: LinkTerms) => LinkTerms,
): Promise<PaymentLink> {
  const link = await findMerchantLink(deps.db, merchant.id, id);
  if (!link) throw notFound('Payment link');
  const t = checkTerms(deps, merchant, change(termsOf(link)));
  await updateLink(deps.db, link.id, termColumns(t), deps.clock.now());
  return (await findMerchantLink(deps.db, merchant.id, id)) as PaymentLink;
}
