import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SessionHub } from '../../src/attach/hub.ts';
import { startAttachServer, type AttachServer } from '../../src/attach/server.ts';
import { sessionRoutes } from '../../src/attach/session-routes.ts';
import { parseTokens } from '../../src/attach/tokens.ts';
import { silentLogger } from '../../src/log.ts';
import type { AllowedHostEntry } from '../../src/net/allowed-hosts.ts';
import type { PermissionMode } from '../../src/permissions/gate.ts';
import { attachSessions } from '../../src/runtime/attach-step.ts';
import { resolveSettings } from '../../src/runtime/settings.ts';
import { buildSystem } from '../../src/runtime/system.ts';
import { EventLog } from '../../src/store/event-log.ts';

export const TOKENS = 'alice=alice-token-0123456789,bob@example.com=bob-token-9876543210';
export const ALICE = 'alice-token-0123456789';
export const BOB = 'bob-token-9876543210';

export interface Daemon {
  url: string;
  dir: string;
  db: string;
  hub: SessionHub;
  log: EventLog;
  server: AttachServer;
  /** An authenticated JSON request (alice's token unless `token` says otherwise; null: none). */
  call(method: string, p: string, o?: { body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<Reply>;
  stop(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown> | null;
}

/** A workspace with a replay script (one JSON line per model response), for the daemon's sessions. */
export function workspace(script: readonly object[]): { dir: string; db: string; model: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'attach-'));
  writeFileSync(path.join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  return { dir, db: path.join(dir, 'sessions.db'), model: `replay:${path.join(dir, 'script.jsonl')}` };
}

/**
 * The attach daemon in this process on 127.0.0.1, its sessions built by the real
 * root (buildSystem, until 'agent') over a replay script, as `serve` builds them.
 */
export async function startDaemon(o: {
  ws: { dir: string; db: string; model: string };
  tokens?: string | null;
  mode?: PermissionMode;
  promptTimeoutMs?: number;
  allowedHosts?: readonly AllowedHostEntry[];
}): Promise<Daemon> {
  const env = { HOME: o.ws.dir, PATH: process.env.PATH };
  const settings = resolveSettings({ workspace: o.ws.dir, model: o.ws.model, mode: o.mode ?? 'ask', sessionDb: o.ws.db }, env);
  const log = EventLog.open(o.ws.db);
  const startSession = attachSessions({ settings, env, command: 'serve', log, say: () => undefined, build: (r) => buildSystem(r) });
  const hub = new SessionHub({ log, startSession, logger: silentLogger, promptTimeoutMs: o.promptTimeoutMs ?? 30_000 });
  hub.markInterrupted();
  const tokens = o.tokens === null ? [] : parseTokens(o.tokens ?? TOKENS, 'ATTACH_TOKENS');
  const server = await startAttachServer({
    host: '127.0.0.1',
    port: 0,
    tokens,
    routes: [sessionRoutes(hub, log)],
    logger: silentLogger,
    allowedHosts: o.allowedHosts ?? [],
  });
  const url = `http://${server.address}`;
  return {
    url,
    dir: o.ws.dir,
    db: o.ws.db,
    hub,
    log,
    server,
    call: (method, p, c = {}) => call(url, method, p, c),
    stop: async () => {
      await server.close();
      await hub.close();
      log.close();
    },
  };
}

export async function call(
  base: string,
  method: string,
  p: string,
  c: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const token = c.token === undefined ? ALICE : c.token;
  const headers: Record<string, string> = {
    ...(token !== null ? { authorization: `Bearer ${token}` } : {}),
    ...(method !== 'GET' ? { 'content-type': 'application/json' } : {}),
    ...c.headers,
  };
  const body = c.body === undefined ? undefined : typeof c.body === 'string' ? c.body : JSON.stringify(c.body);
  const res = await fetch(base + p, { method, headers, body });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json };
}

export interface Frame {
  id: number | undefined;
  event: string;
  data: Record<string, unknown>;
}

/**
 * Read an SSE stream until `until` holds for the frames so far (or the deadline:
 * then it throws, saying what came). `onOpen` runs once the stream has started.
 */
export async function readSse(
  url: string,
  o: { token?: string; headers?: Record<string, string>; until: (frames: Frame[]) => boolean; timeoutMs?: number; onOpen?: () => unknown },
): Promise<Frame[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), o.timeoutMs ?? 20_000);
  const frames: Frame[] = [];
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${o.token ?? ALICE}`, ...o.headers }, signal: controller.signal });
    if (res.status !== 200) throw new Error(`SSE ${url}: ${res.status} ${await res.text()}`);
    void o.onOpen?.();
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += value;
      let end;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const f: Partial<Frame> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) f.id = Number(line.slice(4));
          else if (line.startsWith('event: ')) f.event = line.slice(7);
          else if (line.startsWith('data: ')) f.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
        }
        if (f.event) frames.push(f as Frame);
      }
      if (o.until(frames)) {
        controller.abort();
        return frames;
      }
    }
    throw new Error('the stream ended');
  } catch (err) {
    if (controller.signal.aborted && o.until(frames)) return frames;
    throw new Error(`SSE ${url}: ${(err as Error).message}; got ${frames.map((f) => `${f.id ?? '-'}:${f.event}`).join(' ')}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The event frames (those with an id) of a stream. */
export const logged = (frames: Frame[]) => frames.filter((f) => f.id !== undefined);

/** Wait until `check` holds, polling (a generous bound: this is about order, not speed). */
export async function eventually<T>(check: () => T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
