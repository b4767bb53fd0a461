import { LIMITS } from '../framework/limits.ts';

/**
 * The apply_patch envelope, parsed into file operations before anything is read.
 *
 *   *** Begin Patch
 *   *** Add File: <path>        then `+` lines: the new file's content
 *   *** Delete File: <path>
 *   *** Update File: <path>
 *   *** Move to: <path>         optional, right after the Update header
 *   @@ <context> | @@ | @<line>@ <context>   then ' ', '-', '+' lines
 *   *** End of File             optional: the chunk ends at the file's end
 *   *** End Patch
 *
 * Lenient where models are sloppy in harmless ways (Codex's rules): markers may
 * carry surrounding whitespace, a heredoc wrapper (`<<'EOF'` … `EOF`) is
 * stripped, the first chunk may omit its `@@`, a blank line inside a chunk is an
 * empty context line. Strict where a guess could edit the wrong place: every
 * error names the patch line and what was expected there.
 */

export interface PatchChunk {
  /** A line that must occur before the chunk (a function or class header), searched for first. */
  context?: string;
  /** `@<n>@ <context>`: where the model believes the context line is (1-based); the search starts there. */
  lineHint?: number;
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the old lines are at the end of the file. */
  endOfFile: boolean;
  /** The patch line the chunk starts on, for errors. */
  line: number;
}

export type PatchOp =
  | { kind: 'add'; path: string; line: number; content: string }
  | { kind: 'delete'; path: string; line: number }
  | { kind: 'update'; path: string; line: number; movePath?: string; moveLine?: number; chunks: PatchChunk[] };

/** A malformed patch: `line` is 1-based in the patch text as sent. */
export class PatchParseError extends Error {
  override readonly name = 'PatchParseError';
  constructor(
    readonly line: number,
    readonly expected: string,
  ) {
    super(`patch line ${line}: ${expected}`);
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';
const HEADERS = `'${ADD}<path>', '${UPDATE}<path>' or '${DELETE}<path>'`;

/** A patch line quoted in an error: bounded, so a huge line never fills the message. */
export function quoteLine(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

function isFileHeader(line: string): boolean {
  const t = line.trim();
  return t === END || t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE);
}

function pathOf(rest: string, line: number): string {
  const p = rest.trim();
  if (p === '') throw new PatchParseError(line, 'expected a file path after the header, got nothing');
  if (p.length > LIMITS.path) throw new PatchParseError(line, `expected a path of at most ${LIMITS.path} characters, got ${p.length}`);
  if (p.includes('\0')) throw new PatchParseError(line, 'expected a path without a NUL byte');
  return p;
}

export function parsePatch(text: string): PatchOp[] {
  // CRLF in the patch itself (a Windows client) is the same patch.
  const lines = text.split(/\r?\n/);
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && lines[first]!.trim() === '') first++;
  while (last >= first && lines[last]!.trim() === '') last--;
  if (first > last) throw new PatchParseError(1, `expected '${BEGIN}', got an empty patch`);
  // A heredoc wrapper, as a model that thinks it is writing a shell command sends it.
  if (/^<<(EOF|'EOF'|"EOF")$/.test(lines[first]!.trim()) && lines[last]!.trim().endsWith('EOF') && last - first >= 3) {
    first++;
    last--;
  }
  if (lines[first]!.trim() !== BEGIN) {
    throw new PatchParseError(first + 1, `expected '${BEGIN}' as the first line, got ${quoteLine(lines[first]!)}`);
  }
  if (lines[last]!.trim() !== END || last === first) {
    throw new PatchParseError(last + 1, `expected '${END}' as the last line, got ${quoteLine(lines[last]!)}`);
  }

  const ops: PatchOp[] = [];
  let i = first + 1;
  while (i < last) {
    const raw = lines[i]!;
    // `*** Delete File:` with the path missing is still that header: the error should say the path is missing.
    const header = raw.trim().endsWith(':') ? `${raw.trim()} ` : raw.trim();
    const lineNo = i + 1;
    if (header.trim() === '') {
      i++;
      continue;
    }
    if (header.startsWith(ADD)) {
      const path = pathOf(header.slice(ADD.length), lineNo);
      let content = '';
      i++;
      while (i < last && lines[i]!.startsWith('+')) content += `${lines[i++]!.slice(1)}\n`;
      ops.push({ kind: 'add', path, line: lineNo, content });
      continue;
    }
    if (header.startsWith(DELETE)) {
      ops.push({ kind: 'delete', path: pathOf(header.slice(DELETE.length), lineNo), line: lineNo });
      i++;
      continue;
    }
    if (header.startsWith(UPDATE)) {
      const path = pathOf(header.slice(UPDATE.length), lineNo);
      const op: Extract<PatchOp, { kind: 'update' }> = { kind: 'update', path, line: lineNo, chunks: [] };
      i++;
      if (i < last && lines[i]!.trim().startsWith(MOVE)) {
        op.movePath = pathOf(lines[i]!.trim().slice(MOVE.length), i + 1);
        op.moveLine = i + 1;
        i++;
      }
      i = parseChunks(lines, i, last, op.chunks);
      if (op.chunks.length === 0) {
        throw new PatchParseError(lineNo, `expected '@@' and change lines after '${UPDATE}${path}', got none`);
      }
      ops.push(op);
      continue;
    }
    throw new PatchParseError(lineNo, `expected a file header (${HEADERS}) or '${END}', got ${quoteLine(raw)}`);
  }
  if (ops.length === 0) throw new PatchParseError(first + 2, `expected at least one file operation (${HEADERS})`);
  return ops;
}

/** The chunks of one Update File, from `i` up to the next file header; returns where it stopped. */
function parseChunks(lines: string[], i: number, end: number, chunks: PatchChunk[]): number {
  let current: PatchChunk | undefined;
  const open = (lineNo: number, context?: string, lineHint?: number): PatchChunk => {
    rejectEmpty(current);
    current = { oldLines: [], newLines: [], endOfFile: false, line: lineNo };
    if (context !== undefined) current.context = context;
    if (lineHint !== undefined) current.lineHint = lineHint;
    chunks.push(current);
    return current;
  };
  for (; i < end && !isFileHeader(lines[i]!); i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    const trimmed = line.trimEnd();
    if (trimmed === '') {
      // Between chunks a blank line separates; inside one it is an empty context line.
      if (current && !current.endOfFile) {
        current.oldLines.push('');
        current.newLines.push('');
      }
      continue;
    }
    if (trimmed === '@@' || trimmed.startsWith('@@ ')) {
      const context = trimmed === '@@' ? undefined : trimmed.slice(3);
      open(lineNo, context === '' ? undefined : context);
      continue;
    }
    const hint = /^@(\d*)@(.*)$/.exec(trimmed);
    if (hint) {
      const n = Number(hint[1]);
      const context = hint[2]!.startsWith(' ') ? hint[2]!.slice(1) : '';
      if (!Number.isInteger(n) || n < 1 || hint[1] === '') {
        throw new PatchParseError(lineNo, `expected '@<line number>@ <context>' with a positive line number, got ${quoteLine(line)}`);
      }
      if (context.trim() === '') throw new PatchParseError(lineNo, `expected context text after '@${n}@ ', got ${quoteLine(line)}`);
      open(lineNo, context, n);
      continue;
    }
    if (trimmed.trim() === EOF_MARKER) {
      if (!current) throw new PatchParseError(lineNo, `expected change lines before '${EOF_MARKER}'`);
      rejectEmpty(current, lineNo);
      current.endOfFile = true;
      continue;
    }
    const mark = line[0];
    if (mark === ' ' || mark === '-' || mark === '+') {
      if (current?.endOfFile)
        throw new PatchParseError(lineNo, `expected a new '@@' chunk or a file header after '${EOF_MARKER}', got ${quoteLine(line)}`);
      const chunk = current ?? open(lineNo);
      const body = line.slice(1);
      if (mark !== '+') chunk.oldLines.push(body);
      if (mark !== '-') chunk.newLines.push(body);
      continue;
    }
    throw new PatchParseError(
      lineNo,
      `expected a change line (starting with ' ', '-' or '+'), '@@', or a file header (${HEADERS}), got ${quoteLine(line)}`,
    );
  }
  rejectEmpty(current, i + 1);
  return i;
}

function rejectEmpty(chunk: PatchChunk | undefined, at?: number): void {
  if (chunk && chunk.oldLines.length === 0 && chunk.newLines.length === 0) {
    throw new PatchParseError(
      at ?? chunk.line,
      `expected change lines (' ', '-' or '+') in the chunk that starts on patch line ${chunk.line}`,
    );
  }
}
