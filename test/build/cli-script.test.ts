// The CLI's file as the build writes it (scripts/bundle/esbuild-options.mjs, cliScriptOptions and
// finishCliScript): a script whose first line names its content, one function expression that
// node:vm compiles and src/startup/cli-script.ts calls; and the build's refusals.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNKS_FILE, CLI_FILE, finishCliScript, TOOLS_FILE } from '../../scripts/bundle/esbuild-options.mjs';
import { toolFamilyFiles } from '../../scripts/bundle/tool-family.mjs';
import { runCli } from '../helpers/cli.ts';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cli-script-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each([CLI_FILE, TOOLS_FILE])('dist’s script %s', (name) => {
  it('starts with its content’s sha-256, is ASCII, and is one function expression taking (module, require, url)', async () => {
    const text = await readFile(path.join(root, 'dist', name), 'latin1');
    const [first, ...rest] = text.split('\n');
    const body = rest.join('\n');
    expect(first).toBe(`//core-agent-cli ${createHash('sha256').update(body).digest('hex')}`);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    const fn = new Script(text).runInThisContext() as (...args: unknown[]) => void;
    expect(typeof fn).toBe('function');
    expect(fn.length).toBe(3);
    expect(body.startsWith('(function (module, require, __coreAgentCliUrl) {"use strict";')).toBe(true);
  });
});

describe('dist’s tools script', () => {
  // src/cli/start-tools.ts: what `tools list` reaches, no other command's module, and zod in a
  // chunk (scripts/bundle/listing-zod.mjs); the whole CLI keeps zod in its script.
  it('holds the tools command and none of the others, and no zod of its own', async () => {
    const map = JSON.parse(await readFile(path.join(root, 'dist', `${TOOLS_FILE}.map`), 'utf8')) as { sources: string[] };
    const cli = map.sources.filter((s) => s.startsWith('../src/cli/')).map((s) => s.slice('../src/cli/'.length));
    expect(cli).toContain('tools-command.ts');
    for (const other of [
      'run-command.ts',
      'repl.ts',
      'watch-command.ts',
      'serve-command.ts',
      'sessions-command.ts',
      'mcp-command.ts',
      'commands.ts',
    ])
      expect(cli).not.toContain(other);
    expect(map.sources.filter((s) => s.includes('node_modules/zod/'))).toEqual([]);
    // No agent and no watcher: tools-command.ts builds through runtime/tools-system.ts alone.
    for (const step of ['runtime/system.ts', 'runtime/agent-system.ts', 'runtime/watch-step.ts', 'agent/agent.ts'])
      expect(map.sources).not.toContain(`../src/${step}`);
    // No tool's module (scripts/bundle/tool-family.mjs, listingLoad): a tool with settings brings
    // only its settings, as a head module of their own.
    const toolFiles = readdirSync(path.join(root, 'src/tools'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => toolFamilyFiles(path.join(root, 'src/tools', d.name)))
      .map((f) => `../${path.relative(root, f)}`);
    expect(toolFiles.length).toBeGreaterThan(40);
    expect(map.sources.filter((s) => toolFiles.includes(s))).toEqual([]);
    expect(map.sources).toContain('tool-head:tool-head:src/tools/shell/bash.ts?settings');
    const whole = JSON.parse(await readFile(path.join(root, 'dist', `${CLI_FILE}.map`), 'utf8')) as { sources: string[] };
    expect(whole.sources).toContain('../src/cli/run-command.ts');
    expect(whole.sources).toContain('../src/cli/tools-command.ts');
    expect(whole.sources.some((s) => s.includes('node_modules/zod/v4/classic/schemas.js'))).toBe(true);
    const chunks = await readFile(path.join(root, 'dist', CHUNKS_FILE), 'latin1');
    expect(chunks).toContain('\n/*core-agent-chunk virtual:zod-chunk\n');
  });

  // Which script serves a command line (src/startup/cli-script.ts, listsTools): the code cache
  // file a run writes is named after the script's content hash, which NODE_DEBUG=core-agent prints.
  const SERVED: [argv: string[], script: 'tools' | 'cli'][] = [
    [['tools', 'list'], 'tools'],
    [['tools', 'list', '--json', '--dialect', 'golem'], 'tools'],
    [['tools', '--help'], 'tools'],
    [['tools', 'list', '--help'], 'tools'],
    [['tools'], 'tools'],
    [['tools', 'call', 'current_time'], 'cli'],
    [['tools', 'call', '--help'], 'cli'],
    [['tools', 'call', 'read_file', '{"path": "x.txt"}'], 'cli'],
    [['sessions', 'list'], 'cli'],
    [['recipe', 'validate', 'r.yaml'], 'cli'],
  ];
  it.each(SERVED)('%j is served by the %s script', async (argv, script) => {
    const work = await mkdtemp(path.join(dir, 'served-'));
    await writeFile(path.join(work, 'x.txt'), 'hello\n');
    await writeFile(path.join(work, 'r.yaml'), 'max_steps: 3\n');
    const r = await runCli(argv, work, { NODE_DEBUG: 'core-agent', XDG_STATE_HOME: path.join(work, 'state') });
    const hashOf = async (name: string) =>
      /^\/\/core-agent-cli ([0-9a-f]{16})/.exec(await readFile(path.join(root, 'dist', name), 'latin1'))![1]!;
    const line = /core-agent code cache: \S*\/cli-([0-9a-f]{16})-/.exec(r.stderr);
    expect(line, r.stderr).not.toBeNull();
    expect(line![1]).toBe(await hashOf(script === 'tools' ? TOOLS_FILE : CLI_FILE));
  });

  // zod comes from its chunk when a listing reads a recipe: its schemas check the recipe and a
  // tool's settings, and a mistake is the same sentence as the whole CLI's.
  it('lists under a recipe with tool settings, and refuses a bad one as the whole CLI does', async () => {
    const work = await mkdtemp(path.join(dir, 'recipe-'));
    await writeFile(path.join(work, 'good.yaml'), 'tools:\n  dialect: golem\n  bash:\n    max_timeout_seconds: 30\n');
    await writeFile(path.join(work, 'bad.yaml'), 'max_steps: 0\ntools:\n  bash:\n    timeout_seconds: "x"\n');
    const good = await runCli(['tools', 'list', '--json', '--recipe', 'good.yaml'], work);
    expect(good.code, good.stderr).toBe(0);
    expect((JSON.parse(good.stdout) as { model_name?: string }[]).map((t) => t.model_name)).toContain('WriteFile');
    const bad = await runCli(['tools', 'list', '--recipe', 'bad.yaml'], work);
    const sameInCli = await runCli(['recipe', 'validate', 'bad.yaml'], work);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.yaml:1:12: max_steps: Too small: expected number to be >=1');
    expect(bad.stderr).toContain('bad.yaml:4:5: tools.bash: unknown key "timeout_seconds"');
    expect(sameInCli.stderr).toContain('bad.yaml:1:12: max_steps: Too small: expected number to be >=1');
  });
});

describe('finishCliScript', () => {
  const file = () => path.join(dir, 'cli.js');
  const result = (imports: Array<{ path: string; kind: string; external?: boolean }>) => ({
    metafile: { inputs: {}, outputs: { [path.relative(root, file())]: { imports, bytes: 0, inputs: {}, exports: [] } } },
  });

  it('puts the content hash first', async () => {
    await writeFile(file(), '(function () {})');
    await finishCliScript(
      file(),
      result([
        { path: 'node:fs', kind: 'require-call', external: true },
        { path: 'util', kind: 'require-call', external: true },
      ]) as never,
    );
    expect(await readFile(file(), 'utf8')).toBe(
      `//core-agent-cli ${createHash('sha256').update('(function () {})').digest('hex')}\n(function () {})`,
    );
  });

  it.each([
    [
      'an import() left in the file',
      '(function () {})',
      [{ path: 'node:zlib', kind: 'dynamic-import', external: true }],
      /no import\(\) \(found: node:zlib\)/,
    ],
    ['text that is not ASCII', '(function () { "é" })', [], /must be ASCII/],
    // src/startup/cli-script.ts gives the script a require of Node's built-ins alone.
    [
      'a require of a package left out of the bundle',
      '(function () {})',
      [
        { path: 'node:fs', kind: 'require-call', external: true },
        { path: 'left-pad', kind: 'require-call', external: true },
      ],
      /built-ins only; bundle the rest \(found: left-pad\)/,
    ],
    [
      'a require of a file',
      '(function () {})',
      [{ path: './native.node', kind: 'require-call', external: true }],
      /built-ins only; bundle the rest \(found: \.\/native\.node\)/,
    ],
  ])('refuses %s', async (_what, text, imports, message) => {
    await writeFile(file(), text);
    await expect(finishCliScript(file(), result(imports) as never)).rejects.toThrow(message);
    expect(await readFile(file(), 'utf8')).toBe(text);
  });
});
