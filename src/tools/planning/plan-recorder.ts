import { readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolvePath } from '../../permissions/resolve-path.ts';
import { writeChecked } from '../shared/safe-fs.ts';
import { ToolError } from '../framework/tool.ts';

export type PlanMode = 'advisory' | 'required';

export interface PlanAuthor {
  agent?: string | undefined;
  session?: string | undefined;
  turn: number;
}

export type PlanOutcome = 'recorded' | 'updated' | 'unchanged';

interface Filed {
  digest: string;
  turn: number;
  seq: number;
  file: string;
}

/**
 * Plan-first (record_plan + permissions.plan_mode). Plans are filed as
 * `.agents/plans/plan-<seq>.md` with a small YAML block saying who wrote them.
 * A sequence number is allocated per plan, not per call: the same author
 * revising within one turn overwrites its own file, an identical plan writes
 * nothing, and a revoked sequence (plan-<seq>-revoked.md) is never reused. Under
 * `required` the gate refuses state-changing tools for a session until its plan
 * is on file.
 */
export class PlanRecorder {
  private readonly filed = new Map<string, Filed>();
  /** Sessions whose gate a plan has opened (the flag is per session; plans are per author). */
  private readonly open = new Set<string>();
  private gated: readonly string[] | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  /** Where plans are filed: `.agents/plans` under the workspace. */
  readonly dir: string;

  constructor(
    readonly mode: PlanMode,
    /** The workspace root, symlinks resolved. */
    private readonly workspace: string,
  ) {
    this.dir = path.join(workspace, '.agents', 'plans');
  }

  /** The tools this build holds back until a plan exists (reported when the gate opens). */
  setGatedTools(names: readonly string[]): void {
    this.gated = names;
  }

  get gatedTools(): readonly string[] | null {
    return this.gated;
  }

  /** Whether plan-first still holds this session's state-changing calls back. */
  blocks(session: string | undefined): boolean {
    return this.mode === 'required' && !this.open.has(session ?? '');
  }

  record(plan: string, author: PlanAuthor): Promise<{ outcome: PlanOutcome; file: string; seq: number; opened: boolean }> {
    // One at a time: sequence allocation reads the directory.
    const run = this.queue.then(() => this.recordNow(plan, author));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** /replan: archive the author's own active plan; the gate closes again either way. */
  async revoke(author: Omit<PlanAuthor, 'turn'>): Promise<string> {
    const k = key(author);
    this.open.delete(author.session ?? '');
    const mine = this.filed.get(k);
    if (!mine) return 'no active plan of yours to revoke; the plan gate is closed';
    this.filed.delete(k);
    const archived = mine.file.replace(/\.md$/, '-revoked.md');
    try {
      await rename(mine.file, archived);
    } catch {
      return `plan ${mine.seq} was already gone; the plan gate is closed`;
    }
    return this.mode === 'required'
      ? `Plan revoked. Archived to ${archived}. The next state-changing call will be denied until the agent calls record_plan again.`
      : `Plan revoked. Archived to ${archived}.`;
  }

  private async recordNow(plan: string, author: PlanAuthor) {
    const k = key(author);
    const { createHash } = await import('node:crypto'); // on use: crypto is slow to load
    const digest = createHash('sha256').update(plan).digest('hex');
    const previous = this.filed.get(k);
    const wasOpen = this.open.has(author.session ?? '');
    if (previous && previous.digest === digest && (await exists(previous.file))) {
      return { outcome: 'unchanged' as const, file: previous.file, seq: previous.seq, opened: false };
    }
    let seq: number;
    let outcome: PlanOutcome;
    if (previous && previous.turn === author.turn && (await exists(previous.file))) {
      seq = previous.seq;
      outcome = 'updated';
    } else {
      seq = (await highestSeq(this.dir)) + 1;
      outcome = 'recorded';
    }
    const file = path.join(this.dir, `plan-${seq}.md`);
    // The plan goes where the workspace's .agents/plans really is, and only if that is inside
    // the workspace: a repository's .agents symlinked elsewhere does not get the plan written there.
    const target = await resolvePath(file, this.workspace);
    if (!target.real.startsWith(this.workspace === '/' ? '/' : `${this.workspace}/`)) {
      throw new ToolError(`.agents/plans leads outside the workspace (to ${target.real}); the plan was not filed`);
    }
    await writeChecked(target, `${frontmatter(seq, author)}${plan.trim()}\n`);
    this.filed.set(k, { digest, turn: author.turn, seq, file });
    this.open.add(author.session ?? '');
    return { outcome, file, seq, opened: this.mode === 'required' && !wasOpen };
  }
}

function key(a: { agent?: string | undefined; session?: string | undefined }): string {
  return `${a.agent ?? ''}\0${a.session ?? ''}`;
}

/** Keys are left out when unknown: "no attribution" differs from "attributed as empty". */
function frontmatter(seq: number, a: PlanAuthor): string {
  const lines = ['---', `plan: ${seq}`];
  if (a.agent) lines.push(`agent: ${JSON.stringify(a.agent)}`);
  if (a.session) lines.push(`session: ${JSON.stringify(a.session)}`);
  lines.push('---', '', '');
  return lines.join('\n');
}

async function highestSeq(dir: string): Promise<number> {
  let max = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = /^plan-(\d+)(?:-revoked)?\.md$/.exec(name);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
