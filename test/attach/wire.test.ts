import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, startDaemon, workspace, type Daemon } from './daemon.ts';
import { WIRE_CASES } from './wire.cases.ts';

let d: Daemon;
let sid: string;

beforeAll(async () => {
  d = await startDaemon({ ws: workspace([{ text: 'first answer' }]) });
  const created = await d.call('POST', '/sessions');
  sid = String(created.json!.sessionID);
  await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'hello' } });
  await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end'));
}, 60_000);
afterAll(() => d?.stop());

describe('the attach API: each documented shape', () => {
  it.each(WIRE_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    let path = c.path.replaceAll('{sid}', sid).replaceAll('{app}', 'core-agent');
    if (path.includes('{fresh}')) path = path.replace('{fresh}', String((await d.call('POST', '/sessions')).json!.sessionID));
    // An SSE endpoint that answers 200 would stream forever: these lines are all refusals.
    const headers = c.headers && Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, v.replaceAll('{self}', d.url)]));
    const r = await call(d.url, c.method, path, { body: c.body, headers });
    expect(r.status, JSON.stringify(r.json)).toBe(c.status);
    if (c.fields) {
      const keys = Object.keys(r.json ?? {}).filter((k) => !(c.optional ?? []).includes(k));
      expect(keys.sort()).toEqual([...c.fields].sort());
    } else expect(r.json).toBeNull();
    if (c.items) {
      const items = r.json![c.items.key] as Array<Record<string, unknown>>;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items)
        expect(
          Object.keys(item)
            .filter((k) => !(c.items!.optional ?? []).includes(k))
            .sort(),
        ).toEqual([...c.items.fields].sort());
    }
    if (c.header) expect(r.headers.get(c.header[0])).toBe(c.header[1]);
    if (c.errorField) expect(r.json!.field).toBe(c.errorField);
    if (c.status >= 400) expect(String(r.json?.error ?? '').length).toBeLessThan(400);
  });

  it('names the principal: owner on create and in the list, identity in whoami', async () => {
    const me = await d.call('GET', '/whoami');
    expect(me.json).toEqual({ identity: 'alice', admin: false, source: 'bearer' });
    const row = ((await d.call('GET', '/sessions')).json!.sessions as Array<Record<string, unknown>>).find((s) => s.sessionID === sid)!;
    expect(row).toMatchObject({ app: 'core-agent', user: 'alice', has_event_log: true, status: 'active', title: 'hello' });
    expect(Number.isNaN(Date.parse(String(row.last_touched_at)))).toBe(false);
  });
});
