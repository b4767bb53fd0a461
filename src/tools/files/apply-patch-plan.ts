import { lstat, readlink } from 'node:fs/promises';
import type { ResolvedPath } from '../../permissions/resolve-path.ts';
import type { FileChange } from '../../permissions/gate.ts';
import { LIMITS } from '../framework/limits.ts';
import { ToolError } from '../framework/tool.ts';
import { PatchParseError, type PatchOp } from './apply-patch-parser.ts';
import { applyReplacements, locateChunks, type Replacement } from './apply-patch-seek.ts';
import type { WriteJournal } from '../framework/services.ts';
import { editChecked, looksBinary, readChecked, removeChecked, writeChecked } from '../shared/safe-fs.ts';

/**
 * apply_patch in two phases. `planPatch` reads every file the patch touches and
 * computes every result — a failure there changes nothing. `commitPlan` then
 * checks that no file changed since it was read (the snapshot guard), and only
 * then writes, each write atomic; a failure after the first write is reported
 * with the files already changed.
 */

/** The largest file apply_patch reads or writes: edit_file's bound, so a file either tool wrote the other can edit. */
export const MAX_PATCH_FILE_BYTES = LIMITS.fileContent;
const BOM = '\uFEFF';
const DIFF_MAX_CHARS = 32_000;

/** What a file was when planned: absent, a symlink (delete only), or these bytes. */
type Snapshot = { exists: false } | { exists: true; link: string } | { exists: true; bytes: Buffer; mode: number };

export interface PlannedFile {
  op: PatchOp;
  action: 'added' | 'modified' | 'deleted' | 'moved' | 'unchanged';
  source: ResolvedPath;
  /** A move's destination. */
  dest?: ResolvedPath;
  before: Snapshot;
  /** The new content (absent for a delete). */
  after?: string;
  shown: string;
  shownDest?: string;
  diff: string;
}

export interface PatchPlan {
  files: PlannedFile[];
}

async function snapshot(target: ResolvedPath, shown: string): Promise<Snapshot> {
  let st;
  try {
    st = await lstat(target.real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false };
    throw err;
  }
  if (st.isSymbolicLink()) return { exists: true, link: await readlink(target.real) };
  if (st.isDirectory()) throw new ToolError(`${shown} is a directory; apply_patch edits files`);
  const bytes = await readChecked(target.real, MAX_PATCH_FILE_BYTES);
  return { exists: true, bytes, mode: st.mode & 0o7777 };
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  if ('link' in a || 'link' in b) return 'link' in a && 'link' in b && a.link === b.link;
  return a.bytes.equals(b.bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // ignoreBOM: keep it, so the file keeps it;

/** The text of a file the patch updates or deletes: refused when binary, not UTF-8 or a link. */
function textOf(snap: Snapshot, shown: string, line: number): string {
  if (!snap.exists) throw new ToolError(`patch line ${line}: ${shown} does not exist`, 'not_found');
  if ('link' in snap) throw new ToolError(`patch line ${line}: ${shown} is a symlink; apply_patch edits the file itself`);
  if (looksBinary(snap.bytes)) throw new ToolError(`patch line ${line}: ${shown} is a binary file; apply_patch edits text`);
  try {
    return utf8.decode(snap.bytes);
  } catch {
    throw new ToolError(`patch line ${line}: ${shown} is not valid UTF-8; apply_patch edits text`);
  }
}

/** CRLF when more lines end in CRLF than in a bare LF: the file keeps the ending most of it uses. */
function dominantCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf;
}

function toLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Resolve each op's paths (the dispatcher already scoped and gated them), refuse overlaps, and compute every result. */
export async function planPatch(
  ops: readonly PatchOp[],
  resolved: (key: string) => ResolvedPath,
  display: (real: string) => string,
): Promise<PatchPlan> {
  const touched = new Map<string, number>();
  const claim = (target: ResolvedPath, line: number) => {
    const earlier = touched.get(target.real);
    if (earlier !== undefined) {
      throw new ToolError(
        `patch line ${line}: ${display(target.real)} is already touched on patch line ${earlier}; put every change to one file in one operation`,
        'invalid_args',
      );
    }
    touched.set(target.real, line);
  };
  const planned: Array<{ op: PatchOp; source: ResolvedPath; dest?: ResolvedPath }> = [];
  ops.forEach((op, i) => {
    const source = resolved(opKey(i));
    claim(source, op.line);
    const dest = op.kind === 'update' && op.movePath !== undefined ? resolved(opKey(i, true)) : undefined;
    if (dest && dest.real !== source.real) claim(dest, op.kind === 'update' ? (op.moveLine ?? op.line) : op.line);
    planned.push(dest && dest.real !== source.real ? { op, source, dest } : { op, source });
  });

  const files: PlannedFile[] = [];
  for (const { op, source, dest } of planned) {
    const shown = display(source.real);
    const before = await snapshot(source, shown);
    if (op.kind === 'add') {
      if (op.content.includes('\0'))
        throw new ToolError(`patch line ${op.line}: the content for ${shown} holds a NUL byte; apply_patch writes text`);
      if (before.exists && 'link' in before)
        throw new ToolError(`patch line ${op.line}: ${shown} is a symlink; apply_patch edits the file itself`);
      const old = before.exists && 'bytes' in before ? textOf(before, shown, op.line) : undefined;
      const action = old === op.content ? 'unchanged' : before.exists ? 'modified' : 'added';
      files.push({ op, action, source, before, after: op.content, shown, diff: unifiedDiff(shown, old, op.content) });
      continue;
    }
    if (op.kind === 'delete') {
      if (!before.exists) throw new ToolError(`patch line ${op.line}: ${shown} does not exist; nothing to delete`, 'not_found');
      const old = 'link' in before ? undefined : textOf(before, shown, op.line);
      files.push({
        op,
        action: 'deleted',
        source,
        before,
        shown,
        diff: old === undefined ? `deleted symlink ${shown}\n` : unifiedDiff(shown, old, undefined),
      });
      continue;
    }
    const raw = textOf(before, shown, op.line);
    const bom = raw.startsWith(BOM);
    const body = bom ? raw.slice(1) : raw;
    const crlf = dominantCrlf(body);
    const oldLines = toLines(body.replace(/\r\n/g, '\n'));
    let replacements: Replacement[];
    try {
      replacements = locateChunks(oldLines, op.chunks, shown);
    } catch (err) {
      if (err instanceof PatchParseError) throw new ToolError(err.message);
      throw err;
    }
    const newLines = applyReplacements(oldLines, replacements);
    const lf = newLines.length === 0 ? '' : `${newLines.join('\n')}\n`;
    const after = (bom ? BOM : '') + (crlf ? lf.replace(/\n/g, '\r\n') : lf);
    if (Buffer.byteLength(after) > MAX_PATCH_FILE_BYTES) {
      throw new ToolError(`patch line ${op.line}: ${shown} would be above the ${MAX_PATCH_FILE_BYTES}-byte limit after the patch`);
    }
    let shownDest: string | undefined;
    if (dest) {
      shownDest = display(dest.real);
      if ((await snapshot(dest, shownDest).catch(() => ({ exists: true }) as Snapshot)).exists) {
        throw new ToolError(
          `patch line ${op.moveLine ?? op.line}: the move destination ${shownDest} already exists; refused (delete it first, or update it instead)`,
        );
      }
    }
    const unchanged = !dest && after === raw;
    const diff = unchanged ? '' : hunkDiff(shown, shownDest ?? shown, oldLines, replacements);
    files.push({
      op,
      action: dest ? 'moved' : unchanged ? 'unchanged' : 'modified',
      source,
      ...(dest ? { dest } : {}),
      before,
      after,
      shown,
      ...(shownDest !== undefined ? { shownDest } : {}),
      diff,
    });
  }
  return { files };
}

/** The dispatcher's claim key for op `i`'s path, or its move destination. */
/** A planned file as the approval prompt shows it: a move is the old path removed and the new one written. */
export function plannedChanges(f: PlannedFile): FileChange[] {
  const before = f.before.exists && 'bytes' in f.before && !looksBinary(f.before.bytes) ? f.before.bytes.toString('utf8') : undefined;
  if (f.shownDest !== undefined && f.after !== undefined)
    return [
      { path: f.shown, before, after: undefined },
      { path: f.shownDest, before: undefined, after: f.after },
    ];
  return [{ path: f.shown, before, after: f.after }];
}

export function opKey(i: number, dest = false): string {
  return dest ? `patch[${i}].move_to` : `patch[${i}]`;
}

function changedSince(f: PlannedFile): ToolError {
  return new ToolError(
    `${f.shown} changed after the patch was planned (patch line ${f.op.line}); it was not written — read it again and redo the patch`,
  );
}

export interface CommitResult {
  added: string[];
  modified: string[];
  deleted: string[];
  moved: Array<{ from: string; to: string }>;
  unchanged: string[];
  /** Files an Add File replaced whole (also in `modified`): Codex's behaviour, said out loud. */
  replaced?: string[];
  note?: string;
  diff: string;
}

/** Verify every snapshot, then write. Throws before the first write (nothing changed) or with the files already changed. */
export async function commitPlan(plan: PatchPlan, journal: WriteJournal | undefined): Promise<CommitResult> {
  for (const f of plan.files) {
    if (f.action === 'unchanged') continue;
    if (!sameSnapshot(f.before, await snapshot(f.source, f.shown))) throw changedSince(f);
    if (f.dest && (await snapshot(f.dest, f.shownDest!).catch(() => ({ exists: true }) as Snapshot)).exists) {
      throw new ToolError(
        `the move destination ${f.shownDest} appeared after the patch was planned (patch line ${f.op.line}); nothing was written`,
      );
    }
  }
  const result: CommitResult = { added: [], modified: [], deleted: [], moved: [], unchanged: [], diff: '' };
  const changed: string[] = [];
  for (const f of plan.files) {
    try {
      await commitOne(f, journal, changed);
    } catch (err) {
      if (changed.length === 0) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new ToolError(
        `the patch was applied only in part: changed ${changed.join(', ')}; failed at ${f.shown} (patch line ${f.op.line}): ${why}; the files after it were not touched`,
      );
    }
    if (f.action === 'added') result.added.push(f.shown);
    else if (f.action === 'modified') result.modified.push(f.shown);
    else if (f.action === 'deleted') result.deleted.push(f.shown);
    else if (f.action === 'moved') result.moved.push({ from: f.shown, to: f.shownDest! });
    else result.unchanged.push(f.shown);
  }
  // As Codex does, Add File over an existing file replaces it; the result says so, the diff shows what was there.
  const replaced = plan.files.filter((f) => f.op.kind === 'add' && f.action === 'modified').map((f) => f.shown);
  if (replaced.length > 0) {
    result.replaced = replaced;
    result.note = `Add File replaced ${replaced.length === 1 ? 'an existing file' : `${replaced.length} existing files`} whole (${replaced.join(', ')}); the diff shows the old content. To change part of a file, use Update File.`;
  }
  result.diff = boundDiff(plan.files.map((f) => f.diff).join(''));
  return result;
}

async function commitOne(f: PlannedFile, journal: WriteJournal | undefined, changed: string[]): Promise<void> {
  if (f.action === 'unchanged') return;
  if (f.action === 'deleted') {
    await removeChecked(f.source);
    changed.push(f.shown);
    return;
  }
  if (f.action === 'moved') {
    const mode = f.before.exists && 'mode' in f.before ? f.before.mode : undefined;
    await writeChecked(f.dest!, f.after!, { journal, ...(mode !== undefined ? { newMode: mode } : {}) });
    changed.push(f.shownDest!);
    await removeChecked(f.source);
    changed.push(f.shown);
    return;
  }
  if (f.before.exists) {
    // The read and the replacement through one pinned directory: the guard compares what is replaced.
    await editChecked(
      f.source,
      MAX_PATCH_FILE_BYTES,
      (current) => {
        if (!('bytes' in f.before && f.before.bytes.equals(current))) throw changedSince(f);
        return { data: f.after! };
      },
      journal,
    );
  } else {
    await writeChecked(f.source, f.after!, { journal });
  }
  changed.push(f.shown);
}

function boundDiff(diff: string): string {
  if (diff.length <= DIFF_MAX_CHARS) return diff;
  return `${diff.slice(0, DIFF_MAX_CHARS)}\n… diff cut at ${DIFF_MAX_CHARS} characters (${diff.length} in all); read the files for the rest\n`;
}

/** A whole-file diff: an add (old absent) or a delete (new absent), or an Add over an existing file. */
function unifiedDiff(shown: string, old: string | undefined, next: string | undefined): string {
  const a = old === undefined ? [] : toLines(old.replace(/\r\n/g, '\n'));
  const b = next === undefined ? [] : toLines(next);
  if (old !== undefined && next !== undefined) {
    if (old === next) return '';
    return hunkDiff(shown, shown, a, [{ start: 0, oldCount: a.length, newLines: b }]);
  }
  const head = `--- ${old === undefined ? '/dev/null' : `a/${shown}`}\n+++ ${next === undefined ? '/dev/null' : `b/${shown}`}\n`;
  const body = old === undefined ? b.map((l) => `+${l}`) : a.map((l) => `-${l}`);
  const range = old === undefined ? `-0,0 +1,${b.length}` : `-1,${a.length} +0,0`;
  return `${head}@@ ${range} @@\n${body.join('\n')}${body.length ? '\n' : ''}`;
}

const CONTEXT = 3;

/** A replacement without the lines it keeps as they were at either end: those show as context, not as - and +. */
function trimUnchanged(old: readonly string[], r: Replacement): Replacement {
  let { start, oldCount } = r;
  let lo = 0;
  let hi = r.newLines.length;
  while (oldCount > 0 && lo < hi && old[start] === r.newLines[lo]) {
    start++;
    oldCount--;
    lo++;
  }
  while (oldCount > 0 && lo < hi && old[start + oldCount - 1] === r.newLines[hi - 1]) {
    oldCount--;
    hi--;
  }
  return { start, oldCount, newLines: r.newLines.slice(lo, hi) };
}

/** A unified diff of the changed regions only, three lines of context, from the replacements themselves. */
function hunkDiff(from: string, to: string, old: readonly string[], replacements: readonly Replacement[]): string {
  const rs = replacements.map((r) => trimUnchanged(old, r)).sort((x, y) => x.start - y.start);
  const out: string[] = [`--- a/${from}`, `+++ b/${to}`];
  let delta = 0; // new line index minus old line index before the current group
  let i = 0;
  while (i < rs.length) {
    let j = i;
    while (j + 1 < rs.length && rs[j + 1]!.start <= rs[j]!.start + rs[j]!.oldCount + 2 * CONTEXT) j++;
    const ctxStart = Math.max(0, rs[i]!.start - CONTEXT);
    const lastEnd = rs[j]!.start + rs[j]!.oldCount;
    const ctxEnd = Math.min(old.length, lastEnd + CONTEXT);
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    let at = ctxStart;
    let groupDelta = 0;
    for (let k = i; k <= j; k++) {
      const r = rs[k]!;
      for (; at < r.start; at++, oldCount++, newCount++) body.push(` ${old[at]}`);
      for (let m = 0; m < r.oldCount; m++, oldCount++) body.push(`-${old[r.start + m]}`);
      for (const l of r.newLines) {
        body.push(`+${l}`);
        newCount++;
      }
      at = Math.max(at, r.start + r.oldCount);
      groupDelta += r.newLines.length - r.oldCount;
    }
    for (; at < ctxEnd; at++, oldCount++, newCount++) body.push(` ${old[at]}`);
    const oldStart = oldCount === 0 ? ctxStart : ctxStart + 1;
    const newStart = newCount === 0 ? ctxStart + delta : ctxStart + delta + 1;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const l of body) out.push(l); // no spread: a hunk may hold more lines than the call stack allows
    delta += groupDelta;
    i = j + 1;
  }
  return `${out.join('\n')}\n`;
}
