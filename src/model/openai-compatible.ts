import { APICallError } from '@ai-sdk/provider';
import type { CallOptions, ChatModel } from './model.ts';

type CreateOpenAICompatible = typeof import('@ai-sdk/openai-compatible').createOpenAICompatible;

/**
 * An OpenAI-compatible server's model that reports usage where the server can.
 *
 * vLLM, llama.cpp's server and Ollama send a stream's token counts only when asked
 * with `stream_options: {include_usage: true}` (OpenAI's own field), which
 * @ai-sdk/openai-compatible sends only with `includeUsage`. Without it cost and usage
 * read 0. Some servers refuse the field with a 400 ("Unrecognized request argument");
 * the request is then made once more without it, and if that one goes through the
 * field stays off for the rest of the session (this model object). The usage such a
 * server does not report is estimated from the text by the agent, and said to be.
 */
export function openAICompatibleModel(
  create: CreateOpenAICompatible,
  o: { baseURL: string; apiKey?: string | undefined; modelId: string },
): ChatModel {
  const state = { sendStreamOptions: true };
  const inner = create({
    name: 'openai-compatible',
    baseURL: o.baseURL,
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    includeUsage: true,
    transformRequestBody: (body) => {
      if (state.sendStreamOptions || body.stream_options === undefined) return body;
      const { stream_options: _dropped, ...rest } = body;
      return rest;
    },
  }).languageModel(o.modelId);
  return new StreamOptionsFallback(inner, state);
}

export class StreamOptionsFallback implements ChatModel {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: ChatModel['supportedUrls'];

  constructor(
    private readonly inner: ChatModel,
    private readonly state: { sendStreamOptions: boolean },
  ) {
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this.supportedUrls = inner.supportedUrls;
  }

  doGenerate(options: CallOptions) {
    return this.inner.doGenerate(options);
  }

  async doStream(options: CallOptions) {
    try {
      return await this.inner.doStream(options);
    } catch (err) {
      const refused = APICallError.isInstance(err) && err.statusCode === 400;
      if (!refused || !this.state.sendStreamOptions || options.abortSignal?.aborted) throw err;
      this.state.sendStreamOptions = false;
      try {
        return await this.inner.doStream(options);
      } catch (again) {
        // Refused without the field too: it was not the field. Keep asking for usage.
        this.state.sendStreamOptions = true;
        throw again;
      }
    }
  }
}
