import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './current-time.golem.md';

/**
 * golem's CurrentDateTime over current_time: no arguments, `{dateTime}` back in Go's RFC 3339
 * (seconds, the machine's offset, `Z` at offset zero), plus the zone's name and the weekday,
 * which a model otherwise works out from the date and gets wrong.
 */
export const currentTimeGolem = defineFace({
  dialect: 'golem',
  name: 'CurrentDateTime',
  description,
  args: z.strictObject({}),
  toEngine: () => ({ timezone: 'local' }),
  result: (r) => ({ dateTime: goRfc3339(String(r.local ?? r.utc ?? '')), timezone: r.timezone ?? 'UTC', weekday: r.weekday ?? '' }),
});

/** `2026-12-07T23:01:02.345+01:00` as Go's time.RFC3339 writes it: no fraction, `Z` for a zero offset. */
export function goRfc3339(text: string): string {
  return text.replace(/\.\d+(?=[Z+-])/, '').replace(/[+-]00:00$/, 'Z');
}
