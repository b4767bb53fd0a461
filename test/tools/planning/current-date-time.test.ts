import { afterEach, describe, expect, it } from 'vitest';
import { goRfc3339 } from '../../../src/tools/planning/current-time.golem.ts';
import { setupIn } from '../../helpers/workspace.ts';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe("CurrentDateTime (golem): Go's RFC 3339 with this machine's offset", () => {
  const golem = setupIn('golem');

  it.each([
    ['Asia/Kolkata', /\+05:30$/, /^Asia\/(Kolkata|Calcutta)$/],
    ['America/New_York', /-0[45]:00$/, /^America\/New_York$/],
    ['UTC', /Z$/, /^(UTC|Etc\/UTC)$/],
  ])('in %s the offset is the zone one', async (tz, offset, name) => {
    process.env.TZ = tz;
    const r = await (await golem()).ok('CurrentDateTime', {});
    expect(r.dateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/);
    expect(r.dateTime).toMatch(offset);
    expect(r.timezone).toMatch(name);
    // The same instant as the clock's (within the test's run).
    expect(Math.abs(Date.parse(String(r.dateTime)) - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(r)).toEqual(['dateTime', 'timezone', 'weekday']);
  });

  it.each([
    ['2026-12-07T23:01:02.345+01:00', '2026-12-07T23:01:02+01:00'],
    ['2026-12-07T22:01:02.000+00:00', '2026-12-07T22:01:02Z'],
    ['2026-12-07T17:31:02.999-05:30', '2026-12-07T17:31:02-05:30'],
    ['2026-12-07T22:01:02Z', '2026-12-07T22:01:02Z'],
  ])('%s is written %s', (from, to) => {
    expect(goRfc3339(from)).toBe(to);
  });
});
