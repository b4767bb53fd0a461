import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';

/**
 * The official MCP conformance suite (the pinned devDependency
 * @modelcontextprotocol/conformance) against `mcp serve --http` and against
 * core-agent as a client (client-wrapper.ts), every scenario of each side. The
 * expected-failures file lists the scenarios that do not apply, with the reason:
 * a listed scenario must fail and any other must pass, so the list stays true.
 * Everything listens on and connects to 127.0.0.1 (the wrapper refuses other hosts).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const wrapper = path.join(here, 'client-wrapper.ts');

type Side = 'server' | 'client';
interface Tally {
  passed: number;
  failed: number;
}

function conformanceBin(): string {
  try {
    const pkg = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
    const bin = (JSON.parse(readFileSync(pkg, 'utf8')) as { bin: Record<string, string> }).bin.conformance!;
    return path.join(path.dirname(pkg), bin);
  } catch {
    throw new Error('@modelcontextprotocol/conformance is not installed: it is a pinned devDependency (npm ci installs it)');
  }
}

/** `SIDE SCENARIO — REASON` lines; # starts a comment. */
export function expectedFailures(): Map<string, string> {
  const out = new Map<string, string>();
  const text = readFileSync(path.join(here, 'expected-failures.txt'), 'utf8');
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(server|client) (\S+) — (.+)$/.exec(line);
    if (!m) throw new Error(`expected-failures.txt:${i + 1}: expected "server|client SCENARIO — REASON", not "${line.slice(0, 80)}"`);
    out.set(`${m[1]} ${m[2]}`, m[3]!);
  }
  return out;
}

/** The suite's summary lines, `✓ name: 2 passed, 0 failed` (ANSI colours removed). */
function tallies(output: string): Map<string, Tally> {
  const out = new Map<string, Tally>();
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  for (const m of plain.matchAll(/^[✓✗] (\S+): (\d+) passed, (\d+) failed/gm)) {
    out.set(m[1]!, { passed: Number(m[2]), failed: Number(m[3]) });
  }
  return out;
}

/** Conformance's own environment: no proxy, so nothing it starts leaves loopback through one. */
const env = (home: string) => ({ PATH: process.env.PATH, HOME: home, NO_COLOR: '1' });

function runSuite(args: string[], home: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [conformanceBin(), ...args], { cwd: home, env: env(home) });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out));
  });
}

/** What does not match the file: a listed scenario that passes, an unlisted one that fails, a listed one that no longer exists. */
function mismatches(side: Side, results: Map<string, Tally>, expected: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [name, t] of results) {
    const listed = expected.has(`${side} ${name}`);
    const ok = t.failed === 0;
    if (listed && ok) problems.push(`${side} ${name} passes now (${t.passed} checks): remove it from expected-failures.txt`);
    if (!listed && !ok) problems.push(`${side} ${name} failed ${t.failed} of ${t.passed + t.failed} checks`);
  }
  for (const key of expected.keys()) {
    const [s, name] = key.split(' ') as [Side, string];
    if (s === side && !results.has(name)) problems.push(`${key} is listed but the suite has no such scenario`);
  }
  return problems;
}

const stops: Array<() => void> = [];
afterAll(() => stops.forEach((s) => s()));

describe('the MCP conformance suite (pinned @modelcontextprotocol/conformance)', () => {
  it('the expected-failures file parses, and names no scenario this build covers', () => {
    const expected = expectedFailures();
    expect(expected.size).toBeGreaterThan(0);
    for (const covered of ['logging-set-level', 'elicitation-sep1034-client-defaults', 'tools_call', 'initialize', 'sse-retry']) {
      expect([...expected.keys()].some((k) => k.endsWith(` ${covered}`))).toBe(false);
    }
  });

  it('server: every applicable scenario passes against mcp serve --http on 127.0.0.1', { timeout: 300_000 }, async () => {
    const ws = await tempDir();
    const child = spawn(process.execPath, [bundle, 'mcp', 'serve', '--http', '127.0.0.1:0', '-w', ws], { cwd: ws, env: env(ws) });
    stops.push(() => child.kill('SIGTERM'));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`mcp serve exited (${code})`)));
    });
    const results = tallies(await runSuite(['server', '--url', url, '--suite', 'active'], ws));
    expect(results.size).toBeGreaterThan(20);
    expect(mismatches('server', results, expectedFailures())).toEqual([]);
  });

  it('client: every applicable scenario passes with core-agent as the client', { timeout: 300_000 }, async () => {
    const ws = await tempDir();
    const command = `${process.execPath} ${wrapper}`;
    const expected = expectedFailures();
    // Every scenario at once (the suite runs them in parallel) names them all and settles the listed ones;
    const results = tallies(await runSuite(['client', '--suite', 'all', '--command', command], ws));
    expect(results.size).toBeGreaterThan(20);
    // the applicable ones run again one at a time, since sse-retry measures the client's reconnect delay,
    // which two cores busy with 26 scenarios at once can stretch past its tolerance.
    for (const name of [...results.keys()].filter((n) => !expected.has(`client ${n}`))) {
      const out = await runSuite(['client', '--scenario', name, '--command', command], ws);
      const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out.replace(/\x1b\[[0-9;]*m/g, ''));
      results.set(name, m ? { passed: Number(m[1]), failed: Number(m[3]) } : { passed: 0, failed: 1 });
    }
    expect(mismatches('client', results, expected)).toEqual([]);
  });

  it('the client wrapper refuses a server that is not on loopback, before connecting anywhere', () => {
    const r = spawnSync(process.execPath, [wrapper, 'http://example.com/mcp'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('refusing example.com');
  });
});
