import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** Gives every body cell its column's header as `data-label`, which the narrow layout prints before the value. */
function labelCells(table: HTMLTableElement): void {
  const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
  for (const row of table.tBodies[0]?.rows ?? []) {
    [...row.cells].forEach((cell, i) => {
      const label = heads[i] ?? '';
      if (cell.dataset.label !== label) cell.dataset.label = label;
    });
  }
}

/**
 * Every table of the dashboard. Wide screens get a plain table (scrolling sideways inside its box if it must);
 * below 600 px each row becomes a card of "header: value" lines (styles/content.css `table.cards`), so a row's actions and
 * amounts are on screen at 390 px without sideways scrolling. The labels come from the table's own `<thead>`, so a
 * page writes an ordinary table; rows added later (live updates, a reload) are labelled as they arrive.
 */
export function DataTable({
  caption,
  class: className,
  children,
}: {
  /** Read to screen readers only: what the table lists. */
  caption: string;
  class?: string;
  /** The `<thead>` and `<tbody>`. */
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    labelCells(table);
    const watch = new MutationObserver(() => labelCells(table));
    watch.observe(table, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, []);
  return (
    <div class="table-wrap">
      <table class={className ? `cards ${className}` : 'cards'} ref={ref}>
        <caption class="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
