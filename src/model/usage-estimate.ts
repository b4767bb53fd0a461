import type { LanguageModelV4Content, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { CallOptions } from './model.ts';

/**
 * Token counts for a call whose server reported none (an OpenAI-compatible server that
 * ignores `stream_options.include_usage`, or one that refused it): counted from the
 * text sent and received at 4 characters a token, the rule the replay model and the
 * context estimate use. Rough — tokenizers differ by model and language — but a cost of
 * 0 for a call that was made is wrong, and the figure is marked as estimated wherever it
 * is shown. Counts the server did report are kept.
 */
export function withEstimate(
  reported: LanguageModelV4Usage,
  options: CallOptions,
  content: readonly LanguageModelV4Content[],
): { inputTokens: number; outputTokens: number; estimated: boolean } {
  const input = reported.inputTokens.total;
  const output = reported.outputTokens.total;
  return {
    inputTokens: input ?? Math.ceil((charsOf(options.prompt) + charsOf(options.tools ?? [])) / 4),
    outputTokens: output ?? Math.ceil(outputChars(content) / 4),
    estimated: input === undefined || output === undefined,
  };
}

function charsOf(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0;
}

function outputChars(content: readonly LanguageModelV4Content[]): number {
  let n = 0;
  for (const c of content) {
    if (c.type === 'text' || c.type === 'reasoning') n += c.text.length;
    else if (c.type === 'tool-call') n += c.toolName.length + c.input.length;
  }
  return n;
}
