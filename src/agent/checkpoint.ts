import type { LanguageModelV4Message } from '@ai-sdk/provider';
import type { Checkpointer } from '../tools/framework/services.ts';

/** Holds mark_task_done's request until the turn ends; the latest detail wins. */
export class PendingCheckpoint implements Checkpointer {
  private detail: string | undefined;

  request(detail: string): void {
    this.detail = detail;
  }

  take(): string | undefined {
    const d = this.detail;
    this.detail = undefined;
    return d;
  }
}

/**
 * The six sections of a completion record, in order: mark_task_done's checkpoint
 * and the compaction the model writes (compaction.ts) both use them.
 */
export const RECORD_SECTIONS = [
  'Task',
  'Files & changes',
  'Technical context',
  'Strategy & approach',
  'Verification & next steps',
  'Where we are',
] as const;

/**
 * What the record asks of a call, answered from the catalog's definitions (never from a
 * tool's name): whether the tool edits files (its kind), and the plan a call filed.
 */
export interface CallFacts {
  /** The tool's kind is a file edit (write_file, edit_file, apply_patch, …). */
  fileEdit(tool: string): boolean;
  /** The plan this call filed (`planText` of its tool's definition), if it files one. */
  plan(tool: string, args: Record<string, unknown>): string | undefined;
}

/** The files a file edit's result names: `path`, or apply_patch's lists. */
function filesOf(result: unknown): string[] {
  if (typeof result !== 'object' || result === null) return [];
  const r = result as Record<string, unknown>;
  if (typeof r.path === 'string') return [r.path];
  const lists = ['added', 'modified', 'deleted'].flatMap((k) => (Array.isArray(r[k]) ? (r[k] as unknown[]) : []));
  const moved = Array.isArray(r.moved) ? (r.moved as Array<{ to?: unknown }>).map((m) => m.to) : [];
  return [...lists, ...moved].filter((f): f is string => typeof f === 'string');
}

/**
 * The completion record that replaces the conversation at a checkpoint, in six
 * sections. Built from what the session actually did — the prompts, the files the
 * file tools changed, the tools used, the plan if one was recorded, the last answer
 * — plus the model's own `detail`; nothing is invented.
 */
export function completionRecord(messages: readonly LanguageModelV4Message[], detail: string, facts: CallFacts): string {
  const prompts: string[] = [];
  const files = new Set<string>();
  const toolCounts = new Map<string, number>();
  let plan: string | undefined;
  let lastAnswer = '';
  for (const m of messages) {
    if (m.role === 'user') for (const p of m.content) if (p.type === 'text') prompts.push(p.text);
    if (m.role === 'assistant') {
      const text = m.content
        .filter((p) => p.type === 'text')
        .map((p) => (p as { text: string }).text)
        .join('');
      if (text) lastAnswer = text;
      for (const p of m.content) {
        if (p.type !== 'tool-call') continue;
        toolCounts.set(p.toolName, (toolCounts.get(p.toolName) ?? 0) + 1);
        plan = facts.plan(p.toolName, parseArgs(p.input)) ?? plan;
      }
    }
    if (m.role === 'tool') {
      for (const p of m.content) {
        if (p.type !== 'tool-result' || p.output.type !== 'json' || !facts.fileEdit(p.toolName)) continue;
        for (const shown of filesOf(p.output.value)) files.add(`${shown} (${p.toolName})`);
      }
    }
  }
  const section = (title: string, body: string) => `# ${title}\n${body.trim() || '(none recorded)'}`;
  const bodies = [
    prompts.map((p) => `- ${p}`).join('\n'),
    [...files].map((f) => `- ${f}`).join('\n'),
    [...toolCounts].map(([t, n]) => `- ${t} × ${n}`).join('\n'),
    plan ?? '',
    lastAnswer,
    detail,
  ];
  return [
    '[checkpoint] The conversation before this point was replaced by this completion record.',
    ...RECORD_SECTIONS.map((title, i) => section(title, bodies[i]!)),
  ].join('\n\n');
}

function parseArgs(input: unknown): Record<string, unknown> {
  if (typeof input !== 'string') return (input ?? {}) as Record<string, unknown>;
  try {
    return JSON.parse(input) as Record<string, unknown>;
  } catch {
    return {};
  }
}
