import type { ChatModel } from './model.ts';
import { ModelConfigError } from './model.ts';
import providersChunk from 'virtual:providers-chunk';
import { loadEmbeddedModule } from '../startup/embedded.ts';
import { DEFAULT_RETRY, RetryingModel, type RetryPolicy } from './retry.ts';
import type { ProviderContext } from './model-errors.ts';
import { openAICompatibleModel } from './openai-compatible.ts';
import { DIALECT, SchemaSubsetModel } from './tool-schemas.ts';
import { sleep } from '../util/sleep.ts';
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
 * model is sent its tools' schemas in the subset it documents (tool-schemas.ts) and
 * wrapped in bounded retries (retry.ts).
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

export async function resolveModel(spec: string, env: NodeJS.ProcessEnv, retry: RetryPolicy = DEFAULT_RETRY): Promise<ChatModel> {
  const problem = modelSpecProblem(spec);
  if (problem) throw new ModelConfigError(problem);
  const colon = spec.indexOf(':');
  const provider = spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  // Imported here: the script's schema (zod) is evaluated only by a replayed run.
  if (provider === 'replay') return (await import('./replay.ts')).loadReplayModel(id);
  const model = new SchemaSubsetModel(await providerModel(provider, id, env), DIALECT[provider]!);
  return new RetryingModel(model, retry, sleep, providerContext(provider, id, env));
}

/** The provider's default endpoints, as its package builds them (named in error sentences). */
const DEFAULT_URL: Record<string, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/** The first of `names` that is set in `env`. */
const firstSet = (names: readonly string[], env: NodeJS.ProcessEnv): string | undefined => names.find((n) => env[n]);

/**
 * What a failed call's sentence names for `provider:id` under `env` (model-errors.ts):
 * the URL and the variable that set it, the credential sent and where to fix it. The
 * key values are kept only to be cut out of a server's text.
 */
export function providerContext(provider: string, id: string, env: NodeJS.ProcessEnv): ProviderContext {
  const keyed = (keyVar: string | undefined, urlVar: string, label: string): ProviderContext => ({
    provider,
    modelId: id,
    baseUrl: env[urlVar] || DEFAULT_URL[provider] || '',
    urlVar,
    urlFromEnv: Boolean(env[urlVar]),
    credential: keyVar ? `the key in ${keyVar}` : undefined,
    credentialFix: keyVar ? `that ${keyVar} holds a current ${label} API key` : `set ${label} API key`,
    accessFix: `the access of the key's project or organization to that model${env[urlVar] ? `, and ${urlVar}` : ''}`,
    secrets: keyVar && env[keyVar] ? [env[keyVar]!] : [],
  });
  switch (provider) {
    case 'openai':
      return keyed('OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OpenAI');
    case 'anthropic':
      return keyed('ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'Anthropic');
    case 'google': {
      const ctx = keyed(firstSet(PROVIDER_ENV.google.names, env), 'GOOGLE_GEMINI_BASE_URL', 'Gemini');
      return {
        ...ctx,
        accessFix: `that the key's Google Cloud project may use the Gemini API and that model${ctx.urlFromEnv ? `, and ${ctx.urlVar}` : ''}`,
      };
    }
    case 'openai-compatible': {
      const key = env.OPENAI_COMPATIBLE_API_KEY ? 'OPENAI_COMPATIBLE_API_KEY' : undefined;
      const ctx = keyed(key, 'OPENAI_COMPATIBLE_BASE_URL', 'OpenAI-compatible');
      return {
        ...ctx,
        credentialFix: key ? `that ${key} holds the key the server expects` : 'set OPENAI_COMPATIBLE_API_KEY to the key the server expects',
        accessFix: `the server's access rules${key ? ` for the key in ${key}` : ''}`,
      };
    }
    case 'vertex': {
      const projectVar = firstSet(PROVIDER_ENV.vertex.names, env) ?? 'GOOGLE_CLOUD_PROJECT';
      const location = env.GOOGLE_CLOUD_LOCATION || env.GOOGLE_VERTEX_LOCATION || 'us-central1';
      const host = location === 'global' ? 'aiplatform.googleapis.com' : `${location}-aiplatform.googleapis.com`;
      const adc = env.GOOGLE_APPLICATION_CREDENTIALS
        ? 'the service account in GOOGLE_APPLICATION_CREDENTIALS'
        : 'Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default login`, or the metadata server)';
      return {
        provider,
        modelId: id,
        baseUrl:
          env.GOOGLE_VERTEX_BASE_URL || `https://${host}/v1beta1/projects/${env[projectVar] ?? ''}/locations/${location}/publishers/google`,
        urlVar: 'GOOGLE_VERTEX_BASE_URL',
        urlFromEnv: Boolean(env.GOOGLE_VERTEX_BASE_URL),
        credential: 'the access token of the Google Cloud credentials',
        quotaOf: `the project in ${projectVar}`,
        credentialFix: adc,
        accessFix: `that the Vertex AI API is enabled in the project in ${projectVar} and the account holds roles/aiplatform.user there (GOOGLE_CLOUD_LOCATION is ${location})`,
        secrets: [],
      };
    }
    default:
      throw new ModelConfigError(`unknown provider "${provider}"`);
  }
}

type Providers = typeof import('./provider-entry.ts');
let loaded: Promise<Providers> | undefined;
/** The provider packages live in an embedded chunk (scripts/bundle/embedded.mjs), evaluated on first use. */
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
      return openAICompatibleModel(createOpenAICompatible, { baseURL, apiKey: env.OPENAI_COMPATIBLE_API_KEY, modelId: id });
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
