import { randomUUID } from 'node:crypto';
import * as z from 'zod/v4';

/**
 * What the permission gate asks (structurally the gate's GateRequest and
 * PromptAnswer, src/permissions/gate.ts: attach sits beside permissions in the
 * layer table, not above it, so the shapes are restated here and the CLI hands
 * the broker to the root as the session's Prompter).
 */
export interface PromptRequest {
  readonly tool: string;
  /** A child agent's call: its name. */
  readonly agent?: string | undefined;
  readonly namespace: string;
  readonly readOnly: boolean;
  readonly subjects: readonly { readonly forms: readonly string[] }[];
  readonly call?: { readonly args: unknown };
}
export type PromptAnswer = 'once' | 'session' | 'deny' | { readonly deny: string };

/** A prompt as /perms/stream shows it. */
export interface PendingPrompt {
  id: string;
  session: string;
  tool: string;
  /** Whose call it is when a child agent of the session made it (its name); absent: the session's own agent. */
  agent?: string;
  namespace: string;
  read_only: boolean;
  args: unknown;
  subjects: string[];
  asked_at: string;
  expires_at: string;
}

/** POST /perms/respond: allow once, allow for the session (always), or deny, with an optional note to the model. */
export const respondBody = z.strictObject({
  id: z.string().min(1).max(100),
  decision: z.enum(['allow', 'once', 'always', 'session', 'deny']),
  note: z.string().max(2000).optional(),
});
export type RespondBody = z.output<typeof respondBody>;

export type PromptNotice = { type: 'prompt'; prompt: PendingPrompt } | { type: 'resolved'; id: string; decision: string; approver: string };

interface Waiting {
  prompt: PendingPrompt;
  resolve: (answer: PromptAnswer, approver: string, decision: string) => void;
}

/** Bounds the shown arguments: a prompt is a notice, not a copy of a 10 MB write. */
const MAX_ARGS_CHARS = 16_000;

/**
 * One session's permission prompts, answered over HTTP. The gate calls `ask`,
 * which publishes a pending prompt to every /perms/stream subscriber and waits
 * for a /perms/respond — or the timeout, which denies (nobody answered, so
 * nothing is allowed). Each answer is recorded with its approver by `record`.
 */
export class PromptBroker {
  private readonly waiting = new Map<string, Waiting>();
  private readonly listeners = new Set<(n: PromptNotice) => void>();
  /** The session this broker asks for: set once the root has created it. */
  sessionId = '';

  constructor(
    private readonly timeoutMs: number,
    private readonly record: (entry: { id: string; tool: string; decision: string; approver: string; note?: string }) => void,
  ) {}

  pending(): PendingPrompt[] {
    return [...this.waiting.values()].map((w) => w.prompt);
  }

  subscribe(listener: (n: PromptNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  ask(req: PromptRequest): Promise<PromptAnswer> {
    const now = Date.now();
    const prompt: PendingPrompt = {
      id: randomUUID(),
      session: this.sessionId,
      tool: req.tool,
      ...(req.agent !== undefined ? { agent: req.agent } : {}),
      namespace: req.namespace,
      read_only: req.readOnly,
      args: boundedArgs(req.call?.args),
      subjects: req.subjects.map((s) => s.forms[0] ?? '').filter(Boolean),
      asked_at: new Date(now).toISOString(),
      expires_at: new Date(now + this.timeoutMs).toISOString(),
    };
    return new Promise<PromptAnswer>((resolve) => {
      const timer = setTimeout(() => settle('deny', 'timeout', 'deny'), this.timeoutMs);
      const settle = (answer: PromptAnswer, approver: string, decision: string) => {
        clearTimeout(timer);
        if (!this.waiting.delete(prompt.id)) return;
        const note = typeof answer === 'object' ? answer.deny : undefined;
        this.record({ id: prompt.id, tool: prompt.tool, decision, approver, ...(note !== undefined ? { note } : {}) });
        this.emit({ type: 'resolved', id: prompt.id, decision, approver });
        resolve(answer);
      };
      this.waiting.set(prompt.id, { prompt, resolve: settle });
      this.emit({ type: 'prompt', prompt });
    });
  }

  /** Answer a pending prompt; false when there is none of that id (answered, timed out, or never asked). */
  respond(body: RespondBody, approver: string): boolean {
    const w = this.waiting.get(body.id);
    if (!w) return false;
    const answer: PromptAnswer =
      body.decision === 'deny'
        ? body.note
          ? { deny: body.note }
          : 'deny'
        : body.decision === 'always' || body.decision === 'session'
          ? 'session'
          : 'once';
    w.resolve(answer, approver, body.decision);
    return true;
  }

  /** The session is going away: every prompt still waiting is denied. */
  denyAll(approver: string): void {
    for (const w of [...this.waiting.values()]) w.resolve('deny', approver, 'deny');
  }

  private emit(n: PromptNotice): void {
    for (const l of this.listeners) l(n);
  }
}

function boundedArgs(args: unknown): unknown {
  const text = JSON.stringify(args ?? {});
  return text.length <= MAX_ARGS_CHARS ? args : { truncated: true, preview: text.slice(0, MAX_ARGS_CHARS) };
}
