import { readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateRequest, PromptAnswer } from '../../src/permissions/gate.ts';
import { resolvePath } from '../../src/permissions/resolve-path.ts';
import { parsePatch } from '../../src/tools/files/apply-patch-parser.ts';
import { commitPlan, opKey, planPatch } from '../../src/tools/files/apply-patch-plan.ts';
import { PendingWrites } from '../../src/tools/shared/pending-writes.ts';
import { setupIn, tempDir } from '../helpers/workspace.ts';

// Cagent's tool: its catalog.
const setup = setupIn('cagent');

const yolo = { flags: { mode: 'yolo' as const } };
const envelope = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
const read = (dir: string, rel: string) => readFile(path.join(dir, rel), 'utf8');

/** A prompter that records what it was asked and gives one answer. */
function recorder(answer: PromptAnswer) {
  const asked: GateRequest[] = [];
  return { asked, prompter: { ask: async (req: GateRequest) => (asked.push(req), answer) } };
}

describe('apply_patch: path scope and the gate see every file before anything is read', () => {
  it('refuses the whole patch when one file is outside the workspace, and writes none of it', async () => {
    const rt = await setup({ ...yolo, tree: { 'in.txt': 'a\n' } });
    const patch = envelope('*** Update File: in.txt', '@@', '-a', '+b', '*** Add File: ../escape.txt', '+x');
    expect(await rt.refused('apply_patch', { patch })).toMatch(/outside path_scope/);
    expect(await read(rt.dir, 'in.txt')).toBe('a\n');
    expect(await readdir(path.dirname(rt.dir))).not.toContain('escape.txt');
  });

  it('refuses a move whose destination is outside, and an update through a symlink that leads out', async () => {
    const outside = await tempDir();
    await writeFile(path.join(outside, 'target.txt'), 'secret\n');
    const rt = await setup({ ...yolo, tree: { 'a.txt': 'a\n', 'link.txt': { symlink: path.join(outside, 'target.txt') } } });
    const move = envelope('*** Update File: a.txt', `*** Move to: ${path.join(outside, 'moved.txt')}`, '@@', '-a', '+b');
    expect(await rt.refused('apply_patch', { patch: move })).toMatch(/outside path_scope/);
    expect(await rt.refused('apply_patch', { patch: envelope('*** Update File: link.txt', '@@', '-secret', '+x') })).toMatch(
      /outside path_scope/,
    );
    expect(await readdir(outside)).toEqual(['target.txt']);
    expect(await read(outside, 'target.txt')).toBe('secret\n');
    expect(await read(rt.dir, 'a.txt')).toBe('a\n');
  });

  it('a per-path deny rule on any one file refuses the patch, even in yolo mode', async () => {
    const rt = await setup({ ...yolo, tree: { 'ok.txt': '1\n' }, recipe: 'permissions:\n  deny: ["tool.apply_patch:secrets/**"]\n' });
    const patch = envelope('*** Update File: ok.txt', '@@', '-1', '+2', '*** Add File: secrets/k.pem', '+key');
    expect(await rt.refused('apply_patch', { patch })).toMatch(/tool\.apply_patch:secrets\/\*\*/);
    expect(await read(rt.dir, 'ok.txt')).toBe('1\n');
  });

  it('ask mode asks once for the call with every path, a move destination included; a denial writes nothing', async () => {
    const { asked, prompter } = recorder('deny');
    const rt = await setup({ tree: { 'a.txt': 'a\n' }, flags: { mode: 'ask' }, prompter });
    const patch = envelope('*** Update File: a.txt', '*** Move to: b/moved.txt', '@@', '-a', '+b', '*** Add File: c.txt', '+c');
    expect(await rt.refused('apply_patch', { patch })).toMatch(/permission denied/);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'apply_patch', fileEdit: true, readOnly: false });
    expect(asked[0]!.subjects!.map((s) => s.forms[0])).toEqual(['a.txt', 'b/moved.txt', 'c.txt']);
    expect((await readdir(rt.dir)).sort()).toEqual(['a.txt']);
  });

  it('ask mode applies the patch once approved', async () => {
    const { asked, prompter } = recorder('once');
    const rt = await setup({ tree: { 'a.txt': 'a\n' }, flags: { mode: 'ask' }, prompter });
    expect(await rt.ok('apply_patch', { patch: envelope('*** Update File: a.txt', '@@', '-a', '+b') })).toMatchObject({
      modified: ['a.txt'],
    });
    expect(asked).toHaveLength(1);
    expect(await read(rt.dir, 'a.txt')).toBe('b\n');
  });

  it('accept-edits approves it without asking; headless ask mode refuses it', async () => {
    const patch = envelope('*** Add File: new.txt', '+hi');
    const accept = await setup({ flags: { mode: 'accept-edits' } });
    await accept.ok('apply_patch', { patch });
    expect(await read(accept.dir, 'new.txt')).toBe('hi\n');
    const ask = await setup({ flags: { mode: 'ask' } });
    expect(await ask.refused('apply_patch', { patch })).toMatch(/asks.*no terminal to ask on/);
    expect(await readdir(ask.dir)).toEqual([]);
  });

  it('a malformed patch is refused with its line before the gate asks anyone', async () => {
    const { asked, prompter } = recorder('once');
    const rt = await setup({ flags: { mode: 'ask' }, prompter });
    const r = await rt.dispatcher.call('apply_patch', { patch: envelope('*** Update File: a.txt', '@@', 'oops') });
    expect(r).toMatchObject({ ok: false, kind: 'invalid_args' });
    expect(!r.ok && r.error).toMatch(/^apply_patch: invalid patch: patch line 4: expected a change line/);
    expect(asked).toHaveLength(0);
  });
});

/** Plan a patch against a workspace the way the tool does, the dispatcher's resolution standing in for the gate. */
async function plan(ws: string, patch: string) {
  const ops = parsePatch(patch);
  const resolved = new Map<string, Awaited<ReturnType<typeof resolvePath>>>();
  for (const [i, op] of ops.entries()) {
    resolved.set(opKey(i), await resolvePath(op.path, ws));
    if (op.kind === 'update' && op.movePath) resolved.set(opKey(i, true), await resolvePath(op.movePath, ws));
  }
  return planPatch(
    ops,
    (k) => resolved.get(k)!,
    (real) => path.relative(ws, real),
  );
}

describe('apply_patch: the snapshot guard and partial failures', () => {
  it('refuses a file edited after the patch was planned, and writes nothing at all', async () => {
    const rt = await setup({ ...yolo, tree: { 'a.txt': 'one\n', 'b.txt': 'two\n' } });
    const p = await plan(rt.dir, envelope('*** Add File: c.txt', '+new', '*** Update File: b.txt', '@@', '-two', '+TWO'));
    await writeFile(path.join(rt.dir, 'b.txt'), 'two, edited by someone else\n');
    await expect(commitPlan(p, undefined)).rejects.toThrow(/b\.txt changed after the patch was planned \(patch line 4\)/);
    expect(await read(rt.dir, 'b.txt')).toBe('two, edited by someone else\n');
    expect((await readdir(rt.dir)).sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('refuses when a move destination appears after planning', async () => {
    const rt = await setup({ ...yolo, tree: { 'a.txt': 'a\n' } });
    const p = await plan(rt.dir, envelope('*** Update File: a.txt', '*** Move to: b.txt', '@@', '-a', '+b'));
    await writeFile(path.join(rt.dir, 'b.txt'), 'raced\n');
    await expect(commitPlan(p, undefined)).rejects.toThrow(/move destination b\.txt appeared after the patch was planned/);
    expect(await read(rt.dir, 'a.txt')).toBe('a\n');
    expect(await read(rt.dir, 'b.txt')).toBe('raced\n');
  });

  it('a file edited between two writes stops the patch there, naming what already changed', async () => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'a.txt'), 'a\n');
    await writeFile(path.join(ws, 'b.txt'), 'b\n');
    const p = await plan(
      ws,
      envelope('*** Update File: a.txt', '@@', '-a', '+A', '*** Update File: b.txt', '@@', '-b', '+B', '*** Add File: c.txt', '+c'),
    );
    // The journal hears of each atomic write; after the first is published, someone edits b.txt.
    class Racing extends PendingWrites {
      ends = 0;
      override async end(entry: string | undefined): Promise<void> {
        await super.end(entry);
        if (++this.ends === 1) await writeFile(path.join(ws, 'b.txt'), 'b, edited meanwhile\n');
      }
    }
    await expect(commitPlan(p, new Racing(await tempDir()))).rejects.toThrow(
      /applied only in part: changed a\.txt; failed at b\.txt \(patch line 6\): b\.txt changed after the patch was planned.*not touched/,
    );
    expect(await read(ws, 'a.txt')).toBe('A\n');
    expect(await read(ws, 'b.txt')).toBe('b, edited meanwhile\n');
    expect((await readdir(ws)).sort()).toEqual(['a.txt', 'b.txt']);
  });
});

describe('apply_patch: input limits and the result', () => {
  it('deletes a symlink itself, never its target, and refuses to update or move through one', async () => {
    const rt = await setup({ ...yolo, tree: { 'real.txt': 'r\n', 'link.txt': { symlink: 'real.txt' } } });
    expect(
      await rt.refused('apply_patch', { patch: envelope('*** Update File: link.txt', '*** Move to: m.txt', '@@', '-r', '+x') }),
    ).toMatch(/link\.txt is a symlink/);
    expect(await rt.ok('apply_patch', { patch: envelope('*** Delete File: link.txt') })).toMatchObject({ deleted: ['link.txt'] });
    expect((await readdir(rt.dir)).sort()).toEqual(['real.txt']);
    expect(await read(rt.dir, 'real.txt')).toBe('r\n');
  });

  it('refuses a file above 16 MiB without reading it', async () => {
    const rt = await setup({ ...yolo, tree: { 'big.txt': '' } });
    await truncate(path.join(rt.dir, 'big.txt'), 16 * 1024 * 1024 + 1); // sparse: no 16 MiB written
    expect(await rt.refused('apply_patch', { patch: envelope('*** Update File: big.txt', '@@', '-x', '+y') })).toMatch(
      /16777217 bytes, above the 16777216-byte limit/,
    );
  });

  it('returns a unified diff of the changed hunks with three lines of context', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    const rt = await setup({ ...yolo, tree: { 'f.txt': `${lines.join('\n')}\n` } });
    const r = await rt.ok('apply_patch', { patch: envelope('*** Update File: f.txt', '@@', ' l9', '-l10', '+ten', ' l11') });
    expect(r.diff).toBe(
      ['--- a/f.txt', '+++ b/f.txt', '@@ -7,7 +7,7 @@', ' l7', ' l8', ' l9', '-l10', '+ten', ' l11', ' l12', ' l13', ''].join('\n'),
    );
  });

  it('keeps CRLF in every line it writes, the added ones too', async () => {
    const rt = await setup({ ...yolo, tree: { 'w.txt': 'a\r\nb\r\n' } });
    await rt.ok('apply_patch', { patch: envelope('*** Update File: w.txt', '@@', ' a', '+between', ' b', '+after') });
    expect(await read(rt.dir, 'w.txt')).toBe('a\r\nbetween\r\nb\r\nafter\r\n');
  });
});
