import type { AgentEvent, TurnResult } from '../agent/agent.ts';
import type { PlanStep } from '../tools/framework/session.ts';
import { painter, type Paint } from './terminal/colors.ts';
import { LiveRegion } from './terminal/live-region.ts';
import type { Io } from './usage.ts';
import { monotonicMs } from '../util/monotonic.ts';
import { estimatedNote } from '../model/pricing.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface RendererOptions {
  /** Colour the marks and the summary (decided by shouldColor: NO_COLOR, FORCE_COLOR, the terminal). */
  color?: boolean;
  /** The terminal's width, so a live line never wraps (a wrapped line could not be erased exactly). */
  columns?: () => number | undefined;
}

/**
 * Human output for `run` and the REPL — the one writer of the terminal while a
 * turn runs. The model's text goes to stdout, everything else to stderr, and on
 * a terminal a live region (the working indicator and update_plan's checklist)
 * sits below the last line written. Only that region is ever erased: before any
 * other write it is cleared, the write goes above it, and it is drawn again
 * only when the cursor is at the start of a line (never in the middle of
 * streamed text). Prompts pause it (`pause` / `resume`), and the paused time is
 * not counted as a call's running time.
 */
export class TextRenderer {
  private running = new Map<string, { name: string; args: string; started: number }>();
  private timer: NodeJS.Timeout | null = null;
  private frame = 0;
  /** Text of the current response already printed as it streamed. */
  private streamed = false;
  private turnStarted: number | null = null;
  private pausedAt: number | null = null;
  /** Pauses nest (a dialog of several questions): the region returns when the outermost ends. */
  private pauses = 0;
  private plan: { steps: PlanStep[]; explanation: string | undefined } | null = null;
  private readonly region: LiveRegion;
  private readonly paint: Paint;

  constructor(
    private readonly io: Io,
    /** On a terminal: a live spinner with elapsed time. Elsewhere: one plain line per call. */
    private readonly live: boolean,
    opts: RendererOptions = {},
  ) {
    this.paint = painter(opts.color ?? false);
    this.region = new LiveRegion((s) => io.err(s), opts.columns ?? (() => undefined));
  }

  onEvent = (e: AgentEvent): void => {
    switch (e.type) {
      case 'text_delta':
        this.out(e.delta);
        this.streamed = true;
        break;
      case 'text':
        // Streamed: the text is on screen already and only its line needs ending.
        if (!this.streamed) this.out(`${e.text}\n`);
        else if (!this.region.atLineStart) this.out('\n');
        this.streamed = false;
        break;
      case 'tool_start':
        this.running.set(e.id, { name: e.name, args: e.args, started: monotonicMs() });
        this.startTimer();
        break;
      case 'tool_end': {
        const call = this.running.get(e.id);
        this.running.delete(e.id);
        const mark = e.ok ? this.paint('green', '✓') : this.paint('red', '✗');
        const detail = e.ok ? '' : ` — ${e.error}`;
        this.err(`${mark} ${e.name} ${this.paint('dim', abbreviate(call?.args ?? ''))} (${e.ms} ms)${detail}\n`);
        break;
      }
      case 'retry':
        this.err(
          `${this.paint('yellow', '!')} model call failed (${e.reason}); attempt ${e.attempt + 1} of ${e.attempts} in ${(e.delayMs / 1000).toFixed(1)}s\n`,
        );
        break;
      case 'step_limit':
        this.err(`${this.paint('yellow', '!')} step limit (${e.steps}) reached; asking the model for a final answer without tools\n`);
        break;
      case 'watchdog':
        this.err(`${this.paint('yellow', '!')} watchdog ${e.alert.severity} ${e.alert.signal} (${e.action}): ${e.alert.reason}\n`);
        break;
      case 'checkpoint':
        this.err(`· checkpoint recorded: ${e.detail.slice(0, 100)}\n`);
        break;
      case 'compaction':
        this.err(compactionLine(e, this.paint));
        break;
      case 'agent_start':
        this.err(`${this.paint('dim', '⤷')} agent ${e.name} (${e.profile}, ${e.model}) started\n`);
        break;
      case 'agent_end': {
        const cost = e.costUsd === null ? '' : `, $${e.costUsd.toFixed(4)}`;
        const why = e.stopReason && e.stopReason !== 'natural' ? `: ${e.stopReason}` : '';
        const mark = e.status === 'done' && why === '' ? this.paint('green', '✓') : this.paint('yellow', '!');
        this.err(`${mark} agent ${e.name} ${e.status}${why} (${e.turns} turn(s)${cost})\n`);
        break;
      }
      case 'plan':
        // Live: under the working indicator, redrawn in place, gone at the turn's end.
        // Elsewhere: one plain block per change, in order with the calls.
        if (this.live) {
          this.plan = { steps: e.plan, explanation: e.explanation };
          this.startTimer();
          this.redraw();
        } else this.err(planLines(e.plan, e.explanation));
        break;
    }
  };

  /** A turn begins: on a terminal the working indicator shows while the model is asked. */
  startTurn(): void {
    this.turnStarted = monotonicMs();
    this.pausedAt = null;
    this.startTimer();
  }

  finish(result: TurnResult): void {
    this.endTurn();
    const cost = result.usage.costUsd === null ? 'cost unknown' : `$${result.usage.costUsd.toFixed(4)}`;
    this.err(
      this.paint(
        'dim',
        `— ${result.status}, ${result.steps} step(s), ${result.usage.inputTokens} in / ${result.usage.outputTokens} out tokens${estimatedNote(result.usage)}, ${cost}\n`,
      ),
    );
  }

  /** The turn was cancelled (Ctrl-C): the region goes, and the operator is told where things stand. */
  cancelled(note: string): void {
    this.endTurn();
    this.err(`${this.paint('yellow', '— cancelled')}: ${note}\n`);
  }

  /** A line from elsewhere (a warning, a log line): above the live region, never over it. */
  note(text: string): void {
    this.err(text);
  }

  /** Before a prompt: the region goes and the clock stops, so the question is not drawn over. */
  pause(): void {
    this.pauses++;
    this.stopTimer();
    this.region.clear();
    this.pausedAt ??= monotonicMs();
  }

  /** After the answer: calls running and the turn resume their clocks minus the time spent waiting. */
  resume(): void {
    this.pauses = Math.max(0, this.pauses - 1);
    if (this.pauses > 0 || this.pausedAt === null) return;
    const waited = monotonicMs() - this.pausedAt;
    this.pausedAt = null;
    for (const r of this.running.values()) r.started += waited;
    if (this.turnStarted !== null) this.turnStarted += waited;
    if (this.turnStarted !== null || this.running.size > 0) this.startTimer();
  }

  /** The turn is over (or the command is leaving): the live region is erased for good. */
  stopSpinner(): void {
    this.endTurn();
  }

  private endTurn(): void {
    this.stopTimer();
    this.running.clear();
    this.plan = null;
    this.turnStarted = null;
    this.pausedAt = null;
    this.pauses = 0;
    this.region.clear();
  }

  private out(text: string): void {
    this.region.clear();
    this.io.out(text);
    this.region.wrote(text);
  }

  private err(text: string): void {
    this.region.clear();
    this.io.err(text);
    this.region.wrote(text);
    this.redraw();
  }

  private startTimer(): void {
    if (!this.live || this.timer || this.pausedAt !== null) return;
    this.timer = setInterval(() => this.redraw(), 80);
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private redraw(): void {
    if (!this.live || this.timer === null) return;
    const calls = [...this.running.values()];
    const since = calls.length > 0 ? Math.min(...calls.map((r) => r.started)) : this.turnStarted;
    const lines: string[] = [];
    if (since !== null) {
      const what = calls.length > 0 ? calls.map((r) => r.name).join(', ') : 'working';
      const secs = ((monotonicMs() - since) / 1000).toFixed(1);
      this.frame = (this.frame + 1) % FRAMES.length;
      lines.push(`${this.paint('cyan', FRAMES[this.frame]!)} ${what} ${this.paint('dim', `${secs}s`)}`);
    }
    if (this.plan) lines.push(...planLines(this.plan.steps, this.plan.explanation).trimEnd().split('\n'));
    this.region.draw(lines);
  }
}

const PLAN_MARKS = { pending: '○', in_progress: '▶', completed: '✓' } as const;

/** update_plan's checklist as the operator sees it: a heading, then one marked line per step. */
export function planLines(plan: readonly PlanStep[], explanation: string | undefined): string {
  const head = `· plan${explanation ? ` — ${abbreviate(explanation)}` : ''}\n`;
  return head + plan.map((s) => `  ${PLAN_MARKS[s.status]} ${abbreviate(s.step)}\n`).join('');
}

function abbreviate(args: string): string {
  const flat = args.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

/** The one line a compaction gets on a terminal (and in /compact's answer). */
export function compactionLine(e: Extract<AgentEvent, { type: 'compaction' }>, paint: Paint = painter(false)): string {
  const why = e.trigger === 'auto' ? ': the conversation neared the context window' : ' as asked';
  if (!e.ok) return `${paint('yellow', '!')} compaction failed (${e.error}); the conversation is unchanged\n`;
  return `· compacted${why}: ~${e.tokensBefore} → ~${e.tokensAfter} tokens (a completion record replaces the conversation)\n`;
}
