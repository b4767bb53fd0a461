import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionHub } from '../../src/attach/hub.ts';
import { peersRoute } from '../../src/attach/peers-route.ts';
import { PeerRegistry } from '../../src/attach/peers-registry.ts';
import { startAttachServer, type AttachServer } from '../../src/attach/server.ts';
import { sessionRoutes } from '../../src/attach/session-routes.ts';
import { parseTokens } from '../../src/attach/tokens.ts';
import { silentLogger } from '../../src/log.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { workspace } from './daemon.ts';
import { PERCENT_ESCAPE_CASES } from './percent-escapes.cases.ts';

const TOKEN = 'escape-token-0123456789';
let server: AttachServer;
let hub: SessionHub;
let log: EventLog;
let reg: string;

beforeAll(async () => {
  log = EventLog.open(workspace([]).db);
  hub = new SessionHub({ log, startSession: undefined, logger: silentLogger, promptTimeoutMs: 1000 });
  const registry = PeerRegistry.open({ privateHosts: ['127.0.0.1'] });
  reg = registry.register({ name: 'prod-1', endpoint: 'http://127.0.0.1:9001' }, 'ops').registration_id!;
  server = await startAttachServer({
    host: '127.0.0.1',
    port: 0,
    tokens: parseTokens(`ops=${TOKEN}`, 'T'),
    routes: [sessionRoutes(hub, log), peersRoute(registry)],
    logger: silentLogger,
  });
});
afterAll(async () => {
  await server?.close();
  await hub?.close();
  log?.close();
});

/** The path exactly as written (node:http sends it verbatim; fetch would re-encode some of it). */
function send(method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { authorization: `Bearer ${TOKEN}`, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('malformed %-escapes in request paths', () => {
  it.each(PERCENT_ESCAPE_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const r = await send(c.method, c.path.replace('{reg}', reg));
    expect(r.status, r.body).toBe(c.status);
    if (c.field !== undefined) {
      const json = JSON.parse(r.body) as { error: string; field: string };
      expect(json.field).toBe(c.field);
      expect(json.error).toMatch(/percent-encoding/);
      expect(json.error.length).toBeLessThan(300);
    }
    // The daemon is still there.
    expect((await send('GET', '/whoami')).status).toBe(200);
  });
});
