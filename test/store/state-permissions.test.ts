// Every file core-agent keeps in its state directory is 0600 and every directory 0700,
// whatever the umask (022 here, the usual one): transcripts, tokens, registration ids and
// prompts are the user's alone. The state a real run leaves is walked and each entry
// stat'ed — the session database with its -wal and -shm (listed from inside the run, while
// they exist), the process-group record of the running command, the pending-writes
// journal, an MCP OAuth record, the peer registry, the REPL's history.
// Then a database an older core-agent made 0644, which is tightened when opened.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { TerminalSession, hasTmux } from '../cli/terminal-session.ts';
import { bundle, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CC_CLIENT, startOAuthMcpServer, type OAuthMcpServer } from '../mcp/oauth-server.ts';

let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => void process.umask(umask));

/** Every entry under `dir` (itself included): its path relative to `root` and its permission bits. */
function walk(dir: string, root: string): Array<{ entry: string; dir: boolean; mode: number }> {
  const st = statSync(dir);
  const here = { entry: path.relative(root, dir) || '.', dir: true, mode: st.mode & 0o777 };
  return [
    here,
    ...readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      return e.isDirectory() ? walk(p, root) : [{ entry: path.relative(root, p), dir: false, mode: statSync(p).mode & 0o777 }];
    }),
  ];
}

const octal = (n: number) => n.toString(8).padStart(4, '0');
const modes = (entries: Array<{ entry: string; dir: boolean; mode: number }>) => entries.map((e) => `${octal(e.mode)} ${e.entry}`);
const wanted = (entries: Array<{ entry: string; dir: boolean; mode: number }>) =>
  entries.map((e) => `${octal(e.dir ? 0o700 : 0o600)} ${e.entry}`);

describe('the state directory a real run leaves', () => {
  let oauth: OAuthMcpServer;
  const children: ChildProcessWithoutNullStreams[] = [];
  afterAll(async () => {
    await oauth?.close();
    for (const c of children) c.kill('SIGKILL');
  });

  it('holds only 0600 files in 0700 directories', { timeout: 180_000 }, async () => {
    oauth = await startOAuthMcpServer();
    const root = await tempDir();
    const ws = path.join(root, 'ws');
    const state = path.join(root, 'xdg-state');
    const mine = path.join(state, 'core-agent');
    mkdirSync(ws);
    const env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: state, CC_SECRET: CC_CLIENT.secret };
    const recipe = path.join(ws, 'recipe.json');
    writeFileSync(
      recipe,
      JSON.stringify({
        mcp: {
          servers: {
            secure: { url: oauth.url, oauth: { grant: 'client_credentials', client_id: CC_CLIENT.id, client_secret_env: 'CC_SECRET' } },
          },
        },
      }),
    );
    const hubRecipe = path.join(ws, 'hub.json');
    writeFileSync(hubRecipe, JSON.stringify({ peers: { hub: true, private_hosts: ['127.0.0.1'] }, attach: { listen: '127.0.0.1:0' } }));
    const live = path.join(ws, 'live.txt');
    const script = path.join(ws, 'script.jsonl');
    writeFileSync(
      script,
      [
        { tool_calls: [{ name: 'write_file', args: { path: 'out.txt', content: 'x\n' } }] },
        // Listed from inside the run: the database is open (-wal, -shm) and this command's group is recorded.
        {
          tool_calls: [
            {
              name: 'bash',
              args: {
                // Once this command's group record is there (written right after the spawn).
                command: `cd ${state} && for i in $(seq 100); do ls core-agent/process-groups/*.json >/dev/null 2>&1 && break; sleep 0.1; done; stat -c '%a %F %n' * */* */*/* > ${live} 2>/dev/null; true`,
              },
            },
          ],
        },
        { tool_calls: [{ name: 'secure_whoami', args: {} }] },
        { text: 'done' },
      ]
        .map((s) => JSON.stringify(s))
        .join('\n'),
    );

    // 1. A run: the default session database (under the state directory), an OAuth login, a write, a command.
    const run = await runCli(['run', '-m', `replay:${script}`, '--yolo', '-c', recipe, '-w', ws, 'go'], ws, env);
    expect(run.code, run.stderr).toBe(0);
    const during = readFileSync(live, 'utf8').trim().split('\n');
    // "%a %F %n": the mode in octal, the type in words (directory, regular file, regular empty file), the name.
    const listed = during.map((l) => /^(\d+) (directory|regular (?:empty )?file) (.+)$/.exec(l));
    expect(listed.every(Boolean), during.join('\n')).toBe(true);
    const seen = listed.map((m) => m![3]!);
    for (const expected of [
      'core-agent/sessions.db',
      'core-agent/sessions.db-wal',
      'core-agent/sessions.db-shm',
      'core-agent/mcp-oauth/secure.json',
    ])
      expect(seen, during.join('\n')).toContain(expected);
    expect(
      seen.some((s) => /^core-agent\/process-groups\/\d+-\d+\.json$/.test(s)),
      during.join('\n'),
    ).toBe(true);
    expect(seen).toContain('core-agent/pending-writes');
    const wrong = listed.filter((m) => m![1] !== (m![2] === 'directory' ? '700' : '600')).map((m) => m![0]);
    expect(wrong, 'entries while the run was live').toEqual([]);

    // 2. serve as a peer hub: the registry's file, with the database open beside it.
    const serve = spawn(process.execPath, [bundle, 'serve', '-c', hubRecipe, '-w', ws, '-m', `replay:${script}`], {
      cwd: ws,
      env: { PATH: process.env.PATH, ...env },
    });
    children.push(serve);
    let out = '';
    serve.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      serve.stdout.on('data', () => {
        const m = /attach API on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      serve.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const registered = await fetch(`${url}/peers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'peer-1', endpoint: 'http://127.0.0.1:9' }),
    });
    expect(registered.status).toBe(201);
    const whileServing = walk(mine, mine);
    expect(whileServing.map((e) => e.entry)).toContain('peers.json');
    expect(modes(whileServing)).toEqual(wanted(whileServing));
    await new Promise<void>((resolve) => {
      serve.once('close', () => resolve());
      serve.kill('SIGTERM');
    });

    // 3. The REPL's history (kept only for a terminal).
    if (hasTmux) {
      const t = new TerminalSession(ws, ['repl', '-m', `replay:${script}`, '-w', ws], { ...env, PATH: process.env.PATH ?? '' });
      try {
        await t.until('\n›');
        t.type('/exit');
        await t.until('exited 0');
      } finally {
        t.close();
      }
      expect(readdirSync(path.join(mine, 'history'))).toHaveLength(1);
    }

    // 4. What is left.
    const after = walk(state, state);
    expect(after.map((e) => e.entry)).toEqual(expect.arrayContaining(['core-agent/sessions.db', 'core-agent/mcp-oauth/secure.json']));
    expect(modes(after)).toEqual(wanted(after));
  });
});

describe('a session database an older core-agent left readable by others', () => {
  it('is tightened to 0600 when opened, with its -wal and -shm; a directory that exists is left as it is', async () => {
    const dir = path.join(await tempDir(), 'shared');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'sessions.db');
    // The first open writes the schema: the -wal and -shm exist while it stays open.
    const older = EventLog.open(file);
    try {
      const files = ['', '-wal', '-shm'].map((suffix) => file + suffix);
      expect(
        files.every((f) => existsSync(f)),
        'the database, its -wal and -shm',
      ).toBe(true);
      for (const f of files) chmodSync(f, 0o644);
      const reopened = EventLog.open(file);
      reopened.close();
      expect(files.map((f) => `${octal(statSync(f).mode & 0o777)} ${path.basename(f)}`)).toEqual([
        '0600 sessions.db',
        '0600 sessions.db-wal',
        '0600 sessions.db-shm',
      ]);
      // Not made by core-agent: the user's choice (docs/sessions.md).
      expect(octal(statSync(dir).mode & 0o777)).toBe('0755');
    } finally {
      older.close();
    }
  });
});
