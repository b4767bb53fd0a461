import type { TurnResult } from '../agent/agent.ts';
import { ModelCallError } from '../model/model.ts';
import { usageSince } from '../model/pricing.ts';
import type { AgentSystem } from '../runtime/system.ts';
import { monotonicMs } from '../util/monotonic.ts';
import type { JsonEvent } from './json-events.ts';
import type { JsonRenderer } from './json-renderer.ts';
import type { TextRenderer } from './render.ts';
import { logStoppedMessage } from './session-db-option.ts';
import { EXIT_INTERRUPTED } from './terminal/interrupt.ts';
import { EXIT, type Io } from './usage.ts';

// How a run ends, said as JSON Lines (-o json: docs/json-stream.md) or as text: its answer, its
// failure, and its exit status (docs/cli.md#exit-status).

/** Where the run is shown: JSON Lines on stdout (-o json), or text, live on a terminal's stderr. */
export interface Renderers {
  json: JsonRenderer | null;
  text: TextRenderer | null;
  /** stdin and stderr are both terminals: the live region, pretty log lines, questions asked here. */
  onTerminal: boolean;
  color: boolean;
}

/** Writes the end of a JSON run: its errors, the `result` event (this run's usage, not a resumed session's earlier cost) and `exit`. */
export type EndEvents = (status: ResultStatus, exit: number, errors: string[]) => void;

export function resultEvents(json: JsonRenderer | null, s: AgentSystem): EndEvents {
  const started = monotonicMs();
  const usageBefore = s.agent.usage;
  return (status, exit, errors) => {
    if (!json) return;
    if (errors.length > 0) json.line({ type: 'error', message: errors.join('\n'), exit });
    const used = usageSince(usageBefore, s.agent.usage);
    json.line({
      type: 'result',
      session: s.sessionId,
      status,
      is_error: exit !== EXIT.ok,
      exit,
      duration_ms: Math.round(monotonicMs() - started),
      usage: {
        input_tokens: used.inputTokens,
        output_tokens: used.outputTokens,
        ...(used.estimatedCalls ? { estimated_calls: used.estimatedCalls } : {}),
      },
      cost_usd: used.costUsd,
    });
    json.line({ type: 'exit', status: exit, session: s.sessionId });
  };
}

/** A turn that threw: cancelled by Ctrl-C (130; the turn stays open, --resume finishes it), or failed (3 for the model call, else 1). */
export function turnFailed(err: unknown, s: AgentSystem, cancelled: boolean, out: Renderers, end: EndEvents, io: Io): number {
  const { json, text } = out;
  if (cancelled) {
    s.log.append(s.sessionId, s.agent.turn, 'error', { message: 'cancelled by SIGINT', cancelled: true });
    const resume = `the turn was stopped by Ctrl-C; \`core-agent run --resume ${s.sessionId}\` continues it`;
    json?.line({ type: 'cancelled', reason: 'SIGINT' });
    if (json) end('cancelled', EXIT_INTERRUPTED, [resume]);
    else text?.cancelled(resume);
    return EXIT_INTERRUPTED;
  }
  const message = (err as Error).message ?? String(err);
  s.log.append(s.sessionId, s.agent.turn, 'error', { message });
  text?.stopSpinner();
  // A failed model call has its own status, apart from a runtime failure (docs/cli.md#exit-status).
  const modelFailed = err instanceof ModelCallError;
  const said = modelFailed ? `model call failed: ${message}` : `the turn failed: ${message}`;
  const exit = modelFailed ? EXIT.model : EXIT.failure;
  if (json) end('error', exit, [said]);
  else io.err(`core-agent: ${said}\n`);
  return exit;
}

/**
 * A turn that ended: the answer, and what kept it from being a success — a turn the watchdog
 * cut or a halted agent did not finish, a session log that stopped short has the answer but not
 * its record, a request_user_input nobody answered did not do what was asked (each exit 1).
 */
export function reportTurn(result: TurnResult, s: AgentSystem, out: Renderers, end: EndEvents, io: Io): number {
  const stopped = s.log.failure(s.sessionId);
  const unanswered = s.session.unansweredQuestions;
  const cut = result.status === 'cut' || result.status === 'halted' || result.status === 'cost_limit';
  const status = cut || stopped || unanswered.length > 0 ? EXIT.failure : EXIT.ok;
  const { json, text } = out;
  if (json) {
    const { agent } = s;
    json.line({
      type: 'turn_end',
      status: result.status,
      text: result.text,
      steps: result.steps,
      usage: result.usage,
      session_usage: agent.usage,
    });
    const errors: string[] = [];
    if (cut) errors.push(result.text);
    if (stopped) {
      errors.push(logStoppedMessage(stopped, 'end'));
      json.line({ type: 'log_error', message: errors.at(-1)! });
    }
    if (unanswered.length > 0) {
      errors.push(unansweredMessage(unanswered));
      json.line({ type: 'unanswered_questions', message: errors.at(-1)!, questions: unanswered });
    }
    end(result.status, status, errors);
    return status;
  }
  if (cut) io.err(`core-agent: ${result.text}\n`);
  text!.finish(result);
  if (stopped) io.err(`core-agent: ${logStoppedMessage(stopped, 'end')}; the answer above is complete.\n`);
  if (unanswered.length > 0) io.err(`core-agent: ${unansweredMessage(unanswered)}\n`);
  io.err(`session ${s.sessionId}\n`);
  return status;
}

type ResultStatus = Extract<JsonEvent, { type: 'result' }>['status'];

/** The failure a headless request_user_input leaves: each question by id, so the caller can answer it in the next prompt. */
function unansweredMessage(questions: readonly { id: string; header: string; question: string }[]): string {
  const listed = questions.map((q) => `[${q.id}] ${q.header}: ${q.question.length > 200 ? `${q.question.slice(0, 197)}...` : q.question}`);
  return `the model asked ${questions.length === 1 ? 'a question' : 'questions'} nobody answered here (no terminal, --ask off, or the input ended): ${listed.join('; ')}. Answer in the prompt, or run it in the REPL.`;
}
