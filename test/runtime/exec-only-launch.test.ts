// Each case of exec-only-launch.cases.ts, planned and started as an unprivileged uid by the
// fixture launch-plans.ts (all cases in one start of node), and the copies the plans made.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseShebang } from '../../src/runtime/exec-only-launch.ts';
import { LAUNCH_CASES, type LaunchCase } from './exec-only-launch.cases.ts';

const driver = fileURLToPath(new URL('../fixtures/exec-only/launch-plans.ts', import.meta.url));
const isRoot = process.getuid?.() === 0;
/** Who starts the programs: nobody when the test is root, else the test's own uid. */
const RUNNER = isRoot ? 65534 : process.getuid!();
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
const unable =
  process.platform !== 'linux' || !existsSync('/proc/self/environ')
    ? 'Linux /proc only'
    : isRoot && !hasSetpriv
      ? 'running as root without setpriv (util-linux) to drop to an unprivileged uid'
      : undefined;
if (unable) console.warn(`exec-only-launch.test.ts: skipped: ${unable}`);

interface Result {
  plan: { file: string; argv0: string; args: string[]; guard: { exec_only: boolean; from?: string; reason?: string } };
  stdout: string;
  stderr: string;
  status: number | null;
  error?: string;
}

let base: string;
/** Where the copies go: $XDG_STATE_HOME/core-agent/exec-only of the runner. */
let copies: string;

beforeAll(async () => {
  if (unable) return;
  base = await mkdtemp(path.join(tmpdir(), 'core-agent-exec-only-'));
  await chmod(base, 0o755);
  copies = path.join(base, 'state', 'exec-only');
  await mkdir(path.dirname(copies), { mode: 0o700 });
  await chown(path.dirname(copies), RUNNER, RUNNER);
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** Writes each case's workspace and runs them all through the driver as the runner. */
async function runAll(cases: readonly LaunchCase[]): Promise<Result[]> {
  const programs = [];
  for (const c of cases) {
    const ws = path.join(base, `ws-${randomBytes(4).toString('hex')}`);
    await mkdir(ws, { mode: 0o755 });
    for (const [name, text] of Object.entries(c.files ?? {})) {
      const file = path.join(ws, name);
      await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
      await writeFile(file, text.replaceAll('$NODE', process.execPath), { mode: 0o755 });
    }
    // The node running the tests first, then the workspace (a case finds its script by name), then the system's.
    programs.push({
      command: c.command,
      args: c.args ?? [],
      cwd: ws,
      env: { PATH: `${path.dirname(process.execPath)}:${ws}:/usr/local/bin:/usr/bin:/bin` },
    });
  }
  const drop = isRoot ? ['setpriv', `--reuid=${RUNNER}`, `--regid=${RUNNER}`, '--clear-groups'] : [];
  const argv = [...drop, process.execPath, driver];
  const r = spawnSync(argv[0]!, argv.slice(1), { input: JSON.stringify({ dir: copies, programs }), encoding: 'utf8', timeout: 240_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Result[];
}

/** What the started program said of itself. */
function outcome(r: Result): LaunchCase['runs'] {
  const m = /uid=(\d+)/.exec(r.stdout);
  if (!m) return 'fails';
  return Number(m[1]) === 0 ? 'non-dumpable' : 'dumpable';
}

describe.skipIf(unable !== undefined)('stdio servers started from execute-only copies', () => {
  const cases = LAUNCH_CASES.filter((c) => c.needs === undefined || existsSync(c.needs));
  for (const c of LAUNCH_CASES) if (!cases.includes(c)) console.warn(`exec-only-launch: "${c.name}" skipped: no ${c.needs}`);
  let results: Result[];

  beforeAll(async () => {
    results = await runAll(cases);
  }, 300_000);

  it.for(cases.map((c, i) => [c.name, i] as const))('%s', ([, i]) => {
    const c = cases[i]!;
    const r = results[i]!;
    const context = JSON.stringify(r).slice(0, 1500);
    expect(r.plan.guard.exec_only, context).toBe(c.guarded);
    if (c.reason) expect(r.plan.guard.reason, context).toMatch(c.reason);
    expect(outcome(r), context).toBe(c.runs);
  });

  it('each copy is execute-only, the runner’s, and made once per program however many servers use it', async () => {
    const made = (await readdir(copies)).filter((f) => f.startsWith('bin-'));
    // stat, node, python3 (where it is), sh: one copy each, although several cases ran each.
    const names = made.map((f) => f.replace(/-[0-9a-f]{8}$/, ''));
    expect(new Set(names).size, made.join(' ')).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['bin-stat', expect.stringMatching(/^bin-node/), expect.stringMatching(/^bin-(dash|bash|sh)$/)]),
    );
    for (const f of made) {
      const st = await stat(path.join(copies, f));
      expect({ f, mode: st.mode & 0o777, uid: st.uid }).toEqual({ f, mode: 0o100, uid: RUNNER });
    }
    // No temporary file is left behind.
    expect((await readdir(copies)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a second start reuses the copy; a copy of an older build of the program goes once an hour old', async () => {
    const before = (await readdir(copies)).find((f) => f.startsWith('bin-stat-'))!;
    const inode = (await stat(path.join(copies, before))).ino;
    // An older build of stat, as an upgrade would leave: same name, another hash, two hours old.
    const stale = path.join(copies, 'bin-stat-00000000');
    await writeFile(stale, 'old build');
    const twoHoursAgo = new Date(Date.now() - 7200_000);
    await utimes(stale, twoHoursAgo, twoHoursAgo);
    const [again] = await runAll([LAUNCH_CASES[0]!]);
    expect(outcome(again!)).toBe('non-dumpable');
    expect(again!.plan.file).toBe(path.join(copies, before));
    expect((await stat(path.join(copies, before))).ino).toBe(inode);
    // Not pruned when the copy was reused (pruning follows a new copy only): made again, it goes.
    await rm(path.join(copies, before));
    await runAll([LAUNCH_CASES[0]!]);
    expect(existsSync(stale)).toBe(false);
  });

  it('a program the runner may execute but not read is started as given, not copied again', async () => {
    const own = (await readdir(copies)).find((f) => f.startsWith('bin-stat-'))!;
    const [r] = await runAll([{ ...LAUNCH_CASES[1]!, command: path.join(copies, own) }]);
    expect(r!.plan).toMatchObject({ file: path.join(copies, own), guard: { exec_only: true, from: path.join(copies, own) } });
    expect(outcome(r!)).toBe('non-dumpable');
  });
});

describe('#! lines, read as Linux and env read them', () => {
  const line = (text: string) => parseShebang(Buffer.from(text), '/nonexistent-path-dir', '/ws');
  it.for([
    ['#!/bin/sh\n', { file: '/bin/sh', argv0: '/bin/sh', args: [] }],
    ['#!  /bin/sh   \n', { file: '/bin/sh', argv0: '/bin/sh', args: [] }],
    ['#!/usr/bin/python3 -u -B\n', { file: '/usr/bin/python3', argv0: '/usr/bin/python3', args: ['-u -B'] }],
    // The kernel strips spaces and tabs, not a CR: the interpreter "/bin/sh\r" does not exist, as there.
    ['#!/bin/sh\r\n', { file: '/bin/sh\r', argv0: '/bin/sh\r', args: [] }],
    ['#!./interp\n', { file: '/ws/interp', argv0: './interp', args: [] }],
    ['#!/bin/sh', { file: '/bin/sh', argv0: '/bin/sh', args: [] }],
  ] as const)('%j', ([text, want]) => {
    expect(line(text)).toEqual(want);
  });
  it.for([
    ['#!\n', /names no interpreter/],
    ['no shebang', /neither a compiled program/],
    ['#!/usr/bin/env node\n', /node is not on the server's PATH/],
    ['#!/usr/bin/env -S\n', /env options or variables/],
    ['#!/usr/bin/env --\n', /env options or variables/],
  ] as const)('%j is refused', ([text, why]) => {
    expect(line(text)).toMatch(why);
  });
});
