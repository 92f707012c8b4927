import { useComputed, useSignal } from '@preact/signals';
import { h } from 'preact';
import { registerChunk, setChunkBase } from './chunk-scripts.js';
import { addEnglish, t } from './i18n.js';
import { createOpen } from './open.js';

// The script tag's own address gives the service's origin (DESIGN.md) and the folder of the chunks; read now,
// while this script is the current one.
const script = document.currentScript as HTMLScriptElement | null;
const src = script?.src || `${location.origin}/dropin/v1/checkout.js`;
setChunkBase(new URL('.', src).href, script?.nonce);

/**
 * The one global of the drop-in: `window.ServiceCheckout`. `_` is private to the drop-in's own chunks
 * (chunk-scripts.ts): what they import from Preact, the signals and our messages, so they do not ship their own.
 */
(window as unknown as { ServiceCheckout: unknown }).ServiceCheckout = {
  version: '1',
  open: createOpen(new URL(src).origin),
  _: { h, useComputed, useSignal, t, addEnglish, registerChunk },
};
