import { z } from 'zod';

const day = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date-range bound: a day (`2026-11-01`, UTC) or an ISO 8601 time with an offset. A day as the end of a range
 * includes the whole day.
 */
export function rangeBoundSchema(end: boolean) {
  return z
    .string()
    .max(40)
    .refine(
      (v) =>
        day.test(v)
          ? !Number.isNaN(Date.parse(`${v}T00:00:00Z`))
          : z.iso.datetime({ offset: true }).safeParse(v).success,
      {
        message: 'Must be a day (YYYY-MM-DD) or an ISO 8601 time with a UTC offset',
      },
    )
    .transform((v) => (day.test(v) ? Date.parse(`${v}T00:00:00Z`) + (end ? 86_400_000 : 0) : Date.parse(v)));
}
