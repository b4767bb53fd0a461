import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENTS_READ } from '../../../src/tools/k8s/k8s-events.ts';
import { writeKubeconfig } from '../../helpers/kubeconfig.ts';
import { setup, tempDir } from '../../helpers/workspace.ts';

type Event = Record<string, unknown> & { metadata: { name: string } };

const BASE = Date.parse('2026-11-30T00:00:00Z');

/** `n` events of `n` pods, one each: pod-0000 the oldest, named as the API names them (`<object>.<hex time>`). */
function events(n: number): Event[] {
  return Array.from({ length: n }, (_, i) => {
    const name = `pod-${String(i).padStart(5, '0')}`;
    return {
      metadata: { name: `${name}.${(BASE + i * 1000).toString(16)}` },
      involvedObject: { kind: 'Pod', name },
      type: 'Warning',
      reason: 'BackOff',
      message: `Back-off restarting failed container in ${name}`,
      count: 1,
      lastTimestamp: new Date(BASE + i * 1000).toISOString().replace('.000Z', 'Z'),
    };
  });
}

/** The events API as etcd serves a list: in key (name) order, `limit` a page, `continue` the next offset. */
function fakeApi(current: () => { items: Event[]; limits: number[] }): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/api/v1/namespaces/default/events') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'no route', code: 404 }));
    }
    const { items, limits } = current();
    const sorted = [...items].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
    const limit = Number(url.searchParams.get('limit') ?? sorted.length);
    limits.push(limit);
    const from = Number(url.searchParams.get('continue') ?? 0);
    const page = sorted.slice(from, from + limit);
    const next = from + limit < sorted.length ? String(from + limit) : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'EventList', metadata: next ? { continue: next } : {}, items: page }));
  });
}

describe('k8s_events shows the newest events, not the first the API lists', () => {
  let api: Server;
  let server: string;
  let state: { items: Event[]; limits: number[] };

  beforeAll(async () => {
    api = fakeApi(() => state);
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    server = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

  const call = async (args: Record<string, unknown>) => {
    const kubeconfig = await writeKubeconfig(path.join(await tempDir('core-agent-kube-'), 'config'), server);
    const rt = await setup({ env: { KUBECONFIG: kubeconfig } });
    return rt.ok('k8s_events', args);
  };

  it('reads every page: the newest of 1,200 events, named last, come first', async () => {
    state = { items: events(1200), limits: [] };
    const out = await call({});
    const shown = out.events as Array<{ object: string }>;
    expect(shown).toHaveLength(50);
    expect(shown[0]!.object).toBe('Pod/pod-01199');
    expect(shown[49]!.object).toBe('Pod/pod-01150');
    expect(state.limits).toEqual([500, 500, 500]);
    expect(out.note).toBe('1150 older events not shown; narrow by kind/name or type.');
  });

  it('stops at the bound and says newer events may be among those not read', async () => {
    state = { items: events(MAX_EVENTS_READ + 700), limits: [] };
    const out = await call({ limit: 5 });
    expect(state.limits.reduce((a, b) => a + b, 0)).toBe(MAX_EVENTS_READ);
    expect((out.events as Array<{ object: string }>)[0]!.object).toBe(`Pod/pod-${String(MAX_EVENTS_READ - 1).padStart(5, '0')}`);
    expect(String(out.note)).toContain(`The API holds more than the ${MAX_EVENTS_READ} events read; it lists them by name, not time`);
  });

  it('orders by time, whatever the timestamp’s precision', async () => {
    const [a, b] = events(2);
    // a has whole seconds (lastTimestamp); b only an eventTime half a second later, with microseconds.
    a!.lastTimestamp = '2026-11-30T00:04:00Z';
    delete b!.lastTimestamp;
    b!.eventTime = '2026-11-30T00:04:00.500000Z';
    state = { items: [a!, b!], limits: [] };
    const out = await call({});
    expect((out.events as Array<{ object: string }>).map((e) => e.object)).toEqual(['Pod/pod-00001', 'Pod/pod-00000']);
  });
});
