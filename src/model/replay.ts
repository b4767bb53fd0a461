import { ConfigFileError, readConfigFile, type ConfigKind } from '../config/read-config-file.ts';
import type { LanguageModelV4Content, LanguageModelV4GenerateResult, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import * as z from 'zod/v4/mini';
import en from 'zod/v4/locales/en.js';
import { ModelConfigError, type CallOptions, type ChatModel } from './model.ts';

/**
 * One line of a replay script: what the model "says" on one call. The loop runs
 * the tool calls for real and feeds the results back; the next line is the
 * model's next response. The format is stable: scripts in examples/ and tests
 * depend on it.
 *
 * zod's functional build (zod/mini), not the classic one: a replayed run that calls no
 * tool evaluates no other schema. zod as a whole was about a tenth of that run's start, and
 * the functional build leaves out its classic layer, about 0.1× of `node -e 0`
 * (docs/benchmarks.md); its core is the classic build's, so the rest stays. Same parser core
 * and English messages; test/model/replay.test.ts holds the messages to the classic schema's.
 */
z.config(en());
const scriptLine = z.strictObject({
  /** The child agent this step is for, by its name or its profile (src/runtime/child-agents.ts); absent: the top-level agent's. */
  agent: z.optional(z.string().check(z.minLength(1))),
  text: z.optional(z.string()),
  tool_calls: z.optional(
    z.array(
      z.strictObject({
        name: z.string().check(z.minLength(1)),
        args: z._default(z.record(z.string(), z.unknown()), {}),
      }),
    ),
  ),
});
export type ReplayStep = z.output<typeof scriptLine>;

/** Parse a JSON Lines script; every problem is reported as `file:line: …`. */
export function parseReplayScript(text: string, file: string): ReplayStep[] {
  const steps: ReplayStep[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      problems.push(`${file}:${i + 1}: not valid JSON (${(err as Error).message})`);
      return;
    }
    const parsed = scriptLine.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push(`${file}:${i + 1}: ${issue.path.join('.') || '(line)'}: ${issue.message}`);
      }
      return;
    }
    steps.push(parsed.data);
  });
  if (problems.length > 0) throw new ModelConfigError(`invalid replay script:\n${problems.join('\n')}`);
  return steps;
}

/**
 * 16 MiB: a recorded session of hundreds of steps is a few hundred KiB. Read like
 * every other file given on the command line: a regular file only (a FIFO with no
 * writer must not hang the run), bounded before it is read.
 */
const REPLAY_FILE: ConfigKind = { noun: 'a replay script', maxBytes: 16 * 1024 * 1024, hint: 'give a JSON Lines replay script' };

export async function loadReplayModel(file: string): Promise<ReplayModel> {
  let text: string;
  try {
    text = await readConfigFile(file, REPLAY_FILE);
  } catch (err) {
    if (err instanceof ConfigFileError) throw new ModelConfigError(`cannot use the replay script: ${err.message}`);
    throw err;
  }
  return new ReplayModel(parseReplayScript(text, file), file);
}

/**
 * A model that replays a script: how recipes are demonstrated and regression-
 * tested without a model service. When the script is used up it answers with an
 * empty final response and `finishReason.raw = "replay-exhausted"`, which ends the
 * run. `position` can be restored, so a resumed session continues the script.
 */
export class ReplayModel implements ChatModel {
  readonly specificationVersion = 'v4';
  readonly provider = 'replay';
  readonly supportedUrls = {};
  readonly modelId: string;
  private next = 0;
  private callCount = 0;
  /** Steps taken past `next` (a child's addressed steps can be taken before earlier ones). */
  private readonly used = new Set<number>();

  constructor(
    private readonly steps: readonly ReplayStep[],
    source: string,
  ) {
    this.modelId = source;
  }

  get position(): number {
    return this.next;
  }

  set position(n: number) {
    this.next = Math.max(0, Math.min(n, this.steps.length));
    this.used.clear();
  }

  get exhausted(): boolean {
    return this.next >= this.steps.length;
  }

  async doGenerate(options: CallOptions): Promise<LanguageModelV4GenerateResult> {
    return this.answer(options, this.take(undefined));
  }

  /**
   * The model as one child agent sees it: the script's next step addressed to it (`"agent"`:
   * its name or its profile), so concurrent agents replay deterministically; a script that
   * addresses none of its steps to this agent is shared in order, as before agents existed.
   */
  forAgent(name: string, profile: string): ChatModel {
    const addressed = this.steps.some((s) => s.agent === name || s.agent === profile);
    const view = Object.create(this) as ReplayModel;
    view.doGenerate = (options) => this.answer(options, this.take(addressed ? [name, profile] : undefined));
    view.doStream = (options) => this.streamOf(view.doGenerate(options));
    return view;
  }

  /** The next unused step for `agents` (a child's names), or for the top level (steps with no agent). */
  private take(agents: readonly string[] | undefined): ReplayStep | undefined {
    for (let i = this.next; i < this.steps.length; i++) {
      if (this.used.has(i)) continue;
      const step = this.steps[i]!;
      if (agents === undefined ? step.agent !== undefined : !agents.includes(step.agent ?? '')) continue;
      this.used.add(i);
      while (this.used.has(this.next)) this.next += 1;
      return step;
    }
    return undefined;
  }

  private answer(options: CallOptions, step: ReplayStep | undefined): Promise<LanguageModelV4GenerateResult> {
    const content: LanguageModelV4Content[] = [];
    if (step === undefined) {
      return Promise.resolve({
        content,
        finishReason: { unified: 'stop', raw: 'replay-exhausted' },
        usage: usage(options, ''),
        warnings: [],
      });
    }
    if (step.text) content.push({ type: 'text', text: step.text });
    const toolsOffered = options.toolChoice?.type !== 'none';
    for (const call of toolsOffered ? (step.tool_calls ?? []) : []) {
      this.callCount += 1;
      content.push({ type: 'tool-call', toolCallId: `replay-${this.callCount}`, toolName: call.name, input: JSON.stringify(call.args) });
    }
    const hasCalls = content.some((c) => c.type === 'tool-call');
    return Promise.resolve({
      content,
      finishReason: { unified: hasCalls ? 'tool-calls' : 'stop', raw: undefined },
      usage: usage(options, step.text ?? ''),
      warnings: [],
    });
  }

  async doStream(options: CallOptions): Promise<LanguageModelV4StreamResult> {
    return this.streamOf(this.doGenerate(options));
  }

  private async streamOf(generated: Promise<LanguageModelV4GenerateResult>): Promise<LanguageModelV4StreamResult> {
    const result = await generated;
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        for (const part of result.content) {
          if (part.type === 'text') {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: part.text });
            controller.enqueue({ type: 'text-end', id: 't' });
          } else if (part.type === 'tool-call') controller.enqueue(part);
        }
        controller.enqueue({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
        controller.close();
      },
    });
    return { stream } as LanguageModelV4StreamResult;
  }
}

/** Each message's size, measured once: the loop resends the same message objects every step. */
const messageChars = new WeakMap<object, number>();

function promptChars(options: CallOptions): number {
  let n = 0;
  for (const m of options.prompt) {
    let c = messageChars.get(m);
    if (c === undefined) {
      c = JSON.stringify(m).length;
      messageChars.set(m, c);
    }
    n += c;
  }
  return n;
}

/**
 * Rough token counts (4 characters a token), so usage and cost paths are
 * exercised in replays — counted per message, so a long session does not pay a
 * full serialisation of its history on every step.
 */
function usage(options: CallOptions, output: string): LanguageModelV4GenerateResult['usage'] {
  const input = Math.ceil(promptChars(options) / 4);
  const out = Math.ceil(output.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: out, text: out, reasoning: 0 },
  };
}
