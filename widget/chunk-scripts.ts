import type * as Screens from './components/screens.js';
import type * as Live from './live.js';
import type * as OptionMessages from './option-messages.js';
import type * as Simulate from './simulate.js';

/**
 * chunks.ts for the script tag build: each chunk is a small script in `chunks/` next to checkout.js that takes
 * Preact, the signals and our messages from checkout.js (`ServiceCheckout._`, see entry.ts) and hands its
 * exports to `registerChunk`. A classic script cannot share modules with ES module chunks, and a loader in front
 * of an ES module core cost more bytes than this.
 */
let base = '';
let nonce = '';
const pending = new Map<string, (exports: unknown) => void>();
const loaded = new Map<string, Promise<unknown>>();

/**
 * The folder of checkout.js, where the chunks are, and its CSP nonce: a page whose Content-Security-Policy
 * allows our script by nonce allows the chunks it adds with the same one.
 */
export function setChunkBase(url: string, scriptNonce = ''): void {
  base = url;
  nonce = scriptNonce;
}

/** Called by a chunk's script as it runs. */
export function registerChunk(name: string, exports: unknown): void {
  pending.get(name)?.(exports);
}

function load<T>(name: string): Promise<T> {
  let p = loaded.get(name);
  if (!p) {
    p = new Promise((resolve, reject) => {
      pending.set(name, resolve);
      const s = document.createElement('script');
      s.src = `${base}chunks/${name}.js`;
      s.nonce = nonce;
      s.onerror = () => {
        // Offline for a moment: the next need tries again.
        loaded.delete(name);
        reject(new Error(s.src));
      };
      document.head.appendChild(s);
    });
    loaded.set(name, p);
  }
  return p as Promise<T>;
}

export const loadScreens = () => load<typeof Screens>('screens');
export const loadLive = () => load<typeof Live>('live');
export const loadOptionMessages = () => load<typeof OptionMessages>('option-messages');
export const loadSimulate = () => load<typeof Simulate>('simulate');
