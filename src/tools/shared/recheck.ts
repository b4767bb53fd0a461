import { readdir } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { PinnedDir, openEntry } from './safe-fs.ts';

/**
 * ripgrep walks by itself, by path: a directory swapped for a symlink to
 * outside while it walks is followed, and what it then prints — names, lines —
 * comes from outside under an inside name. Nothing can pin rg's walk from out
 * here, so what it reports is checked again, through descriptors, before
 * anyone sees it: every directory from the checked root down is opened with
 * O_NOFOLLOW inside the one before (the root's descriptor verified to be the
 * checked path), and a name is kept only if it is a regular file there; a
 * match only if that file, read through the same descriptors, holds the very
 * line rg printed at that line number. What escaped is dropped.
 */

/** Group `rels` (paths relative to the root, `./` allowed) by directory and visit each directory through pinned descriptors. */
async function visitPinned(
  root: string,
  rels: Iterable<string>,
  onDir: (dir: PinnedDir, names: ReadonlyMap<string, string>) => Promise<void>,
): Promise<void> {
  interface Node {
    readonly dirs: Map<string, Node>;
    /** File name → the rel it was asked for as. */
    readonly files: Map<string, string>;
  }
  const top: Node = { dirs: new Map(), files: new Map() };
  for (const rel of rels) {
    const parts = rel.replace(/^(\.\/)+/, '').split('/');
    // rg never prints these; a record that has them is not a path this check can vouch for.
    if (parts.some((p) => p === '' || p === '.' || p === '..')) continue;
    let node = top;
    for (const p of parts.slice(0, -1)) {
      let next = node.dirs.get(p);
      if (!next) node.dirs.set(p, (next = { dirs: new Map(), files: new Map() }));
      node = next;
    }
    node.files.set(parts.at(-1)!, rel);
  }
  const walk = async (dir: PinnedDir, node: Node): Promise<void> => {
    if (node.files.size > 0) await onDir(dir, node.files);
    for (const [name, child] of node.dirs) {
      let sub: PinnedDir;
      try {
        sub = await dir.child(name, false);
      } catch {
        continue; // gone, or a symlink now: nothing below it is vouched for
      }
      try {
        await walk(sub, child);
      } finally {
        await sub.close();
      }
    }
  };
  const rootDir = await PinnedDir.open(root);
  try {
    await walk(rootDir, top);
  } finally {
    await rootDir.close();
  }
}

/** The rels (relative to `root`) that are regular files in the checked tree now. */
export async function regularFilesIn(root: string, rels: readonly string[]): Promise<Set<string>> {
  const kept = new Set<string>();
  await visitPinned(root, rels, async (dir, names) => {
    let entries;
    try {
      entries = await readdir(dir.self, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = names.get(e.name);
      if (rel !== undefined && e.isFile()) kept.add(rel);
    }
  });
  return kept;
}

export interface ReportedLine {
  /** The file as rg printed it, relative to the directory it ran in. */
  readonly rel: string;
  readonly line: number;
  readonly text: string;
}

/** What rg's --max-columns-preview puts after a line it cut. */
const CUT_MARK = /\s\[\.\.\. (?:omitted end of long line|\d+ more matches?)\]$/;

/** The reported lines that the checked file really holds, as rg printed them. */
export async function linesConfirmed(root: string, reported: readonly ReportedLine[]): Promise<ReportedLine[]> {
  const byRel = new Map<string, ReportedLine[]>();
  for (const r of reported) {
    if (!Number.isInteger(r.line) || r.line < 1) continue;
    const list = byRel.get(r.rel);
    if (list) list.push(r);
    else byRel.set(r.rel, [r]);
  }
  const kept: ReportedLine[] = [];
  await visitPinned(root, byRel.keys(), async (dir, names) => {
    for (const [name, rel] of names) {
      let fh: FileHandle;
      try {
        fh = await openEntry(dir, name, rel);
      } catch {
        continue; // a symlink, a directory or gone now: not the file rg read
      }
      try {
        const mine = byRel.get(rel)!;
        const lines = await linesAt(
          fh,
          mine.map((r) => r.line),
        );
        for (const r of mine) {
          const held = lines.get(r.line);
          if (held !== undefined && sameLine(r.text, held)) kept.push(r);
        }
      } catch {
        // unreadable now: nothing confirmed
      } finally {
        await fh.close();
      }
    }
  });
  return kept;
}

/** rg's text (CR already stripped) against the line read through the descriptor (`cut`: only its first bytes were kept). */
function sameLine(printed: string, held: { text: string; cut: boolean }): boolean {
  const mark = CUT_MARK.exec(printed);
  if (mark) return held.text.startsWith(printed.slice(0, mark.index));
  return !held.cut && stripCr(held.text) === printed;
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}

/** Bytes kept of a line: rg prints at most 500 characters of one (2,000 bytes), so this always covers what it printed. */
const KEEP_BYTES = 4096;
/** A UTF-16 file (rg transcodes one with a BOM) is read whole up to this, else its matches stay unconfirmed. */
const MAX_UTF16_BYTES = 64 * 1024 * 1024;

/** The text of the wanted lines (1-based), decoded as rg decodes: a UTF-8 BOM dropped, UTF-16 with a BOM transcoded. */
async function linesAt(fh: FileHandle, wanted: readonly number[]): Promise<Map<number, { text: string; cut: boolean }>> {
  const want = new Set(wanted);
  const last = Math.max(...wanted);
  const out = new Map<number, { text: string; cut: boolean }>();
  const head = Buffer.alloc(3);
  const { bytesRead: headBytes } = await fh.read(head, 0, 3, 0);
  const utf16 = headBytes >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  if (utf16) {
    const st = await fh.stat();
    if (st.size > MAX_UTF16_BYTES) return out;
    const text = new TextDecoder(head[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(await fh.readFile());
    text.split('\n').forEach((t, i) => want.has(i + 1) && out.set(i + 1, { text: t, cut: false }));
    return out;
  }
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const buf = Buffer.allocUnsafe(64 * 1024);
  let position = 0;
  let lineNo = 1;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let cut = false;
  const finish = () => {
    if (want.has(lineNo)) {
      let text = decoder.decode(Buffer.concat(parts));
      if (lineNo === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
      out.set(lineNo, { text, cut });
    }
    parts = [];
    partBytes = 0;
    cut = false;
    lineNo += 1;
  };
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      const end = nl === -1 || nl >= bytesRead ? bytesRead : nl;
      if (want.has(lineNo) && partBytes < KEEP_BYTES) {
        const take = Math.min(end - start, KEEP_BYTES - partBytes);
        parts.push(Buffer.from(buf.subarray(start, start + take)));
        partBytes += take;
        if (take < end - start) cut = true;
      } else if (want.has(lineNo) && end > start) cut = true;
      if (end === bytesRead) break;
      finish();
      if (lineNo > last) return out;
      start = end + 1;
    }
  }
  if (partBytes > 0 || parts.length > 0) finish();
  return out;
}
