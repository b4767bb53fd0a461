import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { ModelCallError, type CallOptions, type ChatModel, type GenerateResult } from './model.ts';

/**
 * Call a model through its streaming interface and assemble the same result
 * doGenerate would give, reporting text as it arrives (live output). Tool calls
 * are taken from the provider's final `tool-call` parts, whose input the provider
 * has already put together from its deltas.
 */
export async function streamGenerate(
  model: ChatModel,
  options: CallOptions,
  onTextDelta: (delta: string) => void,
): Promise<GenerateResult> {
  const { stream } = await model.doStream(options);
  const content: LanguageModelV4Content[] = [];
  const texts = new Map<string, { type: 'text'; text: string; providerMetadata?: unknown }>();
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const part = value;
    switch (part.type) {
      case 'text-start': {
        const text = { type: 'text' as const, text: '', ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}) };
        texts.set(part.id, text);
        content.push(text as LanguageModelV4Content);
        break;
      }
      case 'text-delta': {
        let text = texts.get(part.id);
        if (!text) {
          text = { type: 'text', text: '' };
          texts.set(part.id, text);
          content.push(text as LanguageModelV4Content);
        }
        text.text += part.delta;
        onTextDelta(part.delta);
        break;
      }
      case 'tool-call':
        content.push(part);
        break;
      case 'finish':
        finish = part;
        break;
      case 'error':
        throw part.error instanceof Error
          ? part.error
          : new ModelCallError(`${model.provider}: the answer stream failed: ${JSON.stringify(part.error)?.slice(0, 200)}`, 'stream');
      default:
        break;
    }
  }
  if (!finish) throw new ModelCallError(`${model.provider}: the answer stream ended before its finish event`, 'stream');
  return {
    content: content.filter((c) => c.type !== 'text' || c.text.length > 0),
    finishReason: finish.finishReason,
    usage: finish.usage,
    warnings: [],
  };
}
