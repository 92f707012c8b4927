import type { ComponentChildren, JSX } from 'preact';
import { onLinkClick } from '../router.js';

/** An in-app link: a real `<a href>` (new tab, copy link work) that navigates without a reload. */
export function Link({
  href,
  children,
  ...rest
}: { href: string; children: ComponentChildren } & Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href' | 'onClick'>) {
  return (
    <a href={href} onClick={onLinkClick} {...rest}>
      {children}
    </a>
  );
}
