import type { z } from 'zod';
import { UsageError } from './command.js';

/** A flag's value checked by its schema; a refusal names the flag (`--webhook-url: ...`) and exits as a usage error. */
export function check<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new UsageError(`--${flag}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
}

/**
 * A command's result: one line of JSON with `--json` (for scripts), otherwise the text for people.
 *
 * @example
 * print(v.json === true, ctx.out, { merchant_id: id }, `Created ${id}.`);
 */
export function print(json: boolean, out: (line: string) => void, value: unknown, text: string): void {
  out(json ? JSON.stringify(value) : text);
}
