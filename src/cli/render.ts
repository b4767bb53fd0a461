import type { AgentEvent, TurnResult } from '../agent/agent.ts';
import type { PlanStep } from '../tools/session.ts';
import type { Io } from './usage.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Human output for `run`: the model's text on stdout, tool calls as progress on stderr. */
export class TextRenderer {
  private running = new Map<string, { name: string; args: string; started: number }>();
  private timer: NodeJS.Timeout | null = null;
  private frame = 0;
  /** A spinner frame is on the current line: only then is there something of ours to erase. */
  private drawn = false;
  /** Text of the current response already printed as it streamed. */
  private streamed = false;

  constructor(
    private readonly io: Io,
    /** On a terminal: a live spinner with elapsed time. Elsewhere: one plain line per call. */
    private readonly live: boolean,
  ) {}

  onEvent = (e: AgentEvent): void => {
    switch (e.type) {
      case 'text_delta':
        this.clearSpinner();
        this.io.out(e.delta);
        this.streamed = true;
        break;
      case 'text':
        this.clearSpinner();
        this.io.out(this.streamed ? '\n' : `${e.text}\n`);
        this.streamed = false;
        break;
      case 'tool_start':
        this.running.set(e.id, { name: e.name, args: e.args, started: performance.now() });
        if (this.live && !this.timer) this.timer = setInterval(() => this.drawSpinner(), 80);
        break;
      case 'tool_end': {
        const call = this.running.get(e.id);
        this.running.delete(e.id);
        this.clearSpinner();
        const mark = e.ok ? '✓' : '✗';
        const detail = e.ok ? '' : ` — ${e.error}`;
        this.io.err(`${mark} ${e.name} ${abbreviate(call?.args ?? '')} (${e.ms} ms)${detail}\n`);
        if (this.running.size === 0) this.stopSpinner();
        break;
      }
      case 'step_limit':
        this.clearSpinner();
        this.io.err(`! step limit (${e.steps}) reached; asking the model for a final answer without tools\n`);
        break;
      case 'watchdog':
        this.clearSpinner();
        this.io.err(`! watchdog ${e.alert.severity} ${e.alert.signal} (${e.action}): ${e.alert.reason}\n`);
        break;
      case 'checkpoint':
        this.clearSpinner();
        this.io.err(`· checkpoint recorded: ${e.detail.slice(0, 100)}\n`);
        break;
      case 'plan':
        // One plain block per change, under the calls so far (not a redrawn live region).
        this.clearSpinner();
        this.io.err(planLines(e.plan, e.explanation));
        break;
    }
  };

  finish(result: TurnResult): void {
    this.stopSpinner();
    const cost = result.usage.costUsd === null ? 'cost unknown' : `$${result.usage.costUsd.toFixed(4)}`;
    this.io.err(
      `— ${result.status}, ${result.steps} step(s), ${result.usage.inputTokens} in / ${result.usage.outputTokens} out tokens, ${cost}\n`,
    );
  }

  stopSpinner(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.clearSpinner();
  }

  private drawSpinner(): void {
    const oldest = Math.min(...[...this.running.values()].map((r) => r.started));
    const names = [...this.running.values()].map((r) => r.name).join(', ');
    const secs = ((performance.now() - oldest) / 1000).toFixed(1);
    this.frame = (this.frame + 1) % FRAMES.length;
    this.io.err(`\r\x1b[2K${FRAMES[this.frame]} ${names} ${secs}s`);
    this.drawn = true;
  }

  /** Erase the spinner's line — never a line of streamed answer text, which shares the terminal. */
  private clearSpinner(): void {
    if (!this.live || !this.drawn) return;
    this.io.err('\r\x1b[2K');
    this.drawn = false;
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

/** JSON Lines for programs: one object per event, the last one `{"type":"exit","status":N}`. */
export class JsonRenderer {
  constructor(private readonly io: Io) {}

  line(obj: Record<string, unknown>): void {
    this.io.out(`${JSON.stringify(obj)}\n`);
  }

  /** Deltas are for terminals; programs get each response's whole text once. */
  onEvent = (e: AgentEvent): void => {
    if (e.type !== 'text_delta') this.line(e);
  };
}
