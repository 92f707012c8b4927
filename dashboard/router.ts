import { signal } from '@preact/signals';

/** The current location below the page's origin; every page has its own URL, so the back button works. */
export const location = signal({ path: window.location.pathname, query: new URLSearchParams(window.location.search) });

function read(): void {
  location.value = { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** Goes to `to` (a path with its query) without reloading; `replace` keeps the history entry count. */
export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  read();
  window.scrollTo(0, 0);
}

window.addEventListener('popstate', read);

/** A click on an in-app link navigates in place, unless the user asked for a new tab or window. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? '/dashboard/');
}

/** The path of a merchant's page: `/dashboard/m/{id}/{page}`. */
export const pagePath = (merchantId: string, page: string) => `/dashboard/m/${encodeURIComponent(merchantId)}/${page}`;

export type Route =
  | { name: 'home' }
  | { name: 'set-password' }
  | {
      name:
        | 'overview'
        | 'sell'
        | 'payments'
        | 'balances'
        | 'sweeps'
        | 'webhooks'
        | 'keys'
        | 'settings'
        | 'try'
        | 'users'
        | 'audit'
        | 'mail'
        | 'notifications'
        | 'links'
        | 'pos';
      merchantId: string;
    }
  | { name: 'payment'; merchantId: string; paymentId: string }
  | { name: 'link'; merchantId: string; linkId: string }
  | { name: 'pos-home' }
  | { name: 'not-found' };

const PAGES = new Set([
  'overview',
  'sell',
  'payments',
  'balances',
  'sweeps',
  'webhooks',
  'keys',
  'settings',
  'try',
  'users',
  'audit',
  'mail',
  'notifications',
  'links',
  'pos',
]);

/** What a path shows. */
export function routeOf(path: string): Route {
  if (path === '/dashboard/' || path === '/dashboard') return { name: 'home' };
  if (path === '/dashboard/set-password') return { name: 'set-password' };
  // The installed point of sale starts here (its manifest's start_url) and goes to the first merchant's.
  if (path === '/dashboard/pos') return { name: 'pos-home' };
  const mm = /^\/dashboard\/m\/([\w-]+)\/([a-z]+)(?:\/([\w-]+))?\/?$/.exec(path);
  if (mm?.[1] && mm[2]) {
    const [, merchantId, page, id] = mm;
    if (page === 'payments' && id) return { name: 'payment', merchantId, paymentId: id };
    if (page === 'links' && id) return { name: 'link', merchantId, linkId: id };
    if (!id && PAGES.has(page)) return { name: page as 'payments', merchantId };
  }
  return { name: 'not-found' };
}
