import { type ComponentChild, render } from 'preact';
import css from './styles.css?inline';

export interface Mounted {
  unmount(): void;
}

/**
 * The host element `<service-checkout>` with an open shadow root (docs/architecture.md: merchants' Playwright runs see into
 * it) and our one stylesheet, so no page CSS leaks in and none of ours leaks out.
 */
export function mountHost(
  theme: 'auto' | 'light' | 'dark',
  view: ComponentChild,
  /** More rules after ours (the hosted page's). */
  extraCss = '',
): Mounted {
  const host = document.createElement('service-checkout');
  if (theme !== 'auto') host.setAttribute('data-theme', theme);
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = css + extraCss;
  root.appendChild(style);
  document.body.appendChild(host);
  render(view, root);
  return {
    unmount() {
      render(null, root);
      host.remove();
    },
  };
}
