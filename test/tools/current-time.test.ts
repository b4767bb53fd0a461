import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';

describe('current_time', () => {
  it('is registered with no configuration, and gives the clock in UTC by default', async () => {
    const rt = await setup();
    expect(rt.catalog.has('current_time')).toBe(true);
    const before = Date.now();
    const r = await rt.ok('current_time', {});
    const after = Date.now();
    expect(Date.parse(String(r.utc))).toBeGreaterThanOrEqual(before);
    expect(Date.parse(String(r.utc))).toBeLessThanOrEqual(after);
    expect(r.utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(r.unix_seconds).toBe(Math.floor(Date.parse(String(r.utc)) / 1000));
    expect(r).toMatchObject({ timezone: 'UTC', utc_offset: '+00:00' });
    expect(String(r.local)).toBe(String(r.utc).replace('Z', '+00:00'));
    expect(r.weekday).toBe(new Date(String(r.utc)).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }));
  });

  it.each([
    // Zones without daylight saving, so the offset is known whatever the date.
    ['Asia/Kolkata', '+05:30'],
    ['Asia/Kathmandu', '+05:45'],
    ['Etc/GMT+5', '-05:00'],
    ['Pacific/Kiritimati', '+14:00'],
    // A fixed offset is a zone too.
    ['+05:00', '+05:00'],
    ['-03:30', '-03:30'],
  ])('%s: the same instant as local time, offset %s', async (zone, offset) => {
    const rt = await setup();
    const r = await rt.ok('current_time', { timezone: zone });
    expect(r).toMatchObject({ timezone: zone, utc_offset: offset });
    expect(String(r.local)).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}${offset.replace('+', '\\+')}$`));
    // local and utc name one instant.
    expect(Date.parse(String(r.local))).toBe(Date.parse(String(r.utc)));
  });

  it('follows daylight saving: the offset of a DST zone is the one in force now', async () => {
    const rt = await setup();
    const r = await rt.ok('current_time', { timezone: 'America/New_York' });
    expect(['-05:00', '-04:00']).toContain(r.utc_offset);
    expect(Date.parse(String(r.local))).toBe(Date.parse(String(r.utc)));
  });

  it('"local" is the machine\'s own zone', async () => {
    const rt = await setup();
    const r = await rt.ok('current_time', { timezone: 'local' });
    expect(r.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(Date.parse(String(r.local))).toBe(Date.parse(String(r.utc)));
  });

  it.each([['Mars/Olympus_Mons'], ['not a zone'], ['+25:00'], ['GMT+5:3']])(
    'refuses an unknown zone %j, naming valid ones',
    async (zone) => {
      const rt = await setup();
      const r = await rt.dispatcher.call('current_time', { timezone: zone });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.kind).toBe('invalid_args');
      expect(r.error).toBe(
        `current_time: unknown time zone "${zone}": give an IANA name such as UTC, Europe/Paris or America/New_York, or an offset such as +05:30`,
      );
    },
  );

  it.each([
    [{ timezone: 5 }, /timezone must be a non-empty string of at most 128 characters, not the number 5/],
    [{ timezone: '' }, /timezone/],
    [{ timezone: 'x'.repeat(129) }, /at most 128/],
    [{ tz: 'UTC' }, /tz/],
  ])('bad arguments %j are refused by validation', async (args, message) => {
    const rt = await setup();
    const r = await rt.dispatcher.call('current_time', args);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.kind).toBe('invalid_args');
    expect(r.error).toMatch(message);
  });

  it('reads only the clock: it runs before a plan in plan-first mode, and in plan mode', async () => {
    const rt = await setup({ recipe: 'permissions:\n  plan_mode: required\n  mode: plan\n' });
    expect((await rt.dispatcher.call('current_time', {})).ok).toBe(true);
  });
});
