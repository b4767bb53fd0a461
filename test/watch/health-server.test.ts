import { Registry, Counter } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { parseListen, startHealthServer } from '../../src/watch/health-server.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('parseListen', () => {
  it.each([
    ['127.0.0.1:9464', { host: '127.0.0.1', port: 9464 }],
    ['0.0.0.0:8080', { host: '0.0.0.0', port: 8080 }],
    [':8080', { host: '0.0.0.0', port: 8080 }],
    ['8080', { host: '0.0.0.0', port: 8080 }],
    ['[::1]:9464', { host: '::1', port: 9464 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
  ])('%s', (text, want) => expect(parseListen(text)).toEqual(want));

  it.each(['', 'host', 'host:port', '1.2.3.4:70000', '1.2.3.4:80:90'])('refuses %j with the form to use', (text) => {
    expect(() => parseListen(text)).toThrow(/give HOST:PORT, e.g. 127.0.0.1:9464/);
  });
});

describe('the health and metrics port', () => {
  async function serve(ready: () => boolean) {
    const registry = new Registry();
    new Counter({ name: 'test_things_total', help: 'things', registers: [registry] }).inc(3);
    const s = await startHealthServer(
      { host: '127.0.0.1', port: 0 },
      { ready: () => ({ ok: ready(), detail: { synced: ready() } }) },
      registry,
    );
    closers.push(s.close);
    return `http://${s.address}`;
  }

  it('healthz always, readyz only when ready, metrics as Prometheus text', async () => {
    let ready = false;
    const url = await serve(() => ready);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const notYet = await fetch(`${url}/readyz`);
    expect(notYet.status).toBe(503);
    expect(await notYet.json()).toEqual({ status: 'not ready', synced: false });
    ready = true;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    expect(await metrics.text()).toMatch(/# TYPE test_things_total counter\ntest_things_total 3/);
  });

  it('anything else is 404, and only GET/HEAD are allowed', async () => {
    const url = await serve(() => true);
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('a taken port is an error, not a silent second server', async () => {
    const url = await serve(() => true);
    const port = Number(new URL(url).port);
    await expect(
      startHealthServer({ host: '127.0.0.1', port }, { ready: () => ({ ok: true, detail: {} }) }, new Registry()),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});

describe('a request the URL parser would reject', () => {
  it('is answered, and the server keeps serving', async () => {
    const registry = new Registry();
    const s = await startHealthServer({ host: '127.0.0.1', port: 0 }, { ready: () => ({ ok: true, detail: {} }) }, registry);
    closers.push(s.close);
    const { connect } = await import('node:net');
    const [host, port] = [s.address.split(':')[0]!, Number(s.address.split(':')[1])];
    const reply = await new Promise<string>((resolve, reject) => {
      const sock = connect(port, host, () => sock.end(`GET //[ HTTP/1.1\r\nHost: ${s.address}\r\nConnection: close\r\n\r\n`));
      let data = '';
      sock.on('data', (d: Buffer) => (data += d.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1.1 404/);
    expect((await fetch(`http://${s.address}/healthz`)).status).toBe(200);
  });
});
