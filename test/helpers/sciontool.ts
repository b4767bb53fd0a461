import { chmod, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './workspace.ts';

const standIn = fileURLToPath(new URL('../fixtures/scion/sciontool.mjs', import.meta.url));

/** A directory holding an executable `sciontool` (the recording stand-in) run by this Node, and where it records. */
export async function installSciontool(): Promise<{ bin: string; record: string; calls(): Promise<Array<Record<string, any>>> }> {
  const bin = await tempDir('core-agent-scion-bin-');
  const record = path.join(await tempDir('core-agent-scion-record-'), 'calls.jsonl');
  await writeFile(path.join(bin, 'sciontool'), `#!${process.execPath}\n${await readFile(standIn, 'utf8')}`);
  await chmod(path.join(bin, 'sciontool'), 0o755);
  return {
    bin,
    record,
    calls: async () =>
      (await readFile(record, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>),
  };
}

/** A fake Scion hub on 127.0.0.1 that keeps every status it is sent, and answers with `status`. */
export async function fakeHub(status = 200): Promise<{ url: string; received: Array<Record<string, unknown>>; close(): Promise<void> }> {
  const received: Array<Record<string, unknown>> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({ method: req.method, path: req.url, ...(JSON.parse(body || '{}') as Record<string, unknown>) });
      res.writeHead(status, { 'content-type': 'application/json' }).end(status < 400 ? '{}' : '{"error":"down"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(() => r())) };
}

/** A URL on 127.0.0.1 where nothing listens (a port that was free a moment ago): a hub that cannot be reached. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}
