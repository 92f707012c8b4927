const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A service timestamp in the reader's own time zone; empty for none. */
export function when(isoText: string | null | undefined): string {
  return isoText ? dateTime.format(new Date(isoText)) : '';
}

/** Status words as merchants read them. */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

/** The middle of a long id or address goes, so tables stay readable; the whole value is in the title. */
export function short(text: string, keep = 10): string {
  return text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
