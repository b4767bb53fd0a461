import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BOB, eventually, logged, readSse, startDaemon, workspace, type Daemon, type Frame } from './daemon.ts';

const running: Daemon[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
});

async function daemon(...args: Parameters<typeof startDaemon>): Promise<Daemon> {
  const d = await startDaemon(...args);
  running.push(d);
  return d;
}

async function newSession(d: Daemon): Promise<string> {
  return String((await d.call('POST', '/sessions')).json!.sessionID);
}

/** alice (the owner) lets bob drive her session: without it bob gets a 404 (test/attach/principals.cases.ts). */
async function letBobDrive(d: Daemon, sid: string): Promise<void> {
  const r = await d.call('PATCH', `/sessions/${sid}/acl`, { body: { contributors: ['bob@example.com'] } });
  if (r.status !== 200) throw new Error(`acl PATCH: ${r.status}`);
}

const ends = (frames: Frame[], n = 1) => frames.filter((f) => f.event === 'turn_end').length >= n;
const ids = (frames: Frame[]) => logged(frames).map((f) => f.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('inject → a turn → its events', () => {
  it('streams the turn from the start: capabilities first, then every event in order', async () => {
    const d = await daemon({ ws: workspace([{ text: 'the answer' }]) });
    const sid = await newSession(d);
    const frames = await readSse(`${d.url}/sessions/${sid}/events`, {
      until: (f) => ends(f),
      onOpen: () => d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'what is it?' } }),
    });
    expect(frames[0]).toMatchObject({ event: 'capabilities', data: { session: sid, caller_id: 'alice' } });
    expect(frames[0]!.id).toBeUndefined();
    expect(ids(frames)).toEqual(range(1, logged(frames).length));
    const user = frames.find((f) => f.event === 'user')!;
    expect(user.data.data).toEqual({ text: 'what is it?' });
    expect(frames.find((f) => f.event === 'turn_end')!.data.data).toMatchObject({ status: 'done', text: 'the answer' });
    const injected = frames.find((f) => f.event === 'operator' && f.data.data && (f.data.data as { action: string }).action === 'inject');
    expect(injected!.data.data).toMatchObject({ principal: 'alice', queued: false });
  });

  it('a message sent while a turn runs queues, and the turns run in order', async () => {
    const d = await daemon({
      ws: workspace([{ tool_calls: [{ name: 'bash', args: { command: 'sleep 1' } }] }, { text: 'one' }, { text: 'two' }]),
      mode: 'yolo',
    });
    const sid = await newSession(d);
    const first = await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'first' } });
    const second = await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'second' } });
    expect([first.json!.woke, second.json!.woke]).toEqual([true, false]);
    await eventually(() => d.log.events(sid).filter((e) => e.kind === 'turn_end').length === 2);
    const events = d.log.events(sid);
    expect(events.filter((e) => e.kind === 'user').map((e) => e.data.text)).toEqual(['first', 'second']);
    expect(events.filter((e) => e.kind === 'turn_end').map((e) => e.data.text)).toEqual(['one', 'two']);
  });
});

describe('replay from a cursor', () => {
  it('a reconnect from since=N (or Last-Event-ID) gets exactly the events after N, then the live ones', async () => {
    const d = await daemon({ ws: workspace([{ text: 'a' }, { text: 'b' }, { text: 'c' }]) });
    const sid = await newSession(d);
    for (const message of ['one', 'two']) {
      await d.call('POST', `/sessions/${sid}/inject`, { body: { message } });
      await eventually(() => d.log.events(sid).filter((e) => e.kind === 'turn_end').length === (message === 'one' ? 1 : 2));
    }
    const all = d.log.events(sid).map((e) => e.seq);
    const last = all.at(-1)!;
    const whole = await readSse(`${d.url}/sessions/${sid}/events`, { until: (f) => logged(f).length === all.length });
    expect(ids(whole)).toEqual(all);
    for (const cut of [1, 3, Math.floor(last / 2), last - 1]) {
      const viaQuery = await readSse(`${d.url}/sessions/${sid}/events?since=${cut}`, { until: (f) => logged(f).at(-1)?.id === last });
      expect(ids(viaQuery)).toEqual(range(cut + 1, last));
      const viaHeader = await readSse(`${d.url}/sessions/${sid}/events`, {
        headers: { 'last-event-id': String(cut) },
        until: (f) => logged(f).at(-1)?.id === last,
      });
      expect(ids(viaHeader)).toEqual(range(cut + 1, last));
    }
    // Caught up, then live: the third turn arrives with no gap and no repeat.
    const live = await readSse(`${d.url}/sessions/${sid}/events?since=${last - 2}`, {
      until: (f) => ends(f.filter((x) => (x.id ?? 0) > last)),
      onOpen: () => d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'three' } }),
    });
    const got = ids(live);
    expect(got).toEqual(range(last - 1, got.at(-1)!));
    expect(live.filter((f) => f.event === 'turn_end').at(-1)!.data.data).toMatchObject({ text: 'c' });
  });
});

describe('interrupt', () => {
  it('stops the running turn (the model call and its tools), records who, and the session goes on', async () => {
    const d = await daemon({
      ws: workspace([{ tool_calls: [{ name: 'bash', args: { command: 'sleep 60' } }] }, { text: 'after the interrupt' }]),
      mode: 'yolo',
    });
    const sid = await newSession(d);
    await letBobDrive(d, sid);
    await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'sleep' } });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'response'));
    const started = Date.now();
    const r = await d.call('POST', `/sessions/${sid}/interrupt`, { token: BOB });
    expect(r.json).toMatchObject({ interrupted: true, paused: true, session: sid });
    expect(r.headers.get('x-interrupted')).toBeNull();
    const stopped = await eventually(() => d.log.events(sid).find((e) => e.kind === 'error' && e.data.cancelled === true));
    // Far less than the 60 s the command would take: bash was killed, not waited for.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(String(stopped.data.message)).toContain('interrupted by bob@example.com');
    const bash = d.log.events(sid).find((e) => e.kind === 'tool_result' && e.data.name === 'bash')!;
    expect(bash.data.ok).toBe(false);
    expect(d.log.events(sid).find((e) => e.kind === 'operator' && e.data.action === 'interrupt')!.data).toMatchObject({
      principal: 'bob@example.com',
      in_flight: true,
    });
    const idle = await d.call('POST', `/sessions/${sid}/interrupt`);
    expect(idle.json!.interrupted).toBe(false);
    expect(idle.headers.get('x-interrupted')).toBe('nothing-in-flight');
    await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'carry on' } });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end' && e.data.text === 'after the interrupt'));
  });
});

describe('permission prompts answered remotely', () => {
  const writeScript = [{ tool_calls: [{ name: 'write_file', args: { path: 'out.txt', content: 'hello\n' } }] }, { text: 'wrote it' }];

  it('a prompt appears on /perms/stream; bob allows it; the write happens and the log names bob', async () => {
    const d = await daemon({ ws: workspace(writeScript) });
    const sid = await newSession(d);
    await letBobDrive(d, sid);
    const frames = await readSse(`${d.url}/sessions/${sid}/perms/stream`, {
      until: (f) => f.some((x) => x.event === 'prompt'),
      onOpen: () => d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'write it' } }),
    });
    const prompt = frames.find((f) => f.event === 'prompt')!.data;
    expect(prompt).toMatchObject({ session: sid, tool: 'write_file', read_only: false, args: { path: 'out.txt' } });
    expect(existsSync(path.join(d.dir, 'out.txt'))).toBe(false);
    const r = await d.call('POST', `/sessions/${sid}/perms/respond`, { token: BOB, body: { id: prompt.id, decision: 'allow' } });
    expect(r.json).toEqual({ acknowledged: true, approver: 'bob@example.com' });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end' && e.data.text === 'wrote it'));
    expect(existsSync(path.join(d.dir, 'out.txt'))).toBe(true);
    expect(d.log.events(sid).find((e) => e.kind === 'operator' && e.data.action === 'permission')!.data).toEqual({
      action: 'permission',
      prompt_id: prompt.id,
      tool: 'write_file',
      decision: 'allow',
      principal: 'bob@example.com',
    });
    const again = await d.call('POST', `/sessions/${sid}/perms/respond`, { body: { id: prompt.id, decision: 'allow' } });
    expect(again.status).toBe(404);
  });

  it('a deny with a note reaches the model; nothing is written', async () => {
    const d = await daemon({ ws: workspace(writeScript) });
    const sid = await newSession(d);
    await letBobDrive(d, sid);
    const frames = await readSse(`${d.url}/sessions/${sid}/perms/stream`, {
      until: (f) => f.some((x) => x.event === 'prompt'),
      onOpen: () => d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'write it' } }),
    });
    const id = frames.find((f) => f.event === 'prompt')!.data.id;
    await d.call('POST', `/sessions/${sid}/perms/respond`, { body: { id, decision: 'deny', note: 'use /tmp instead' } });
    const result = await eventually(() => d.log.events(sid).find((e) => e.kind === 'tool_result' && e.data.name === 'write_file'));
    expect(result.data.ok).toBe(false);
    expect(JSON.stringify(result.data)).toContain('use /tmp instead');
    expect(existsSync(path.join(d.dir, 'out.txt'))).toBe(false);
  });

  it('nobody answers: the prompt times out as a deny, recorded as such', async () => {
    const d = await daemon({ ws: workspace(writeScript), promptTimeoutMs: 300 });
    const sid = await newSession(d);
    await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'write it' } });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end'));
    expect(d.log.events(sid).find((e) => e.kind === 'operator' && e.data.action === 'permission')!.data).toMatchObject({
      decision: 'deny',
      principal: 'timeout',
    });
    expect(existsSync(path.join(d.dir, 'out.txt'))).toBe(false);
  });
});

describe('DELETE', () => {
  it('removes the session and its events; it is gone from the list and the stream', async () => {
    const d = await daemon({ ws: workspace([{ text: 'x' }]) });
    const sid = await newSession(d);
    await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'hi' } });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end'));
    expect((await d.call('DELETE', `/sessions/${sid}`)).status).toBe(204);
    expect(d.log.session(sid)).toBeUndefined();
    expect(d.log.events(sid)).toEqual([]);
    const list = (await d.call('GET', '/sessions')).json!.sessions as Array<{ sessionID: string }>;
    expect(list.map((s) => s.sessionID)).not.toContain(sid);
    expect((await d.call('GET', `/sessions/${sid}/events`)).status).toBe(404);
    expect((await d.call('DELETE', `/sessions/${sid}`)).status).toBe(404);
  });
});

describe('a daemon restart', () => {
  it('keeps every session and its events; a session continues where it was', async () => {
    const ws = workspace([{ text: 'before' }, { text: 'after' }]);
    const a = await startDaemon({ ws });
    const sid = await newSession(a);
    await a.call('POST', `/sessions/${sid}/inject`, { body: { message: 'one' } });
    await eventually(() => a.log.events(sid).some((e) => e.kind === 'turn_end'));
    const before = a.log.events(sid);
    await a.stop();

    const b = await daemon({ ws });
    const row = ((await b.call('GET', '/sessions')).json!.sessions as Array<Record<string, unknown>>).find((s) => s.sessionID === sid);
    expect(row).toMatchObject({ user: 'alice', status: 'idle', title: 'one' });
    const replayed = await readSse(`${b.url}/sessions/${sid}/events`, { until: (f) => logged(f).length === before.length });
    expect(logged(replayed).map((f) => [f.id, f.event])).toEqual(before.map((e) => [e.seq, e.kind]));
    await b.call('POST', `/sessions/${sid}/inject`, { body: { message: 'two' } });
    await eventually(() => b.log.events(sid).some((e) => e.kind === 'turn_end' && e.data.text === 'after'));
  });

  it('a turn open when the daemon died is marked interrupted, once', async () => {
    const ws = workspace([{ text: 'x' }]);
    const a = await startDaemon({ ws });
    const sid = await newSession(a);
    // What a killed daemon leaves: a prompt with no end.
    a.log.append(sid, 1, 'user', { text: 'cut off' });
    await a.stop();
    for (let i = 0; i < 2; i++) {
      const b = await startDaemon({ ws });
      const marks = b.log.events(sid).filter((e) => e.kind === 'error' && e.data.interrupted === true);
      await b.stop();
      expect(marks).toHaveLength(1);
      expect(String(marks[0]!.data.message)).toContain('open when the attach daemon stopped');
    }
  });

  it('a turn running at a graceful stop is stopped and says so', async () => {
    const ws = workspace([{ tool_calls: [{ name: 'bash', args: { command: 'sleep 60' } }] }]);
    const a = await startDaemon({ ws, mode: 'yolo' });
    const sid = await newSession(a);
    await a.call('POST', `/sessions/${sid}/inject`, { body: { message: 'sleep' } });
    await eventually(() => a.log.events(sid).some((e) => e.kind === 'response'));
    await a.stop();
    const b = await daemon({ ws });
    const stopped = b.log.events(sid).find((e) => e.kind === 'error' && e.data.cancelled === true);
    expect(String(stopped!.data.message)).toContain('the attach daemon stopped');
  });
});

describe('the API as watch serves it (the sessions are run by the watcher)', () => {
  it('lists and streams the sessions of the shared log; creating is 501, sending is 409', async () => {
    const { SessionHub } = await import('../../src/attach/hub.ts');
    const { sessionRoutes } = await import('../../src/attach/session-routes.ts');
    const { startAttachServer } = await import('../../src/attach/server.ts');
    const { parseTokens } = await import('../../src/attach/tokens.ts');
    const { silentLogger } = await import('../../src/log.ts');
    const { call } = await import('./daemon.ts');
    // A session the watcher ran, in the shared log.
    const d = await daemon({ ws: workspace([{ text: 'RESOLVED: restarted the pod' }]) });
    const sid = await newSession(d);
    await d.call('POST', `/sessions/${sid}/inject`, { body: { message: 'incident #1' } });
    await eventually(() => d.log.events(sid).some((e) => e.kind === 'turn_end'));
    // Its owner lets sre drive it: the ACL is in the log, so the second daemon over it knows.
    await d.call('PATCH', `/sessions/${sid}/acl`, { body: { contributors: ['sre'] } });

    const hub = new SessionHub({ log: d.log, logger: silentLogger, promptTimeoutMs: 1000 });
    const server = await startAttachServer({
      host: '127.0.0.1',
      port: 0,
      tokens: parseTokens('sre=sre-token-0000000000', 'T'),
      routes: [sessionRoutes(hub, d.log)],
      logger: silentLogger,
    });
    try {
      const url = `http://${server.address}`;
      const c = (method: string, p: string, body?: unknown) => call(url, method, p, { token: 'sre-token-0000000000', body });
      const rows = (await c('GET', '/sessions')).json!.sessions as Array<{ sessionID: string }>;
      expect(rows.map((r) => r.sessionID)).toContain(sid);
      const frames = await readSse(`${url}/sessions/${sid}/events`, { token: 'sre-token-0000000000', until: (f) => ends(f) });
      expect(frames.find((f) => f.event === 'turn_end')!.data.data).toMatchObject({ text: 'RESOLVED: restarted the pod' });
      expect((await c('POST', '/sessions')).status).toBe(501);
      const sent = await c('POST', `/sessions/${sid}/inject`, { message: 'hi' });
      expect(sent.status).toBe(409);
      expect(String(sent.json!.error)).toMatch(/run by core-agent watch/);
    } finally {
      await server.close();
      await hub.close();
    }
  });
});
