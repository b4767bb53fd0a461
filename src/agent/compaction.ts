import type { LanguageModelV4Message } from '@ai-sdk/provider';
import { completionRecord, RECORD_SECTIONS, type CallFacts } from './checkpoint.ts';

/** The default fraction of the context window at which a conversation is compacted. */
export const DEFAULT_COMPACT_AT = 0.8;

/** What the agent needs to know to compact on its own: the window, and the fraction that triggers it. */
export interface ContextLimit {
  /** Tokens; null: unknown, so nothing is compacted automatically (/compact still works). */
  window: number | null;
  compactAt: number;
}

/** 4 characters a token: the rough measure for what the provider has not counted yet. */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/**
 * Tokens the next request will hold: the provider's count for the last request and
 * its response (`measured`), plus an estimate for the messages added since; with
 * no measurement yet (a new or resumed session), an estimate of everything.
 */
export function promptTokens(
  instructions: string,
  messages: readonly LanguageModelV4Message[],
  measured: { tokens: number; messages: number } | null,
): number {
  if (measured && measured.messages <= messages.length) return measured.tokens + estimateTokens(messages.slice(measured.messages));
  return estimateTokens(instructions) + estimateTokens(messages);
}

/**
 * The request that asks the model for the record: the same six sections as
 * mark_task_done's checkpoint, with what the runtime recorded (the prompts, the
 * files changed, the tools used, the plan) given as facts to build on.
 */
export function compactionRequest(
  messages: readonly LanguageModelV4Message[],
  focus: string | undefined,
  calls: CallFacts,
): LanguageModelV4Message {
  // An earlier record is in the conversation the model reads; listing it again among the prompts would double it.
  const since = messages.filter((m) => !isRecordMessage(m));
  const facts = completionRecord(since, focus ?? '(the conversation is being compacted; say where the work stands)', calls);
  const text = [
    'The conversation is about to be replaced by a completion record, to keep it inside the context window.',
    'Write that record now. Do not call tools. Use exactly these six Markdown headings, in this order, each followed by',
    'what a successor needs to carry on without the conversation (decisions, paths, commands, results, open questions):',
    '',
    ...RECORD_SECTIONS.map((s) => `# ${s}`),
    '',
    focus ? `The operator asks the record to focus on: ${focus}` : '',
    'What the runtime recorded of this session (facts; keep them, add what they miss):',
    '',
    facts,
  ]
    .filter((line, i, all) => line !== '' || all[i - 1] !== '')
    .join('\n');
  return { role: 'user', content: [{ type: 'text', text }] };
}

/** The sections a record the model wrote lacks (a heading `# Title`, any level, any case). */
export function missingSections(record: string): string[] {
  const headings = new Set(
    record
      .split('\n')
      .map((l) => /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(l)?.[1]?.toLowerCase())
      .filter((h): h is string => h !== undefined),
  );
  return RECORD_SECTIONS.filter((s) => !headings.has(s.toLowerCase()));
}

/** A message that is an earlier checkpoint's or compaction's record. */
function isRecordMessage(m: LanguageModelV4Message): boolean {
  if (m.role !== 'user') return false;
  const first = m.content[0];
  return first?.type === 'text' && /^\[(checkpoint|compaction)\] /.test(first.text);
}

/** The message that stands for the compacted conversation in later requests (and in a resumed session). */
export function compactedMessage(record: string): LanguageModelV4Message {
  const text = `[compaction] The conversation before this point was replaced by this completion record.\n\n${record.trim()}`;
  return { role: 'user', content: [{ type: 'text', text }] };
}

/**
 * The conversation after a compaction: the record, then — when nothing has
 * happened since the operator's latest message — that message, so the turn it
 * opened is answered as asked rather than from a summary of it.
 */
export function compactedConversation(record: string, keptLast: LanguageModelV4Message | undefined): LanguageModelV4Message[] {
  return keptLast ? [compactedMessage(record), keptLast] : [compactedMessage(record)];
}
