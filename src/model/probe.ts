import { APICallError } from '@ai-sdk/provider';
import { ModelCallError, type ChatModel } from './model.ts';
import { bodyMessage, explainModelError, type ProviderContext } from './model-errors.ts';
import { PROVIDER_ENV, providerContext, resolveModel } from './providers.ts';

/** One cheap authenticated call's outcome: ok, a warning (reached, but the model is not listed), or the failure's sentence. */
export interface ProbeResult {
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/**
 * One cheap authenticated call to the provider of `spec` (`doctor`), bounded by
 * `timeoutMs`, never retried, and never showing a key:
 *
 *   openai, anthropic, google   GET {base}/models/{id}: the key and the model at once, no tokens
 *   openai-compatible           GET {base}/models (vLLM, Ollama, llama.cpp all serve it): the
 *                               server and the key; a model not in the list is a warning
 *                               (llama.cpp's server answers to any name)
 *   vertex                      a 1-token generateContent through the provider package: Vertex
 *                               has no per-model GET a project's credentials can always read,
 *                               and the package is what gets the access token
 *
 * A failure is the sentence a run would print (model-errors.ts), without the retries.
 */
export async function probeModel(spec: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<ProbeResult> {
  const colon = spec.indexOf(':');
  const provider = spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  const ctx = providerContext(provider, id, env);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    // The run's retries are not doctor's: one attempt, and the timeout bounds the wait.
    if (provider === 'vertex')
      return await generateOneToken(await resolveModel(spec, env, { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }), ctx, signal);
    return await getModels(provider, id, env, ctx, signal);
  } catch (err) {
    if (signal.aborted) {
      return failed(
        `${provider}: no answer from ${new URL(ctx.baseUrl).origin} within ${timeoutMs / 1000} s`,
        `check ${ctx.urlFromEnv ? ctx.urlVar : 'the network'}`,
      );
    }
    // The table shows what happened, and what to check as its fix: together, the sentence a run prints.
    const e = err instanceof ModelCallError ? err : explainModelError(err, ctx);
    return failed(e.what, e.fix ?? 'see above');
  }
}

const failed = (detail: string, fix: string): ProbeResult => ({ status: 'fail', detail, fix });

async function getModels(
  provider: string,
  id: string,
  env: NodeJS.ProcessEnv,
  ctx: ProviderContext,
  signal: AbortSignal,
): Promise<ProbeResult> {
  const compatible = provider === 'openai-compatible';
  const url = compatible ? `${trimSlash(ctx.baseUrl)}/models` : `${trimSlash(ctx.baseUrl)}/models/${encodeURIComponent(id)}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = keyOf(provider, env);
  if (provider === 'anthropic') Object.assign(headers, { 'x-api-key': key ?? '', 'anthropic-version': '2023-06-01' });
  else if (provider === 'google') headers['x-goog-api-key'] = key ?? '';
  else if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(url, { headers, signal, redirect: 'error' });
  const body = await res.text();
  if (!res.ok) {
    throw new APICallError({
      message: bodyMessage(body) ?? res.statusText,
      url,
      requestBodyValues: {},
      statusCode: res.status,
      responseHeaders: Object.fromEntries(res.headers),
      responseBody: body,
    });
  }
  const shown = `GET ${url.replace(/\?.*$/, '')} answered ${res.status}${ctx.credential ? `: ${ctx.credential} works` : ''}`;
  if (!compatible) return { status: 'ok', detail: shown };
  const listed = modelIds(body);
  if (listed === undefined || listed.includes(id)) return { status: 'ok', detail: shown };
  const some = listed.slice(0, 5).map((m) => `"${m.slice(0, 60)}"`);
  return {
    status: 'warn',
    detail: `${shown}, but lists no model "${id}" (it has ${listed.length}${some.length > 0 ? `: ${some.join(', ')}${listed.length > 5 ? ', …' : ''}` : ''})`,
    fix: 'use a model name the server lists (llama.cpp answers to any name; vLLM and Ollama refuse others)',
  };
}

async function generateOneToken(model: ChatModel, ctx: ProviderContext, signal: AbortSignal): Promise<ProbeResult> {
  await model.doGenerate({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Say OK.' }] }],
    maxOutputTokens: 1,
    abortSignal: signal,
  });
  return { status: 'ok', detail: `a 1-token generateContent at ${new URL(ctx.baseUrl).origin} answered: ${ctx.credential} works` };
}

function keyOf(provider: string, env: NodeJS.ProcessEnv): string | undefined {
  if (provider === 'openai-compatible') return env.OPENAI_COMPATIBLE_API_KEY || undefined;
  const names = PROVIDER_ENV[provider as keyof typeof PROVIDER_ENV]?.names ?? [];
  for (const n of names) if (env[n]) return env[n];
  return undefined;
}

/** The ids in an OpenAI-style list (`{data: [{id}]}`), or Ollama's own (`{models: [{name}]}`); undefined when it is neither. */
function modelIds(body: string): string[] | undefined {
  try {
    const v = JSON.parse(body) as { data?: Array<{ id?: unknown }>; models?: Array<{ name?: unknown }> };
    const ids = (v.data ?? []).map((m) => m.id).concat((v.models ?? []).map((m) => m.name));
    return Array.isArray(v.data) || Array.isArray(v.models) ? ids.filter((x): x is string => typeof x === 'string') : undefined;
  } catch {
    return undefined;
  }
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');
