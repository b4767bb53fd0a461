import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUsersFile } from '../../src/attach/users-file.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { bundle, runCli } from '../helpers/cli.ts';
import { call, eventually, readSse } from './daemon.ts';
import { ACCESS_CASES, SESSIONS, SHARED_SKILLS, TOOL_CASES, USERS, type AccessCase, type Sid, type Who } from './principals.cases.ts';

// The runner of principals.cases.ts: one `core-agent serve` process on 127.0.0.1 with a users
// file, a recipe (attach.workspace: per_user, attach.incident_access) and a replay model.

const tokenOf = (who: Who) => `${who}-token-${'x'.repeat(20)}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Half the users give their token by variable, half by sha256: both paths are exercised. */
function usersFile(): string {
  const rows = Object.entries(USERS).map(([name, u], i) => {
    const token = i % 2 === 0 ? `token_env: TOKEN_${name.toUpperCase()}` : `token_sha256: ${sha256(tokenOf(name as Who))}`;
    const extra = Object.entries(u).map(([k, v]) => `${k}: ${String(v)}`);
    return `  - { name: ${name}, ${[token, ...extra].join(', ')} }`;
  });
  return `version: 1\nusers:\n${rows.join('\n')}\n`;
}

const RECIPE = `attach:
  listen: 127.0.0.1:0
  workspace: per_user
  incident_access:
    viewers: [group:green]
`;

interface Served {
  dir: string;
  db: string;
  url: string;
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  script(steps: readonly object[]): void;
}

let served: Served;
const ids = new Map<Sid, string>();

/** An incident session as watch records one: its session_start names the service principal. */
function incidentSession(db: string, workspace: string): string {
  const log = EventLog.open(db);
  try {
    const sid = log.createSession({ model: 'replay', workspace, title: 'incident: pod web-1 BackOff' });
    log.append(sid, 0, 'session_start', {
      model: 'replay',
      workspace,
      tools: [],
      principal: { name: 'core-agent-service', service: true },
    });
    return sid;
  } finally {
    log.close();
  }
}

async function serve(): Promise<Served> {
  const dir = mkdtempSync(path.join(tmpdir(), 'principals-'));
  const db = path.join(dir, 'sessions.db');
  const scriptFile = path.join(dir, 'script.jsonl');
  const script = (steps: readonly object[]) => writeFileSync(scriptFile, steps.map((s) => JSON.stringify(s)).join('\n') + '\n');
  script(Array.from({ length: 30 }, () => ({ text: 'ok' })));
  writeFileSync(path.join(dir, 'users.yaml'), usersFile(), { mode: 0o600 });
  writeFileSync(path.join(dir, 'recipe.yaml'), RECIPE);
  ids.set('I', incidentSession(db, dir));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir };
  for (const name of Object.keys(USERS)) env[`TOKEN_${name.toUpperCase()}`] = tokenOf(name as Who);
  const args = ['serve', '--listen', '127.0.0.1:0', '--users-file', 'users.yaml', '-c', 'recipe.yaml', '-m', `replay:${scriptFile}`];
  const child = spawn(process.execPath, [bundle, ...args, '--session-db', db, '--yolo'], { cwd: dir, env });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const url = await eventually(() => /attach API on (http:\/\/\S+)/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : null), 60_000);
  if (url === 'exited') throw new Error(`serve exited: ${err}`);
  return { dir, db, url, child, out: () => out, err: () => err, script };
}

async function create(owner: Who, lists: { viewers: readonly string[]; contributors: readonly string[] }): Promise<string> {
  const made = await call(served.url, 'POST', '/sessions', { token: tokenOf(owner) });
  expect(made.status).toBe(201);
  const sid = String(made.json!.sessionID);
  const patched = await call(served.url, 'PATCH', `/sessions/${sid}/acl`, {
    token: tokenOf(owner),
    body: { viewers: lists.viewers, contributors: lists.contributors },
  });
  expect(patched.status).toBe(200);
  return sid;
}

/** One request; an SSE stream's status is read and the stream dropped. */
async function request(c: AccessCase, p: string): Promise<{ status: number; json: Record<string, unknown> | null }> {
  if (c.method === 'GET' && /\/(events|perms\/stream)(\?|$)/.test(p)) {
    const controller = new AbortController();
    const res = await fetch(served.url + p, { headers: { authorization: `Bearer ${tokenOf(c.who)}` }, signal: controller.signal });
    const json = res.status === 200 ? null : ((await res.json()) as Record<string, unknown>);
    controller.abort();
    return { status: res.status, json };
  }
  return call(served.url, c.method, p, { token: tokenOf(c.who), ...(c.body !== undefined ? { body: c.body } : {}) });
}

beforeAll(async () => {
  served = await serve();
  for (const [key, s] of Object.entries(SESSIONS)) ids.set(key as Sid, await create(s.owner, s));
  // The skills a group and a tenant share (read-only roots under the state directory).
  const state = path.join(served.dir, '.local', 'state', 'core-agent');
  for (const [root, name] of Object.entries(SHARED_SKILLS)) {
    const dir = path.join(state, root, 'skills', name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Shared by ${root}.\n---\n\n# ${name}\n`);
  }
}, 120_000);

afterAll(async () => {
  if (served.child.exitCode === null)
    await new Promise<void>((resolve) => {
      served.child.once('close', () => resolve());
      served.child.kill('SIGTERM');
    });
});

describe('two principals through the attach daemon: who may see and drive which session', () => {
  it.each(ACCESS_CASES.map((c) => [`${c.who} ${c.method} ${c.path} → ${c.status}`, c] as const))('%s', async (_, c) => {
    let p = c.path;
    if (p.includes('{fresh}')) ids.set('fresh', await create('alice', SESSIONS.A));
    p = p.replace(/\{(\w+)\}/g, (_m, key: string) => ids.get(key as Sid) ?? `unknown-${key}`);
    const r = await request(c, p);
    expect({ status: r.status, body: r.json }).toMatchObject({ status: c.status });
    if (c.error) expect(String(r.json?.error)).toMatch(c.error);
    if (c.json) expect(r.json).toMatchObject(c.json);
    if (c.lists) {
      const listed = (r.json!.sessions as Array<{ sessionID: string }>).map((s) => s.sessionID);
      const known = [...ids].filter(([k]) => k !== 'fresh');
      const named = listed.map((sid) => known.find(([, v]) => v === sid)?.[0] ?? `other:${sid}`);
      expect(named.filter((n) => !n.startsWith('other:') || c.who === 'root').sort()).toEqual([...c.lists].sort());
    }
  });

  it('a 403 and a 404 never echo a token; a wrong token is a 401', async () => {
    const r = await call(served.url, 'GET', '/sessions', { token: 'not-a-token' });
    expect(r.status).toBe(401);
  });

  it('the ACL is in the log: a restarted daemon keeps it', async () => {
    await new Promise<void>((resolve) => {
      served.child.once('close', () => resolve());
      served.child.kill('SIGTERM');
    });
    const log = EventLog.open(served.db);
    const acl = log
      .events(ids.get('A')!)
      .filter((e) => e.kind === 'operator' && e.data.action === 'acl')
      .at(-1);
    log.close();
    expect(acl?.data).toMatchObject({ principal: 'alice', viewers: ['vic'], contributors: ['carol'] });
    const again = await serveAgain();
    const r = await call(again, 'GET', `/sessions/${ids.get('A')!}/events?since=0`, { token: tokenOf('bob') });
    expect(r.status).toBe(404);
    const v = await call(again, 'GET', `/sessions/${ids.get('A')!}/acl`, { token: tokenOf('alice') });
    expect(v.json).toMatchObject({ owner: 'alice', viewers: ['vic'], contributors: ['carol'] });
  }, 120_000);
});

/** The same daemon over the same files, after a stop. */
async function serveAgain(): Promise<string> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: served.dir };
  for (const name of Object.keys(USERS)) env[`TOKEN_${name.toUpperCase()}`] = tokenOf(name as Who);
  const args = [
    'serve',
    '--listen',
    '127.0.0.1:0',
    '--users-file',
    'users.yaml',
    '-c',
    'recipe.yaml',
    '-m',
    `replay:${served.dir}/script.jsonl`,
  ];
  const child = spawn(process.execPath, [bundle, ...args, '--session-db', served.db, '--yolo'], { cwd: served.dir, env });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  served = { ...served, child, out: () => out };
  const url = await eventually(() => /attach API on (http:\/\/\S+)/.exec(out)?.[1] ?? (child.exitCode !== null ? 'exited' : null), 60_000);
  if (url === 'exited') throw new Error('serve exited on restart');
  served.url = url;
  return url;
}

describe('each session acts in its owner’s home (attach.workspace: per_user)', () => {
  it.each(TOOL_CASES.map((c) => [`${c.who}: ${c.tool} ${JSON.stringify(c.args)} → ${c.ok ? 'ok' : 'refused'}`, c] as const))(
    '%s',
    async (_, c) => {
      served.script([{ tool_calls: [{ name: c.tool, args: c.args }] }, { text: 'done' }]);
      const sid = await create(c.who, { viewers: [], contributors: [] });
      const frames = await readSse(`${served.url}/sessions/${sid}/events`, {
        token: tokenOf(c.who),
        until: (f) => f.some((x) => x.event === 'turn_end' || x.event === 'error'),
        onOpen: () => call(served.url, 'POST', `/sessions/${sid}/inject`, { token: tokenOf(c.who), body: { message: 'go' } }),
        timeoutMs: 60_000,
      });
      const result = frames.find((f) => f.event === 'tool_result')?.data.data as { ok?: boolean; shown?: unknown } | undefined;
      expect(result, JSON.stringify(frames.map((f) => f.event))).toBeDefined();
      expect(result!.ok).toBe(c.ok);
      if (c.shown) expect(JSON.stringify(result!.shown)).toMatch(c.shown);
      if (c.hidden) expect(JSON.stringify(result!.shown)).not.toMatch(c.hidden);
    },
    90_000,
  );

  it('the owner’s workspace is made 0700 under its home', () => {
    const home = path.join(served.dir, '.local', 'state', 'core-agent', 'users');
    expect(readFileSync(path.join(home, 'alice', 'workspace', 'mine.txt'), 'utf8')).toBe('alice was here\n');
    expect(readFileSync(path.join(home, 'bob', 'workspace', 'mine.txt'), 'utf8')).toBe('bob\n');
    expect(statSync(path.join(home, 'alice', 'workspace')).mode & 0o777).toBe(0o700);
  });
});

describe('the users file, refused at start-up (exit 2, one sentence, never a token)', () => {
  const secret = 'sekrit-token-value-123456';
  const base = (rows: string) => `version: 1\nusers:\n${rows}\n`;
  it.each([
    [
      'a duplicate name',
      base(`  - {name: al, token_env: T1_TOKEN}\n  - {name: al, token_env: T2_TOKEN}`),
      0o600,
      /users\.1 \(al\): the name is also users\.0's/,
    ],
    [
      'a duplicate token',
      base(`  - {name: al, token_env: T1_TOKEN}\n  - {name: bo, token_env: T3_TOKEN}`),
      0o600,
      /users\.1 \(bo\): has the same token as al/,
    ],
    ['a missing token', base(`  - {name: al}`), 0o600, /users\.0 \(al\): give exactly one of token_env/],
    ['both token forms', base(`  - {name: al, token_env: T1_TOKEN, token_sha256: ${sha256('x')}}`), 0o600, /give exactly one of token_env/],
    ['an unset variable', base(`  - {name: al, token_env: NOT_SET_TOKEN}`), 0o600, /token_env NOT_SET_TOKEN is not set/],
    ['an unknown field', base(`  - {name: al, token_env: T1_TOKEN, token: ${secret}}`), 0o600, /at users\.0: unknown field "token"/],
    ['a bad name', base(`  - {name: ../al, token_env: T1_TOKEN}`), 0o600, /at users\.0\.name: a letter/],
    [
      'a token variable not named like a credential',
      base(`  - {name: al, token_env: ALICE}`),
      0o600,
      /token_env ALICE is not named like a credential/,
    ],
    ['a bad version', `version: 2\nusers: []\n`, 0o600, /at version: the only version is 1/],
    ['a file others can read', base(`  - {name: al, token_env: T1_TOKEN}`), 0o644, /mode 0644 lets other accounts read it; chmod 600/],
    ['a group-writable file', base(`  - {name: al, token_env: T1_TOKEN}`), 0o660, /mode 0660/],
  ])('%s', async (_, text, mode, want) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'users-file-'));
    const file = path.join(dir, 'users.yaml');
    writeFileSync(file, text);
    chmodSync(file, mode);
    writeFileSync(path.join(dir, 'empty.jsonl'), '{"text":"x"}\n');
    const r = await runCli(['serve', '--listen', '127.0.0.1:0', '--users-file', file, '-m', `replay:${dir}/empty.jsonl`], dir, {
      T1_TOKEN: secret,
      T2_TOKEN: 'other-token-000000',
      T3_TOKEN: secret,
      ALICE: secret,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(want);
    expect(r.stderr).not.toContain(secret);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('0640 is accepted when the file’s group is one of the process’s, refused otherwise', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'users-file-'));
    const file = path.join(dir, 'users.yaml');
    writeFileSync(file, base(`  - {name: al, token_sha256: ${sha256(secret)}, group: ops}`));
    chmodSync(file, 0o640);
    const gid = statSync(file).gid;
    expect(loadUsersFile(file, { env: {}, groups: [gid] })).toEqual([
      { principal: 'al', sha256: sha256(secret), group: 'ops', tenant: undefined, admin: false },
    ]);
    expect(() => loadUsersFile(file, { env: {}, groups: [] })).toThrow(/mode 0640 lets other accounts read it/);
  });
});

describe('a terminal run acts for --user, over CORE_AGENT_USER', () => {
  it.each([
    ['--user wins', ['--user', 'zed'], { CORE_AGENT_USER: 'amy' }, 'zed'],
    ['CORE_AGENT_USER without --user', [], { CORE_AGENT_USER: 'amy' }, 'amy'],
  ])('%s: session_start and sessions show name the user', async (_, flags, env, want) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'run-user-'));
    writeFileSync(path.join(dir, 'script.jsonl'), '{"text":"hi"}\n');
    const db = path.join(dir, 'sessions.db');
    const r = await runCli(['run', ...flags, '-m', `replay:${dir}/script.jsonl`, '--session-db', db, 'hello'], dir, env);
    expect(r.code, r.stderr).toBe(0);
    const log = EventLog.open(db);
    const sid = log.sessions()[0]!.id;
    expect(log.events(sid).find((e) => e.kind === 'session_start')!.data.principal).toEqual({ name: want });
    log.close();
    const shown = await runCli(['sessions', 'show', sid, '--session-db', db], dir, env);
    expect(shown.stdout.split('\n')[0]).toContain(`  user ${want}`);
  });

  it('a bad --user is exit 2 naming the flag', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'run-user-'));
    const r = await runCli(['run', '--user', '../root', '-m', 'replay:/nonexistent', 'hello'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--user "\.\.\/root" is not a valid user name/);
  });
});
