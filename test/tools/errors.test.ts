import { spawn } from 'node:child_process';
import { mkdir, open, readFile, readlink, rmdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { PathScope } from '../../src/permissions/path-scope.ts';
import { Gate } from '../../src/permissions/gate.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { Dispatcher } from '../../src/tools/framework/dispatch.ts';
import { ERROR_MAX_CHARS } from '../../src/util/error-text.ts';
import { jqCrashSentence, tidyJqMessage } from '../../src/tools/shared/jq-errors.ts';
import { describeFailure, isCwdGone } from '../../src/util/failure-sentences.ts';
import { defineTool, ToolError, type AnyTool } from '../../src/tools/framework/tool.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import { ERRNO_CASES, JQ_CRASH_CASES } from './errors.cases.ts';

/** An error as Node raises it: its message starts with the code, and the fields say where. */
function nodeError(code: string, fields: Record<string, unknown>): Error {
  return Object.assign(
    new Error(`${code}: raw text the model must not need, ${String(fields.syscall ?? '')} '${String(fields.path ?? '')}'`),
    {
      code,
      ...fields,
    },
  );
}

describe('describeFailure: codes to sentences', () => {
  it.each(ERRNO_CASES)('%s %j', (code, fields, expected) => {
    const e = nodeError(code, fields);
    const sentence = describeFailure(e);
    expect(sentence).toMatch(expected);
    expect(sentence).not.toMatch(/raw text/);
    expect(sentence!.length).toBeLessThan(600);
    // undici wraps the reason: "fetch failed" → cause → the coded error; a connect to several addresses adds an AggregateError.
    expect(describeFailure(new TypeError('fetch failed', { cause: e }))).toBe(sentence);
    expect(describeFailure(new TypeError('fetch failed', { cause: new AggregateError([e, new Error('second')]) }))).toBe(sentence);
  });

  it('leaves what it does not know alone', () => {
    expect(describeFailure(new Error('no code'))).toBeUndefined();
    expect(describeFailure(Object.assign(new Error('x'), { code: 'E_SOMETHING_ELSE' }))).toBeUndefined();
    expect(describeFailure(Object.assign(new Error('x'), { code: 42 }))).toBeUndefined();
    expect(describeFailure('a string')).toBeUndefined();
  });

  it('maps the real errors Node raises, not only ones built to look like them', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'f'), 'x');
    await mkdir(path.join(dir, 'full'));
    await writeFile(path.join(dir, 'full', 'x'), 'x');
    await symlink('loop-b', path.join(dir, 'loop-a'));
    await symlink('loop-a', path.join(dir, 'loop-b'));
    const caught = async (p: Promise<unknown>) =>
      describeFailure(
        await p.then(
          () => null,
          (e: unknown) => e,
        ),
      );
    expect(await caught(readFile(path.join(dir, 'missing')))).toMatch(/missing" does not exist \(ENOENT from open\)/);
    expect(await caught(stat(path.join(dir, 'a'.repeat(300))))).toMatch(/is longer than the system allows \(ENAMETOOLONG/);
    expect(await caught(readFile(dir))).toMatch(/is a directory, and this operation needs a file \(EISDIR from read\)/);
    expect(await caught(stat(path.join(dir, 'f', 'x')))).toMatch(/a component of .* is a file where a directory is needed \(ENOTDIR/);
    expect(await caught(readlink(path.join(dir, 'f')))).toMatch(/no longer a symbolic link \(EINVAL from readlink\)/);
    expect(await caught(stat(path.join(dir, 'loop-a')))).toMatch(/symlink loop/);
    expect(await caught(mkdir(path.join(dir, 'full')))).toMatch(/already exists \(EEXIST from mkdir\)/);
    expect(await caught(rmdir(path.join(dir, 'full')))).toMatch(/is not empty \(ENOTEMPTY/);
    expect(await caught(open(path.join(dir, 'nope', 'x'), 'r'))).toMatch(/does not exist \(ENOENT/);
    // spawn reports ENOENT as an 'error' event, and throws E2BIG at once.
    const spawned = (cmd: string, args: string[]) =>
      new Promise<unknown>((resolve) => {
        try {
          spawn(cmd, args, { stdio: 'ignore' })
            .on('error', resolve)
            .on('exit', () => resolve(null));
        } catch (err) {
          resolve(err);
        }
      });
    expect(describeFailure(await spawned('/nonexistent/rg', []))).toMatch(
      /^the program "\/nonexistent\/rg" was not found \(ENOENT from spawn\)$/,
    );
    expect(describeFailure(await spawned('/bin/true', ['x'.repeat(200 * 1024)]))).toMatch(
      /\(E2BIG: about 2 MiB in all and 128 KiB per argument\); pass long input through a file/,
    );
  });

  it('recognises a removed current directory', () => {
    const gone = Object.assign(new Error('ENOENT: process.cwd failed with error no such file or directory, uv_cwd'), {
      code: 'ENOENT',
      syscall: 'uv_cwd',
    });
    expect(isCwdGone(gone)).toBe(true);
    expect(isCwdGone(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open' }))).toBe(false);
  });
});

describe('jq failures', () => {
  it.each(JQ_CRASH_CASES)('%j', (err, expected) => {
    expect(jqCrashSentence(err, { wasmMb: 256, heapMb: 512 })).toMatch(expected);
  });

  it('cuts the source line jq quotes to a window around its caret', () => {
    const program = `${'.a | '.repeat(2000)}.[`;
    const stderr = `jq: error: syntax error, unexpected end of file at <top-level>, line 1, column ${program.length}:\n    ${program}\n    ${' '.repeat(program.length - 1)}^\njq: 1 compile error`;
    const tidy = tidyJqMessage(stderr);
    expect(tidy.length).toBeLessThan(600);
    const [, source, caret] = tidy.split('\n');
    expect(source).toMatch(/^….*\.\[$/);
    expect(source![caret!.indexOf('^')]).toBe('['); // the caret still points at the offending character
    expect(tidyJqMessage('jq: error (at <stdin>:0): null (null) has no keys')).toBe('jq: error (at <stdin>:0): null (null) has no keys');
  });
});

describe('through the dispatcher: every error is a sentence, and bounded', () => {
  it('a path component over NAME_MAX is a sentence in every file tool; a path over PATH_MAX is refused by validation', async () => {
    const rt = await setup({ flags: { mode: 'yolo' } });
    const long = `${'a'.repeat(300)}/f.txt`;
    for (const [tool, args] of [
      ['read_file', { path: long }],
      ['stat', { path: long }],
      ['list_dir', { path: long }],
      ['write_file', { path: long, content: 'x' }],
      ['delete_file', { path: long }],
      ['grep', { pattern: 'x', path: long }],
    ] as const) {
      const error = await rt.refused(tool, args);
      expect(error, tool).toMatch(
        new RegExp(`^${tool}: the path ".*" \\(\\d+ characters\\) is longer than the system allows \\(ENAMETOOLONG`),
      );
      expect(error.length, tool).toBeLessThan(800);
    }
    expect(await rt.refused('read_file', { path: 'a'.repeat(5000) })).toBe(
      'read_file: invalid arguments: path is 5000 characters long, above its limit of 4096; send at most 4096 characters',
    );
  });

  it("a pattern RE2 accepts but ripgrep cannot compile gets a sentence with the fix, not rg's stderr", async () => {
    const rt = await setup({ tree: { 'f.txt': 'hi\n' } });
    expect(await rt.refused('grep', { pattern: '\\pL{1000}'.repeat(4), path: 'f.txt' })).toBe(
      'grep: the pattern is too large for the search engine once compiled; simplify it: fewer alternatives, smaller {n,m} counts, ASCII classes such as [A-Za-z] instead of \\p{…}',
    );
  });

  /** A dispatcher over the built-ins plus one tool that fails the way it is told. */
  async function dispatcherWith(fail: (dir: string) => Promise<never>, toolOutput?: { max_bytes?: number }) {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'regular'), 'x');
    const failing = defineTool({
      name: 'failing',
      description: 'fails',
      kind: 'read',
      narrowHint: '',
      args: z.strictObject({}),
      run: () => fail(dir),
    }) as unknown as AnyTool;
    const catalog = Catalog.build([...BUILTIN_TOOLS, failing]);
    return new Dispatcher({ catalog, gate: new Gate({ mode: 'yolo', scope: await PathScope.create(dir) }), workspace: dir, toolOutput });
  }

  it('a real readlink EINVAL from a tool becomes the sentence, not the errno text', async () => {
    const d = await dispatcherWith((dir) => readlink(path.join(dir, 'regular')) as Promise<never>);
    const r = await d.call('failing', {});
    expect(r).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^failing: ".*regular" changed while it was being resolved: it is no longer a symbolic link \(EINVAL from readlink\); retry the call$/,
      ),
      kind: 'tool_error',
    });
  });

  it('cuts any error to 8,000 characters in the middle, saying how much went', async () => {
    const d = await dispatcherWith(() => Promise.reject(new ToolError(`head ${'x'.repeat(10 * 1024 * 1024)} tail`)));
    const r = await d.call('failing', {});
    const error = (r as { error: string }).error;
    expect(error.length).toBeLessThanOrEqual(ERROR_MAX_CHARS);
    expect(error).toMatch(/^failing: head x+ …\[10477\d{3} of 1048\d{4} characters cut\]… x+ tail$/);
    // An unknown, non-ToolError failure keeps its message, and is cut the same way.
    const raw = await (await dispatcherWith(() => Promise.reject(new Error('y'.repeat(100_000))))).call('failing', {});
    expect((raw as { error: string }).error).toMatch(/^failing failed: y+ …\[\d+ of 100016 characters cut\]… y+$/);
  });

  it('follows a lower max_bytes for errors too', async () => {
    const d = await dispatcherWith(() => Promise.reject(new ToolError('z'.repeat(50_000))), { max_bytes: 2000 });
    expect((await d.call('failing', {})) as { error: string }).toMatchObject({ error: expect.stringMatching(/^.{1,2000}$/s) });
  });
});
