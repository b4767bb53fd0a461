import type { ChatModel } from './model.ts';
import { ModelConfigError } from './model.ts';
import providersChunk from 'virtual:providers-chunk';
import { loadEmbeddedModule } from '../embedded.ts';
import { RetryingModel } from './retry.ts';
import { suggestion } from '../config/did-you-mean.ts';

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

/**
 * What each provider reads from the environment to reach its model (any one of the names),
 * for the provider itself and for the checks that say whether it is there (`doctor`,
 * the REPL's /model) without ever reading the value out.
 */
export const PROVIDER_ENV: Readonly<Record<Exclude<(typeof PROVIDERS)[number], 'replay'>, { names: string[]; what: string }>> = {
  google: { names: ['GOOGLE_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'], what: 'an API key' },
  vertex: { names: ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_VERTEX_PROJECT'], what: 'a project' },
  openai: { names: ['OPENAI_API_KEY'], what: 'an API key' },
  'openai-compatible': { names: ['OPENAI_COMPATIBLE_BASE_URL'], what: 'the server URL' },
  anthropic: { names: ['ANTHROPIC_API_KEY'], what: 'an API key' },
};

/** Why a well-formed spec's provider cannot be reached from `env` (its variable unset), or undefined; never the value. */
export function modelCredentialProblem(spec: string, env: NodeJS.ProcessEnv): string | undefined {
  const provider = spec.slice(0, spec.indexOf(':')) as keyof typeof PROVIDER_ENV;
  const need = PROVIDER_ENV[provider];
  if (!need || need.names.some((n) => env[n])) return undefined;
  return `${spec.length > 80 ? `${spec.slice(0, 80)}…` : spec} needs ${need.what}: set ${need.names.join(' or ')}`;
}

/** Model names whose provider is plain from the name, for the advice when the provider is left out. */
const FAMILIES: ReadonlyArray<[RegExp, string]> = [
  [/^gemini/i, 'google'],
  [/^claude/i, 'anthropic'],
  [/^(gpt|o\d|chatgpt)/i, 'openai'],
];

/**
 * What is wrong with a PROVIDER:MODEL spec, as one sentence that says which
 * part and the fix, or undefined when it is well formed. The spec is shown cut
 * to 80 characters (a flag can be anything).
 */
export function modelSpecProblem(spec: string): string | undefined {
  const shown = spec.length > 80 ? `${spec.slice(0, 80)}…` : spec;
  const known = `known: ${PROVIDERS.join(', ')}`;
  const colon = spec.indexOf(':');
  if (colon === -1) {
    const guess = FAMILIES.find(([re]) => re.test(spec))?.[1];
    return `model "${shown}" names no provider: write PROVIDER:MODEL, e.g. ${guess ? `${guess}:${shown}` : 'google:gemini-2.5-flash'} (${known})`;
  }
  const provider = spec.slice(0, colon);
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    const p = provider.length > 40 ? `${provider.slice(0, 40)}…` : provider;
    return `provider "${p}" is unknown${suggestion(provider, PROVIDERS)} (${known})`;
  }
  if (spec.length === colon + 1) {
    return `model "${shown}" names no model after the provider: e.g. ${provider === 'replay' ? 'replay:script.jsonl' : `${provider}:MODEL`}`;
  }
  return undefined;
}

export async function resolveModel(spec: string, env: NodeJS.ProcessEnv): Promise<ChatModel> {
  const problem = modelSpecProblem(spec);
  if (problem) throw new ModelConfigError(problem);
  const colon = spec.indexOf(':');
  const provider = spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  // Imported here: the script's schema (zod) is evaluated only by a replayed run.
  if (provider === 'replay') return (await import('./replay.ts')).loadReplayModel(id);
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
      const apiKey = need(PROVIDER_ENV.google.names, PROVIDER_ENV.google.what);
      return createGoogleGenerativeAI({
        apiKey,
        ...(env.GOOGLE_GEMINI_BASE_URL ? { baseURL: env.GOOGLE_GEMINI_BASE_URL } : {}),
      }).languageModel(id);
    }
    case 'vertex': {
      const { createVertex } = await providers();
      const project = need(PROVIDER_ENV.vertex.names, PROVIDER_ENV.vertex.what);
      const location = env.GOOGLE_CLOUD_LOCATION || env.GOOGLE_VERTEX_LOCATION || 'us-central1';
      return createVertex({
        project,
        location,
        ...(env.GOOGLE_VERTEX_BASE_URL ? { baseURL: env.GOOGLE_VERTEX_BASE_URL } : {}),
      }).languageModel(id);
    }
    case 'openai': {
      const { createOpenAI } = await providers();
      const apiKey = need(PROVIDER_ENV.openai.names, PROVIDER_ENV.openai.what);
      return createOpenAI({ apiKey, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}) }).chat(id);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await providers();
      const baseURL = need(PROVIDER_ENV['openai-compatible'].names, PROVIDER_ENV['openai-compatible'].what);
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        ...(env.OPENAI_COMPATIBLE_API_KEY ? { apiKey: env.OPENAI_COMPATIBLE_API_KEY } : {}),
      }).languageModel(id);
    }
    case 'anthropic': {
      const { createAnthropic } = await providers();
      const apiKey = need(PROVIDER_ENV.anthropic.names, PROVIDER_ENV.anthropic.what);
      return createAnthropic({ apiKey, ...(env.ANTHROPIC_BASE_URL ? { baseURL: env.ANTHROPIC_BASE_URL } : {}) }).languageModel(id);
    }
    default:
      throw new ModelConfigError(`unknown provider "${provider}"`);
  }
}
