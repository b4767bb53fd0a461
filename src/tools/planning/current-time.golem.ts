import * as z from 'zod/v4';
import { defineFace } from '../framework/face.ts';
import description from './current-time.golem.md';

/** golem's CurrentDateTime over current_time: no arguments, the machine's local time back. */
export const currentTimeGolem = defineFace({
  dialect: 'golem',
  name: 'CurrentDateTime',
  description,
  args: z.strictObject({}),
  toEngine: () => ({ timezone: 'local' }),
  result: (r) => ({ dateTime: r.local ?? r.utc ?? '', timezone: r.timezone ?? 'UTC', weekday: r.weekday ?? '' }),
});
