// The CLI's file as the build writes it (scripts/bundle/esbuild-options.mjs, cliScriptOptions and
// finishCliScript): a script whose first line names its content, one function expression that
// node:vm compiles and src/startup/cli-script.ts calls; and the build's refusals.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_FILE, finishCliScript, TOOLS_FILE } from '../../scripts/bundle/esbuild-options.mjs';

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
  // src/cli/start-tools.ts: what `tools list` and `tools call` reach, no other command's module.
  it('holds the tools command and none of the others', async () => {
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
    const whole = JSON.parse(await readFile(path.join(root, 'dist', `${CLI_FILE}.map`), 'utf8')) as { sources: string[] };
    expect(whole.sources).toContain('../src/cli/run-command.ts');
    expect(whole.sources).toContain('../src/cli/tools-command.ts');
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
