import { createTwoFilesPatch } from 'diff';
import { alwaysRule, type FileChange, type GateRequest, type PromptAnswer, type Prompter } from '../../permissions/gate.ts';
import type { ReadLine } from '../../runtime/choices.ts';
import type { Paint } from './colors.ts';

/** Arguments an edit's diff already shows: printed again they would only push the diff off screen. */
const SHOWN_AS_DIFF = new Set(['content', 'old_string', 'new_string', 'patch']);
const MAX_ARG_LINES = 40;
const MAX_DIFF_LINES = 200;
const MAX_LINE_CHARS = 400;

export const APPROVAL_CHOICES = '[y] once  [a] always this session  [n] deny  [m] deny with a note to the model';

/**
 * The approval dialog's text: the tool, every argument in full (bounded), and
 * for an edit the coloured unified diff of each file it would change.
 */
export async function approvalText(req: GateRequest, paint: Paint): Promise<string> {
  const who = req.agent !== undefined ? `${paint('magenta', `[${inert(req.agent)}]`)} ` : '';
  const lines = [`${paint(['bold', 'yellow'], '?')} ${who}${paint('bold', req.tool)} asks for approval`];
  const args = req.call?.args;
  const changes = req.call?.changes ? await req.call.changes().catch(() => []) : [];
  if (args && typeof args === 'object') {
    for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
      if (changes.length > 0 && SHOWN_AS_DIFF.has(k)) continue;
      const text = typeof v === 'string' ? v : JSON.stringify(v);
      const [first = '', ...rest] = bounded(text.split('\n'), MAX_ARG_LINES);
      lines.push(`  ${paint('cyan', k)}: ${inert(first)}`, ...rest.map((l) => `    ${inert(l)}`));
    }
  } else {
    const target = req.subjects.map((s) => s.forms[0]).filter(Boolean);
    if (target.length) lines.push(`  on ${inert(target.join(', '))}`);
  }
  for (const c of changes) lines.push(...bounded(diffLines(c), MAX_DIFF_LINES).map((l) => `  ${colourDiffLine(inert(l), paint)}`));
  return `${lines.join('\n')}\n`;
}

function diffLines(c: FileChange): string[] {
  const patch = createTwoFilesPatch(
    c.before === undefined ? '/dev/null' : `a/${c.path}`,
    c.after === undefined ? '/dev/null' : `b/${c.path}`,
    c.before ?? '',
    c.after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  // The first line is a "====" separator the patch format does not need here.
  const out = patch.split('\n').filter((l, i) => !(i === 0 && l.startsWith('=')));
  while (out.at(-1) === '') out.pop();
  return out.length <= 2 ? [`${out.join(' ')} (no change)`] : out;
}

function colourDiffLine(l: string, paint: Paint): string {
  if (l.startsWith('+++') || l.startsWith('---')) return paint('bold', l);
  if (l.startsWith('@@')) return paint('cyan', l);
  if (l.startsWith('+')) return paint('green', l);
  if (l.startsWith('-')) return paint('red', l);
  return l;
}

function bounded(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `… ${lines.length - max} more lines`];
}

/**
 * Bounded, and inert: a control character in a file or an argument (a carriage
 * return, an escape sequence) is shown as a code, never sent to the terminal,
 * so no call can redraw the dialog to hide what it does. CRLF line ends are
 * dropped (the diff is line by line).
 */
function inert(l: string): string {
  const visible = l
    .replace(/\r$/, '')
    .replace(/[\x00-\x08\x0b-\x1f\x7f\x9b]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return visible.length > MAX_LINE_CHARS ? `${visible.slice(0, MAX_LINE_CHARS - 1)}…` : visible;
}

/** The answers every dialog takes (the REPL's also takes "always, saved": DialogPrompter). */
export type DialogAnswer = 'once' | 'session' | 'deny' | { readonly deny: string };

/** A reply to the dialog: an answer, 'note' (ask for the note next), or null (ask again). */
export function parseApproval(reply: string): DialogAnswer | 'note' | null {
  const r = reply.trim();
  const lower = r.toLowerCase();
  if (lower === 'y' || lower === 'yes' || lower === 'once') return 'once';
  if (lower === 'a' || lower === 'always') return 'session';
  if (lower === 'n' || lower === 'no' || lower === 'deny' || lower === '') return 'deny';
  if (lower === 'm' || lower === 'note') return 'note';
  // "m use port 8080": the note on the same line.
  const inline = /^(?:m|note)\s+(.+)$/is.exec(r);
  if (inline) return { deny: inline[1]!.trim() };
  return null;
}

/**
 * The approval dialog on a line terminal: the call in full, then the choices,
 * read through the one reader of stdin. `hold`/`release` bracket the wait (the
 * renderer's working indicator stops, its clock too). No answer (input ended,
 * the turn cancelled) is a deny.
 */
export class DialogPrompter implements Prompter {
  constructor(
    private readonly read: ReadLine,
    private readonly write: (text: string) => void,
    private readonly paint: Paint,
    private readonly hold: () => void = () => undefined,
    private readonly release: () => void = () => undefined,
    /**
     * "Always, saved" (`s`): writes the rule to the workspace's config and returns the line to
     * show; absent, the choice is not offered. A failure to save still allows by the rule, for
     * this session, and says why it was not saved.
     */
    private readonly saveRule?: (rule: string) => Promise<string>,
  ) {}

  async ask(req: GateRequest & { namespace: string }): Promise<PromptAnswer> {
    this.hold();
    try {
      this.write(await approvalText(req, this.paint));
      const rule = this.saveRule ? alwaysRule(req) : undefined;
      if (rule) this.write(`  [s] always: save the rule "${inert(rule)}" to the workspace config (.agents/config.yaml)\n`);
      let prompt = `Allow ${req.agent !== undefined ? `[${inert(req.agent)}] ` : ''}${req.tool}? ${APPROVAL_CHOICES}: `;
      for (;;) {
        const reply = await this.read(prompt);
        if (reply === null) return 'deny'; // nobody left to answer
        if (rule && this.saveRule && /^(s|save)$/i.test(reply.trim())) {
          const said = await this.saveRule(rule).catch(
            (err: unknown) => `not saved: ${(err as Error).message}; allowed by it for this session`,
          );
          this.write(`${said}\n`);
          return { allowRule: rule };
        }
        const answer = parseApproval(reply);
        if (answer === 'note') {
          const note = await this.read('Note to the model: ');
          if (note === null) return 'deny';
          return note.trim() ? { deny: note.trim() } : 'deny';
        }
        if (answer !== null) return answer;
        prompt = rule ? 'Answer y, a, s, n or m: ' : 'Answer y, a, n or m: ';
      }
    } finally {
      this.release();
    }
  }
}
