import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAttachServer } from '../../src/attach/server.ts';
import { parseTokens } from '../../src/attach/tokens.ts';
import { silentLogger } from '../../src/log.ts';
import { AUTH_CASES, TOKEN_VALUE_CASES } from './auth.cases.ts';
import { call, startDaemon, workspace, type Daemon } from './daemon.ts';

let d: Daemon;
beforeAll(async () => {
  d = await startDaemon({ ws: workspace([]) });
});
afterAll(() => d?.stop());

describe('attach authentication: each credential', () => {
  it.each(AUTH_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    for (const path of ['/whoami', '/sessions']) {
      const r = await call(d.url, 'GET', path, { token: null, headers: c.headers });
      expect(r.status).toBe(c.status);
      if (c.status === 401) {
        expect(r.headers.get('www-authenticate')).toBe('Bearer realm="attach"');
        // The refusal never echoes what was presented.
        for (const v of Object.values(c.headers)) if (v.length > 8) expect(JSON.stringify(r.json)).not.toContain(v);
      } else if (path === '/whoami') expect(r.json).toMatchObject({ identity: c.principal, source: 'bearer' });
    }
  });

  it('a write is authenticated before its body is looked at', async () => {
    const r = await call(d.url, 'POST', '/sessions', { token: 'wrong', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(401);
  });
});

describe('the token variable: one bare token, or NAME=TOKEN entries', () => {
  it.each(TOKEN_VALUE_CASES)('%j', (value, want) => {
    if (Array.isArray(want)) expect(parseTokens(value, 'T').map((t) => t.principal)).toEqual(want);
    else expect(() => parseTokens(value, 'T')).toThrow(want.error);
  });

  it('an error names the entry, never a token', () => {
    expect(() => parseTokens('alice=hunter2-secret,oops', 'T')).toThrow(/^T: entry 2/);
    try {
      parseTokens('alice=hunter2-secret,oops', 'T');
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});

describe('listening without tokens', () => {
  it.each(['0.0.0.0', '::', '192.0.2.10', 'example.com'])('on %s: refused at start', async (host) => {
    await expect(startAttachServer({ host, port: 0, tokens: [], routes: [], logger: silentLogger })).rejects.toThrow(
      /not loopback\) needs bearer tokens/,
    );
  });

  it('on loopback: every request is the anonymous principal', async () => {
    const open = await startDaemon({ ws: workspace([]), tokens: null });
    try {
      const r = await call(open.url, 'GET', '/whoami', { token: null });
      expect(r.json).toEqual({ identity: 'anonymous', admin: false, source: 'anonymous' });
    } finally {
      await open.stop();
    }
  });
});
