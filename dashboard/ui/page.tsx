import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A page's heading: it names the page in the tab's title and takes the focus when the page opens, so a screen
 * reader or keyboard user starts where the content starts after every in-app navigation.
 */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Dashboard`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}
