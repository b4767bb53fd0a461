import { spawnSync } from 'node:child_process';
import { cp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/tools/index.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(root, 'dist/core-agent.mjs');

/** Run the built bundle as a user would; `npm test` builds it first. */
function run(args: string[], opts: { cwd?: string; input?: string; bin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [opts.bin ?? bundle, ...args], {
    cwd: opts.cwd ?? root,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('core-agent CLI (the bundle)', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(run(['--version'])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each([
    ['--help'],
    ['tools', '--help'],
    ['tools', 'list', '--help'],
    ['tools', 'call', '--help'],
    ['recipe', '--help'],
    ['recipe', 'validate', '--help'],
    ['recipe', 'schema', '--help'],
  ])('%s … prints usage and exits 0', (...args) => {
    const r = run(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: core-agent/);
  });

  it('usage errors exit 2 with a hint', () => {
    expect(run([]).code).toBe(2);
    const unknown = run(['tols']);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toMatch(/unknown command "tols" — did you mean "tools"\?/);
    const flag = run(['tools', 'list', '--jsn']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--jsn.*\n.*core-agent tools list --help/s);
    expect(run(['tools', 'call']).code).toBe(2);
    expect(run(['tools', 'call', 'read_file', '{bad json']).code).toBe(2);
    expect(run(['tools', 'call', 'read_file', '{}', '--mode', 'plan', '--yolo']).code).toBe(2);
    expect(run(['tools', 'call', 'read_file', '{}', '--mode', 'sometimes']).stderr).toMatch(/unknown permission mode "sometimes"/);
  });

  it('tools list --json is the model-facing contract (snapshot)', async () => {
    const r = run(['tools', 'list', '--json'], { cwd: await tempDir() });
    expect(r.code).toBe(0);
    // The names, descriptions and schemas are all in the snapshot; here only that no name repeats.
    const names = (JSON.parse(r.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    await expect(r.stdout).toMatchFileSnapshot('__snapshots__/tools-list.json');
  });

  it('started from a removed directory: one sentence and exit 2, no stack; with -w it works', async () => {
    const parent = await tempDir();
    // The shell enters the directory and removes it, then becomes core-agent: its cwd is gone.
    const inGone = (args: string) =>
      spawnSync('/bin/sh', ['-c', `mkdir gone && cd gone && rmdir ../gone && exec "$NODE" "$BUNDLE" ${args}`], {
        cwd: parent,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: parent, NODE: process.execPath, BUNDLE: bundle },
      });
    const r = inGone('tools list');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('core-agent: the current directory no longer exists; cd to a directory or pass -w DIR\n');
    expect(r.stdout).toBe('');
    const withW = inGone(`tools list --json -w "${parent}"`);
    expect(withW.status).toBe(0);
    expect((JSON.parse(withW.stdout) as unknown[]).length).toBeGreaterThan(5);
  });

  it('tools list shows a table, and --disable-tools removes tools', () => {
    const r = run(['tools', 'list', '--disable-tools', 'write_file,edit_file', '--disable-tools', 'delete_file']);
    expect(r.stdout).toMatch(/^NAME\s+READ-ONLY\s+DESCRIPTION\n/);
    expect(r.stdout).not.toMatch(/write_file|edit_file|delete_file/);
    expect(run(['tools', 'list', '--disable-tools', 'gerp']).stderr).toMatch(/did you mean "grep"/);
  });

  it('tools call prints the result JSON and exits 0', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'one\ntwo\n' });
    const r = run(['tools', 'call', 'read_file', '{"path": "a.txt", "limit": 1}', '--workspace', ws]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: 'a.txt', content: 'one\n', start_line: 1, end_line: 1, total_lines: 2, next_offset: 2 });
  });

  it('tools call takes the arguments from stdin with "-"', async () => {
    const ws = await tempDir();
    const r = run(['tools', 'call', 'write_file', '-', '--yolo'], { cwd: ws, input: '{"path": "n.txt", "content": "hi"}' });
    expect(r.code).toBe(0);
    expect(await readFile(path.join(ws, 'n.txt'), 'utf8')).toBe('hi');
  });

  it('a refusal prints {"error": …} and exits 1', async () => {
    const ws = await tempDir();
    const r = run(['tools', 'call', 'write_file', '{"path": "x.txt", "content": "x"}'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatch(/permission denied: write_file needs approval/);
    const unknown = run(['tools', 'call', 'fetch_url', '{}'], { cwd: ws });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toMatch(/fetch_url is not registered: permissions\.url_scope\.allow is empty/);
  });

  it('edit_file writes "$&$1$$" literally', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'f.txt': 'before PLACEHOLDER after\n' });
    const r = run(
      ['tools', 'call', 'edit_file', JSON.stringify({ path: 'f.txt', old_string: 'PLACEHOLDER', new_string: '$&$1$$' }), '--yolo'],
      { cwd: ws },
    );
    expect(r.code).toBe(0);
    expect(await readFile(path.join(ws, 'f.txt'), 'utf8')).toBe('before $&$1$$ after\n');
  });

  it('grep with (a+)+$ over one 100 KB line answers (linear-time engine)', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'long.txt': `${'a'.repeat(100_000)}b` });
    const r = run(['tools', 'call', 'grep', '{"pattern": "(a+)+$", "path": "long.txt"}'], { cwd: ws });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ count: 0, matches: [] });
  });

  it('read_file through a symlink that leaves the workspace is refused, naming path_scope', async () => {
    const ws = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret'), 'top secret');
    await symlink(path.join(outside, 'secret'), path.join(ws, 'innocent.txt'));
    const r = run(['tools', 'call', 'read_file', '{"path": "innocent.txt"}', '--yolo'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatch(/outside path_scope/);
    expect(r.stdout).not.toContain('top secret');
  });

  it('recipe validate: ok exits 0; a misspelt key prints file:line:col, a suggestion, exits 2', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'good.yaml'), 'tools:\n  disable: [write_file]\n');
    const good = run(['recipe', 'validate', 'good.yaml'], { cwd: dir });
    expect(good.code).toBe(0);
    // The summary lists the registered tools in catalog order (families, then file names), write_file left out.
    const listed = /^good\.yaml: ok\n {2}tools \((\d+), dialect core-agent\): (.+)$/m.exec(good.stdout);
    expect(listed, good.stdout).not.toBeNull();
    const names = listed![2]!.split(', ');
    expect(names).toHaveLength(Number(listed![1]));
    expect(names).toContain('read_file');
    expect(names).not.toContain('write_file');
    const at = names.map((n) => BUILTIN_TOOL_NAMES.indexOf(n));
    expect(at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1]!))).toBe(true);
    await writeFile(path.join(dir, 'bad.yaml'), 'tools:\n  disable: []\ntool_outptu:\n  max_bytes: 1\n');
    const bad = run(['recipe', 'validate', 'bad.yaml'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bad.yaml:3:1: unknown key "tool_outptu" — did you mean "tool_output"\?/);
  });

  it('recipe schema prints a JSON Schema', () => {
    const r = run(['recipe', 'schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'core-agent recipe', type: 'object', additionalProperties: false });
  });

  it('a recipe given with -c applies: caps and disabled tools', async () => {
    const ws = await tempDir();
    await writeTree(ws, {
      'r.yaml': 'tools:\n  disable: [grep]\ntool_output:\n  per_tool:\n    read_file: { max_lines: 2 }\n',
      'a.txt': '1\n2\n3\n4\n',
    });
    const r = run(['tools', 'call', 'read_file', '{"path": "a.txt"}', '-c', 'r.yaml'], { cwd: ws });
    expect(JSON.parse(r.stdout)).toMatchObject({ content: '1\n2\n', truncated: true, next_offset: 3 });
    expect(JSON.parse(run(['tools', 'call', 'grep', '{"pattern": "1"}', '-c', 'r.yaml'], { cwd: ws }).stdout).error).toMatch(
      /grep is not registered: it is turned off here \(tools\.disable in the recipe/,
    );
  });

  it('the bundle needs no node_modules: it runs from a copy elsewhere, with rg beside it or without', async () => {
    const dir = await tempDir();
    await cp(path.join(root, 'dist'), dir, { recursive: true });
    const ws = await tempDir();
    await writeTree(ws, { 'src/a.ts': 'const needle = 1;\n', 'data.json': '{"x": [1, 2]}' });
    const bin = path.join(dir, 'core-agent.mjs');
    const grep = run(['tools', 'call', 'grep', '{"pattern": "needle"}'], { cwd: ws, bin });
    expect(JSON.parse(grep.stdout).matches).toEqual([{ path: 'src/a.ts', line: 1, text: 'const needle = 1;' }]);
    expect(
      JSON.parse(run(['tools', 'call', 'json_query', '{"expression": ".x | add", "path": "data.json"}'], { cwd: ws, bin }).stdout),
    ).toEqual({
      count: 1,
      results: [3],
    });
    await rm(path.join(dir, 'rg'));
    const fallback = run(['tools', 'call', 'grep', '{"pattern": "needle"}'], { cwd: ws, bin });
    expect(JSON.parse(fallback.stdout).matches).toEqual([{ path: 'src/a.ts', line: 1, text: 'const needle = 1;' }]);
  });

  it('logs go to stderr as JSON lines, never stdout', async () => {
    const ws = await tempDir();
    const r = run(['tools', 'call', 'stat', '{"path": "."}', '--log-level', 'info'], { cwd: ws });
    expect(r.code).toBe(0);
    JSON.parse(r.stdout);
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toContain('tool call');
  });
});
