/** Polls `fn` every 50 ms until `ok` holds for its value; fails with the last value after `ms`. */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The exact digits of a JSON number field, which JSON.parse would round beyond 15-17 digits. */
export function rawNumber(text: string, field: string): string {
  const m = new RegExp(`"${field}":(-?[0-9.eE+-]+)`).exec(text);
  if (!m?.[1]) throw new Error(`no numeric ${field} in ${text.slice(0, 200)}`);
  return m[1];
}
