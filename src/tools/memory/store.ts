import { constants } from 'node:fs';
import { link, lstat, mkdir, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { lstat as lstatAtStart, realpath as realpathAtStart } from '../../startup/fs-callbacks.ts';
import path from 'node:path';
import { quoteArg } from '../framework/error-text.ts';
import type { WriteJournal } from '../framework/services.ts';
import { ToolError } from '../framework/tool.ts';
import { editChecked, openEntry, PinnedDir, removeChecked, TMP_SUFFIX, writeChecked } from '../shared/safe-fs.ts';
import { MEMORY_LIMITS } from './limits.ts';

/** One entry of a memory folder's listing: its path below the memories folder. */
export interface MemoryEntry {
  readonly path: string;
  readonly size: number;
  readonly dir: boolean;
}

export type MemoryRead =
  | { readonly kind: 'file'; readonly text: string }
  | { readonly kind: 'dir'; readonly entries: readonly MemoryEntry[] }
  | { readonly kind: 'missing' };

const q = (s: string) => quoteArg(s, 80);

/** golem's wording for a path that leaves the folder: absolute, or climbing out with `..`. */
function outside(file: string): ToolError {
  return new ToolError(`memory file ${q(file)} is outside the memories folder: give a path relative to it, such as MEMORY.md`, 'denied');
}

/**
 * A memory path checked and split into segments: relative, `/` between folders, no `..`, no NUL
 * or backslash (a name that means one thing here and another on the next system), within the
 * path and depth limits. `''` (and `.`) is the memories folder itself when `root` allows it.
 */
export function memorySegments(file: string, o: { root?: boolean } = {}): string[] {
  if (file.includes('\0'))
    throw new ToolError(`memory file ${q(file)} contains a NUL byte; name it with ordinary characters`, 'invalid_args');
  if (file.includes('\\')) throw new ToolError(`memory file ${q(file)} contains a backslash: separate folders with /`, 'invalid_args');
  if (file.length > MEMORY_LIMITS.pathChars) {
    throw new ToolError(
      `memory file ${q(file)} is ${file.length} characters, above the ${MEMORY_LIMITS.pathChars}-character limit for a memory path`,
      'invalid_args',
    );
  }
  if (file.startsWith('/')) throw outside(file);
  const segments = file.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw outside(file);
  if (segments.length === 0 && o.root !== true)
    throw new ToolError(`memory file ${q(file)} names no file: give a relative path such as MEMORY.md`, 'invalid_args');
  if (segments.length > MEMORY_LIMITS.depth) {
    throw new ToolError(
      `memory file ${q(file)} is ${segments.length} levels deep, above the limit of ${MEMORY_LIMITS.depth} (folders and file)`,
      'invalid_args',
    );
  }
  if (segments.some((s) => s.endsWith(TMP_SUFFIX)))
    throw new ToolError(`memory file ${q(file)} ends in ${TMP_SUFFIX}, which is reserved for temporary files`, 'invalid_args');
  return segments;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

let tmpCounter = 0;

/**
 * One principal's memory: the files under `<home>/memories/`. Every path is checked by
 * `memorySegments`, then reached folder by folder through pinned directories (safe-fs.ts), so
 * a symlink planted anywhere in the folder is refused rather than followed out of it; every
 * write is a temporary file renamed (or linked) into place, so a crash leaves the old note or the
 * new one. Sizes are bounded by MEMORY_LIMITS.
 */
export class MemoryStore {
  constructor(
    /** `<state>/users/<name>/memories`, as userHome gives it. */
    readonly folder: string,
    private readonly journal?: WriteJournal | undefined,
  ) {}

  /** The memories folder's physical path, made (0700) when `create`; undefined when it does not exist and may not be made. */
  private async root(create: boolean): Promise<string | undefined> {
    const parent = path.dirname(this.folder);
    if (create) await mkdir(this.folder, { recursive: true, mode: 0o700 });
    let st;
    try {
      // node:fs's callbacks, not fs/promises: every session start reads MEMORY.md for the prompt
      // (memoryIndex), and a user with no memories folder must not load fs/promises for it
      // (test/cli/startup.cases.ts, RUNNING).
      st = await lstatAtStart(this.folder);
    } catch (err) {
      if (code(err) === 'ENOENT') return undefined;
      throw err;
    }
    if (st.isSymbolicLink())
      throw new ToolError('the memories folder is a symlink; memory never follows links (remove the link)', 'denied');
    if (!st.isDirectory()) throw new ToolError('the memories folder is not a folder; refused');
    return path.join(await realpathAtStart(parent), path.basename(this.folder));
  }

  /** Pin the folder holding `segments`' last entry, walking (and when `create`, making) each folder without following a link. */
  private async pinParent(segments: readonly string[], create: boolean): Promise<PinnedDir | undefined> {
    const root = await this.root(create);
    if (root === undefined) return undefined;
    let dir = await PinnedDir.open(root);
    try {
      for (const [i, name] of segments.slice(0, -1).entries()) {
        const st = await lstat(dir.entry(name)).catch((err: unknown) => (code(err) === 'ENOENT' ? undefined : Promise.reject(err)));
        const shown = segments.slice(0, i + 1).join('/');
        if (st?.isSymbolicLink()) throw new ToolError(`memory folder ${q(shown)} is a symlink; memory never follows links`, 'denied');
        if (st !== undefined && !st.isDirectory()) throw new ToolError(`memory path ${q(shown)} is a file, not a folder`);
        if (st === undefined && !create) {
          await dir.close();
          return undefined;
        }
        const next = await dir.child(name, create).finally(() => dir.close());
        dir = next;
      }
      return dir;
    } catch (err) {
      await dir.close();
      throw err;
    }
  }

  /** A file's text, a folder's listing (two levels), or missing. Never through a link. */
  async read(file: string): Promise<MemoryRead> {
    const segments = memorySegments(file, { root: true });
    if (segments.length === 0) {
      const root = await this.root(false);
      if (root === undefined) return { kind: 'dir', entries: [] };
      const dir = await PinnedDir.open(root);
      try {
        return { kind: 'dir', entries: await listing(dir, '', 2) };
      } finally {
        await dir.close();
      }
    }
    const dir = await this.pinParent(segments, false);
    if (dir === undefined) return { kind: 'missing' };
    try {
      const name = segments.at(-1)!;
      const st = await lstat(dir.entry(name)).catch(() => undefined);
      if (st === undefined) return { kind: 'missing' };
      if (st.isSymbolicLink()) throw new ToolError(`memory file ${q(file)} is a symlink; memory never follows links`, 'denied');
      if (st.isDirectory()) {
        const sub = await dir.child(name, false);
        try {
          return { kind: 'dir', entries: await listing(sub, segments.join('/'), 2) };
        } finally {
          await sub.close();
        }
      }
      const fh = await openEntry(dir, name, `${dir.real}/${name}`);
      try {
        const size = (await fh.stat()).size;
        if (size > MEMORY_LIMITS.fileBytes) {
          throw new ToolError(`memory file ${q(file)} is ${size} bytes, above the ${MEMORY_LIMITS.fileBytes}-byte limit for a memory file`);
        }
        return { kind: 'file', text: (await fh.readFile()).toString('utf8') };
      } finally {
        await fh.close();
      }
    } finally {
      await dir.close();
    }
  }

  /** Create or replace a whole file. */
  async write(file: string, content: string): Promise<{ created: boolean }> {
    const segments = memorySegments(file);
    await this.checkRoom(file, segments, content);
    const root = (await this.root(true))!;
    await this.refuseLinks(file, segments);
    return writeChecked(target(root, segments), content, { journal: this.journal, newMode: 0o600 });
  }

  /** Create a file that must not exist yet: written to a temporary file, then linked into place (link never replaces). */
  async create(file: string, content: string): Promise<void> {
    const segments = memorySegments(file);
    await this.checkRoom(file, segments, content);
    const dir = (await this.pinParent(segments, true))!;
    try {
      await exclusive(dir, segments.at(-1)!, content, file);
    } finally {
      await dir.close();
    }
  }

  /** Read, change and replace one existing file atomically; `edit` returns the new text or throws to leave it alone. */
  async edit<R>(file: string, edit: (text: string) => { text: string; result: R }): Promise<R> {
    const segments = memorySegments(file);
    const current = await this.read(file);
    if (current.kind === 'missing') throw new ToolError(`memory file ${q(file)} does not exist`, 'not_found');
    if (current.kind === 'dir') throw new ToolError(`memory path ${q(file)} is a folder, not a file`);
    const preview = edit(current.text);
    await this.checkRoom(file, segments, preview.text);
    const root = (await this.root(false))!;
    let result!: R;
    await editChecked(
      target(root, segments),
      MEMORY_LIMITS.fileBytes,
      (bytes) => {
        // The file as it is now (pinned), not as read above: edit that.
        const done = edit(bytes.toString('utf8'));
        result = done.result;
        if (Buffer.byteLength(done.text) > MEMORY_LIMITS.fileBytes) throw tooBig(file, Buffer.byteLength(done.text));
        return { data: done.text };
      },
      this.journal,
    );
    return result;
  }

  /** Move a file; never over an existing one (a hard link refuses that), never a folder. */
  async rename(from: string, to: string): Promise<void> {
    const src = memorySegments(from);
    const dst = memorySegments(to);
    const fromDir = await this.pinParent(src, false);
    if (fromDir === undefined) throw new ToolError(`memory file ${q(from)} does not exist`, 'not_found');
    try {
      const st = await lstat(fromDir.entry(src.at(-1)!)).catch(() => undefined);
      if (st === undefined) throw new ToolError(`memory file ${q(from)} does not exist`, 'not_found');
      if (st.isSymbolicLink()) throw new ToolError(`memory file ${q(from)} is a symlink; memory never follows links`, 'denied');
      if (st.isDirectory()) throw new ToolError(`memory path ${q(from)} is a folder; rename its files one by one`);
      const toDir = await this.pinParent(dst, true);
      try {
        try {
          await link(fromDir.entry(src.at(-1)!), toDir!.entry(dst.at(-1)!));
        } catch (err) {
          if (code(err) === 'EEXIST')
            throw new ToolError(`memory file ${q(to)} already exists; rename never overwrites (delete it first, or pick another name)`);
          throw err;
        }
        await unlink(fromDir.entry(src.at(-1)!));
        await toDir!.sync();
        await fromDir.sync();
      } finally {
        await toDir?.close();
      }
    } finally {
      await fromDir.close();
    }
  }

  /** Delete one file; a folder is refused. */
  async delete(file: string): Promise<void> {
    const segments = memorySegments(file);
    const dir = await this.pinParent(segments, false);
    if (dir === undefined) throw new ToolError(`memory file ${q(file)} does not exist`, 'not_found');
    let real: string;
    try {
      const st = await lstat(dir.entry(segments.at(-1)!)).catch(() => undefined);
      if (st === undefined) throw new ToolError(`memory file ${q(file)} does not exist`, 'not_found');
      if (st.isDirectory()) throw new ToolError(`memory path ${q(file)} is a folder; delete removes one file at a time`);
      real = `${dir.real}/${segments.at(-1)!}`;
    } finally {
      await dir.close();
    }
    const outcome = await removeChecked({ input: file, real, existing: path.dirname(real), exists: true });
    if (outcome === 'missing') throw new ToolError(`memory file ${q(file)} does not exist`, 'not_found');
  }

  /** Every folder on the way, and the file, must not be a link (writeChecked would refuse one too, in its own words). */
  private async refuseLinks(file: string, segments: readonly string[]): Promise<void> {
    const dir = await this.pinParent(segments, false);
    if (dir === undefined) return;
    try {
      const st = await lstat(dir.entry(segments.at(-1)!)).catch(() => undefined);
      if (st?.isSymbolicLink()) throw new ToolError(`memory file ${q(file)} is a symlink; memory never follows links`, 'denied');
      if (st?.isDirectory()) throw new ToolError(`memory path ${q(file)} is a folder, not a file`);
    } finally {
      await dir.close();
    }
  }

  /** The limits a write of `content` to `file` must keep: its size, the home's total and its file count. */
  private async checkRoom(file: string, segments: readonly string[], content: string): Promise<void> {
    const bytes = Buffer.byteLength(content);
    if (bytes > MEMORY_LIMITS.fileBytes) throw tooBig(file, bytes);
    const usage = await this.usage();
    const key = segments.join('/');
    const old = usage.sizes.get(key);
    const total = usage.total - (old ?? 0) + bytes;
    if (total > MEMORY_LIMITS.totalBytes) {
      throw new ToolError(
        `this write would bring the memory folder to ${total} bytes, above the ${MEMORY_LIMITS.totalBytes}-byte limit for one user's memory: shorten or delete notes first`,
      );
    }
    if (old === undefined && usage.sizes.size + 1 > MEMORY_LIMITS.files) {
      throw new ToolError(
        `the memory folder already holds ${usage.sizes.size} files, the limit for one user's memory: merge or delete notes first`,
      );
    }
  }

  /** Every file's size, by path (links and temporary files not counted: they are never read). */
  async usage(): Promise<{ total: number; sizes: Map<string, number> }> {
    const sizes = new Map<string, number>();
    const root = await this.root(false);
    if (root === undefined) return { total: 0, sizes };
    const dir = await PinnedDir.open(root);
    try {
      for (const e of await listing(dir, '', MEMORY_LIMITS.depth)) if (!e.dir) sizes.set(e.path, e.size);
    } finally {
      await dir.close();
    }
    let total = 0;
    for (const s of sizes.values()) total += s;
    return { total, sizes };
  }
}

function tooBig(file: string, bytes: number): ToolError {
  return new ToolError(
    `memory file ${q(file)} would be ${bytes} bytes, above the ${MEMORY_LIMITS.fileBytes}-byte limit for a memory file: keep notes short, or split them`,
  );
}

function target(root: string, segments: readonly string[]) {
  const real = path.join(root, ...segments);
  return { input: segments.join('/'), real, existing: root, exists: false };
}

/** A folder's entries to `depth` levels, sorted, skipping links, hidden names and temporary files. */
async function listing(dir: PinnedDir, prefix: string, depth: number): Promise<MemoryEntry[]> {
  const out: MemoryEntry[] = [];
  const names = (await readdir(dir.self)).filter((n) => !n.startsWith('.') && !n.endsWith(TMP_SUFFIX)).sort();
  for (const name of names) {
    const st = await lstat(dir.entry(name)).catch(() => undefined);
    if (st === undefined || st.isSymbolicLink()) continue;
    const p = prefix === '' ? name : `${prefix}/${name}`;
    if (st.isDirectory()) {
      out.push({ path: p, size: st.size, dir: true });
      if (depth > 1) {
        const sub = await dir.child(name, false);
        try {
          out.push(...(await listing(sub, p, depth - 1)));
        } finally {
          await sub.close();
        }
      }
    } else if (st.isFile()) out.push({ path: p, size: st.size, dir: false });
  }
  return out;
}

/** Write `content` to a temporary file in `dir`, then link it as `name`: EEXIST if `name` exists, whatever happens meanwhile. */
async function exclusive(dir: PinnedDir, name: string, content: string, shown: string): Promise<void> {
  const tmp = `.memory.${process.pid}.${(tmpCounter++).toString(36)}${Date.now().toString(36)}${TMP_SUFFIX}`;
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir.entry(tmp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    await fh.writeFile(content);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await dir.verify();
    try {
      await link(dir.entry(tmp), dir.entry(name));
    } catch (err) {
      if (code(err) === 'EEXIST')
        throw new ToolError(`memory file ${q(shown)} already exists; creating never overwrites (write the whole file to replace it)`);
      throw err;
    }
    await dir.sync();
  } finally {
    await fh?.close().catch(() => undefined);
    await unlink(dir.entry(tmp)).catch(() => undefined);
  }
}
