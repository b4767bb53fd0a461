import type { ChatModel } from './model.ts';
import { ModelConfigError } from './model.ts';
import { loadReplayModel } from './replay.ts';
import providersChunk from 'virtual:providers-chunk';
import { loadEmbeddedModule } from '../embedded.ts';
import { RetryingModel } from './retry.ts';

/**
 * A model is named `provider:model`. The forms this build knows:
 *
 *   replay:FILE                a JSON Lines script (see README, "Replay scripts")
 *   google:MODEL               Gemini API — GOOGLE_API_KEY or GEMINI_API_KEY
 *   vertex:MODEL               Gemini on Vertex AI — Application Default Credentials
 *                              (GOOGLE_APPLICATION_CREDENTIALS, the metadata server,
 *                              GKE Workload Identity); GOOGLE_CLOUD_PROJECT,
 *                              GOOGLE_CLOUD_LOCATION (default us-central1)
 *   openai:MODEL               OpenAI — OPENAI_API_KEY (OPENAI_BASE_URL optional)
 *   openai-compatible:MODEL    vLLM, Ollama, llama.cpp server… —
 *                              OPENAI_COMPATIBLE_BASE_URL (e.g. http://127.0.0.1:11434/v1),
 *                              OPENAI_COMPATIBLE_API_KEY optional
 *   anthropic:MODEL            Anthropic — ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL optional)
 *
 * Provider packages are loaded only for the provider asked for. Every provider
 * model is wrapped in bounded retries (retry.ts).
 */
export const PROVIDERS = ['replay', 'google', 'vertex', 'openai', 'openai-compatible', 'anthropic'] as const;

export async function resolveModel(spec: string, env: NodeJS.ProcessEnv): Promise<ChatModel> {
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? '' : spec.slice(0, colon);
  const id = colon === -1 ? '' : spec.slice(colon + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider) || id === '') {
    throw new ModelConfigError(
      `model "${spec}" is not provider:model; providers: ${PROVIDERS.join(', ')} (e.g. google:gemini-2.5-flash, replay:script.jsonl)`,
    );
  }
  if (provider === 'replay') return loadReplayModel(id);
  return new RetryingModel(await providerModel(provider, id, env));
}

type Providers = typeof import('./provider-entry.ts');
let loaded: Promise<Providers> | undefined;
/** The provider packages live in an embedded chunk (scripts/embedded.mjs), evaluated on first use. */
function providers(): Promise<Providers> {
  loaded ??= loadEmbeddedModule<Providers>(providersChunk, 'providers.cjs');
  return loaded;
}

async function providerModel(provider: string, id: string, env: NodeJS.ProcessEnv): Promise<ChatModel> {
  const need = (names: string[], what: string): string => {
    for (const n of names) if (env[n]) return env[n]!;
    throw new ModelConfigError(`${provider}:${id} needs ${what}: set ${names.join(' or ')}`);
  };
  switch (provider) {
    case 'google': {
      const { createGoogleGenerativeAI } = await providers();
      const apiKey = need(['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], 'an API key');
      return createGoogleGenerativeAI({
        apiKey,
        ...(env.GOOGLE_GEMINI_BASE_URL ? { baseURL: env.GOOGLE_GEMINI_BASE_URL } : {}),
      }).languageModel(id);
    }
    case 'vertex': {
      const { createVertex } = await providers();
      const project = need(['GOOGLE_CLOUD_PROJECT', 'GOOGLE_VERTEX_PROJECT'], 'a project');
      const location = env.GOOGLE_CLOUD_LOCATION || env.GOOGLE_VERTEX_LOCATION || 'us-central1';
      return createVertex({
        project,
        location,
        ...(env.GOOGLE_VERTEX_BASE_URL ? { baseURL: env.GOOGLE_VERTEX_BASE_URL } : {}),
      }).languageModel(id);
    }
    case 'openai': {
      const { createOpenAI } = await providers();
      const apiKey = need(['OPENAI_API_KEY'], 'an API key');
      return createOpenAI({ apiKey, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}) }).chat(id);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await providers();
      const baseURL = need(['OPENAI_COMPATIBLE_BASE_URL'], 'the server URL');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(env.OPENAI_COMPATIBLE_API_KEY ? { apiKey: env.OPENAI_COMPATIBLE_API_KEY } : {}),
      }).languageModel(id);
    }
    case 'anthropic': {
      const { createAnthropic } = await providers();
      const apiKey = need(['ANTHROPIC_API_KEY'], 'an API key');
      return createAnthropic({ apiKey, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) }).languageModel(id);
    }
    default:
      throw new ModelConfigError(`unknown provider "${provider}"`);
  }
}
