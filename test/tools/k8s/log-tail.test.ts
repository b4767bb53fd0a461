import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_READ_WINDOW } from '../../../src/tools/k8s/log-tail.ts';
import { writeKubeconfig } from '../../helpers/kubeconfig.ts';
import { setup, tempDir } from '../../helpers/workspace.ts';
import { LOG_TAIL_CASES, type LogLine, type LogTailCase } from './log-tail.cases.ts';

interface LogQuery {
  tailLines?: number;
  sinceSeconds?: number;
  limitBytes?: number;
  previous: boolean;
}

/**
 * The selection as the kubelet makes it (pkg/kubelet/kuberuntime/logs): the last tailLines
 * lines of the file, then those not older than sinceSeconds, then the FIRST limitBytes bytes.
 */
function selection(lines: readonly LogLine[], q: LogQuery): Buffer {
  const tail = q.tailLines === undefined ? lines : lines.slice(Math.max(0, lines.length - q.tailLines));
  const since = q.sinceSeconds;
  const text = tail
    .filter((l) => since === undefined || l.age <= since)
    .map((l) => (l.unterminated ? l.text : `${l.text}\n`))
    .join('');
  return Buffer.from(text);
}

const num = (v: string | null): number | undefined => (v === null ? undefined : Number(v));

/** One pod, "app", whose log (and previous run's) is the current case's; every log request is recorded. */
function fakeApi(current: () => { c: LogTailCase; requests: LogQuery[] }): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/api/v1/namespaces/default/pods/app/log') {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ kind: 'Status', reason: 'NotFound', message: `no route ${url.pathname}`, code: 404 }));
    }
    const { c, requests } = current();
    const q: LogQuery = {
      tailLines: num(url.searchParams.get('tailLines')),
      sinceSeconds: num(url.searchParams.get('sinceSeconds')),
      limitBytes: num(url.searchParams.get('limitBytes')),
      previous: url.searchParams.get('previous') === 'true',
    };
    requests.push(q);
    const lines = q.previous ? c.previous : c.log;
    if (!lines) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ kind: 'Status', reason: 'BadRequest', message: 'previous terminated container "app" not found' }));
    }
    let body = selection(lines, q);
    if (q.limitBytes !== undefined && body.length > q.limitBytes) body = body.subarray(0, q.limitBytes - (c.shortBy ?? 0));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body);
  });
}

describe('k8s_logs keeps the END of a log larger than its bounds', () => {
  let api: Server;
  let state: { c: LogTailCase; requests: LogQuery[] };
  let server: string;

  beforeAll(async () => {
    api = fakeApi(() => state);
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    server = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

  it.each(LOG_TAIL_CASES)('$what', async (c) => {
    state = { c, requests: [] };
    const caps = c.caps ? `tool_output:\n  per_tool:\n    k8s_logs: ${JSON.stringify(c.caps)}\n` : '';
    // Per test: a test's temporary folders go when it ends (helpers/workspace.ts).
    const kubeconfig = await writeKubeconfig(path.join(await tempDir('core-agent-kube-'), 'config'), server);
    const rt = await setup({ env: { KUBECONFIG: kubeconfig }, recipe: caps || undefined });
    const out = await rt.ok('k8s_logs', { pod: 'app', ...c.args });
    const log = String(out.log);

    // Every request is bounded: the API is never asked for a whole log.
    expect(state.requests).toHaveLength(c.expect.requests);
    for (const q of state.requests) {
      expect(q.limitBytes).toBeGreaterThan(0);
      expect(q.limitBytes).toBeLessThanOrEqual(MAX_READ_WINDOW);
    }

    // What the model asked for, read whole (the tool's default: the last 200 lines, unless since_seconds alone).
    const args = c.args as { tail_lines?: number; since_seconds?: number; previous?: boolean; max_bytes?: number };
    const whole = selection(args.previous ? c.previous! : c.log, {
      tailLines: args.since_seconds === undefined || args.tail_lines !== undefined ? (args.tail_lines ?? 200) : undefined,
      sinceSeconds: args.since_seconds,
      previous: args.previous === true,
    }).toString('utf8');

    expect(log).not.toContain('\uFFFD');
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(args.max_bytes ?? 65_536);
    // Fitted to the output caps by the tool itself: the dispatcher's caps (which keep the head) never cut it again.
    expect(String(out.note ?? '')).not.toMatch(/Output cut to fit/);
    if (c.caps?.max_bytes) expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(c.caps.max_bytes);
    expect(out.truncated === true).toBe(c.expect.truncated);

    if (c.expect.endMissing) {
      // The last line alone is longer than a read: its head, said so.
      expect(out.end_missing).toBe(true);
      expect(whole.split('\n').at(-2)!.startsWith(log)).toBe(true);
      expect(String(out.note)).toMatch(/their end was not read/);
      return;
    }
    expect(out.end_missing).toBeUndefined();
    expect(log.endsWith(c.expect.endsWith)).toBe(true);
    // The kept log is the selection's end, exactly.
    expect(whole.endsWith(log)).toBe(true);
    if (!c.expect.truncated) {
      expect(log).toBe(whole);
      return;
    }
    const head = whole.slice(0, whole.length - log.length);
    const droppedLines = (head.match(/\n/g) ?? []).length;
    const droppedBytes = Buffer.byteLength(head);
    const dropped = out.dropped as Record<string, unknown>;
    // Cut at a line boundary, unless the first kept line is the end of one longer than the bound.
    expect(head.endsWith('\n')).toBe(!c.expect.midLine);
    expect(dropped.first_line_partial).toBe(c.expect.midLine);
    if (c.expect.dropped === 'exact') {
      expect(dropped).toMatchObject({ lines: droppedLines, bytes: droppedBytes });
    } else {
      expect(dropped.lines_at_least).toBeGreaterThan(0);
      expect(dropped.lines_at_least).toBeLessThanOrEqual(droppedLines);
      expect(dropped.bytes_at_least).toBeGreaterThan(0);
      expect(dropped.bytes_at_least).toBeLessThanOrEqual(droppedBytes);
    }
    expect(out.kept).toEqual({ lines: log.split('\n').length - (log.endsWith('\n') ? 1 : 0), bytes: Buffer.byteLength(log) });
    // The note says the end was kept and how to get a result that is not cut, or more of it.
    expect(String(out.note)).toMatch(/kept its END/);
    expect(String(out.note)).toMatch(/max_bytes/);
  });
});
