import { APICallError } from '@ai-sdk/provider';
import { causeChain } from '../util/failure-sentences.ts';
import { ModelCallError, type ModelFailure } from './model.ts';

/**
 * What a failed call's sentence names: the provider, the model, where the request
 * went and which setting decided it, and the credential that was sent. Built once
 * per model from the environment (providers.ts); never holds a key's value except
 * in `secrets`, which are only ever cut out of the provider's text.
 */
export interface ProviderContext {
  /** `openai`, `openai-compatible`, `anthropic`, `google`, `vertex`. */
  provider: string;
  modelId: string;
  /** The base URL the requests go to. */
  baseUrl: string;
  /** The variable that sets it, and whether it did (else the provider's default). */
  urlVar: string;
  urlFromEnv: boolean;
  /** What was sent to authenticate, as a phrase: `the key in OPENAI_API_KEY`; undefined: nothing. */
  credential: string | undefined;
  /** What to check when the credential is refused, as a phrase after "check". */
  credentialFix: string;
  /** What to check when the credential may not use the model. */
  accessFix: string;
  /** Whose quota a rate limit is counted against, as a phrase (default: the credential). */
  quotaOf?: string | undefined;
  /** Values to cut out of any text a server sends back. */
  secrets: string[];
}

/** The network error codes a retry can fix: the server was there, or may be in a moment. */
export const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);

/** The first code down an error's cause chain (undici nests the reason two or three deep). */
export function networkCode(err: unknown): string | undefined {
  for (const e of causeChain(err)) if (typeof e.code === 'string') return e.code;
  return undefined;
}

/** A certificate or handshake failure: permanent until someone changes the server, the URL or the trust store. */
export function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    code.includes('CERT') ||
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'INVALID_CA'].includes(code)
  );
}

/** OpenAI's 429 for an account with no credit left (`insufficient_quota`): waiting does not fix it. */
export function isOutOfQuota(err: unknown): boolean {
  return APICallError.isInstance(err) && err.statusCode === 429 && /insufficient_quota/.test(err.responseBody ?? '');
}

/** The Gemini API refuses a bad key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID, not with 401. */
function isGoogleKeyRefusal(err: APICallError): boolean {
  return err.statusCode === 400 && /API_KEY_INVALID|API key not valid/.test(err.responseBody ?? err.message);
}

/**
 * The one sentence for a failed model call: the provider, the HTTP status or the
 * network error, and what to check — the variable holding the key, the base URL's
 * variable, the model name. `attempts` is how many calls were made (the retries
 * included), said when there was more than one.
 */
export function explainModelError(err: unknown, ctx: ProviderContext, attempts = 1): ModelCallError {
  const { failure, status, what, fix } = describe(err, ctx, attempts);
  return new ModelCallError(fix ? `${what}; ${fix}` : what, failure, status, { cause: err, what, fix });
}

interface Described {
  failure: ModelFailure;
  status?: number;
  /** What happened: the provider, the status or network error, the server's words. */
  what: string;
  /** What to check or do, when there is something ("check …", "set …"). */
  fix?: string;
}

function describe(err: unknown, ctx: ProviderContext, attempts: number): Described {
  const p = ctx.provider;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  const said = serverSaid(err, ctx);
  const url = ctx.urlFromEnv ? ` and ${ctx.urlVar}` : '';
  if (APICallError.isInstance(err) && err.statusCode !== undefined) {
    const status = err.statusCode;
    const head = `${p} answered HTTP ${status}${tries}`;
    if (status === 401 || (p === 'google' && isGoogleKeyRefusal(err))) {
      return ctx.credential
        ? { failure: 'auth', status, what: `${head}: ${ctx.credential} was refused${said}`, fix: `check ${ctx.credentialFix}` }
        : { failure: 'auth', status, what: `${head}: the server at ${ctx.baseUrl} wants a key${said}`, fix: ctx.credentialFix };
    }
    if (status === 403) {
      const who = ctx.credential ?? 'the request';
      return {
        failure: 'forbidden',
        status,
        what: `${head}: ${who} may not use model "${ctx.modelId}"${said}`,
        fix: `check ${ctx.accessFix}`,
      };
    }
    if (status === 404) {
      return {
        failure: 'not_found',
        status,
        what: `${head}: no model "${ctx.modelId}" at ${ctx.baseUrl}${said}`,
        fix: `check the model name${url}`,
      };
    }
    if (status === 429 && isOutOfQuota(err)) {
      const who = ctx.credential ?? 'the account';
      return { failure: 'quota', status, what: `${head}: ${who} is out of quota${said}`, fix: 'check the plan and billing of its account' };
    }
    if (status === 429) {
      const wait = retryAfterSeconds(err);
      const asked = wait !== undefined && wait > 30 ? ` (it asked to wait ${wait} s)` : '';
      const whose = (ctx.quotaOf ?? ctx.credential) ? ` of ${ctx.quotaOf ?? ctx.credential}` : '';
      return {
        failure: 'rate_limit',
        status,
        what: `${head}: rate limited${asked}${said}`,
        fix: `wait and run again, or check the quota${whose}`,
      };
    }
    if (status >= 500) {
      const fix =
        p === 'openai-compatible'
          ? `check the log of the server at ${ctx.baseUrl}`
          : `try again later${url ? `, and check ${ctx.urlVar}` : ''}`;
      return { failure: 'server', status, what: `${head}: the server failed${said}`, fix };
    }
    return {
      failure: 'bad_request',
      status,
      what: `${head}: the request was refused${said}`,
      fix: `check the model name "${ctx.modelId}"${url}`,
    };
  }
  const code = networkCode(err);
  const origin = originOf(ctx.baseUrl);
  const n = attempts > 1 ? `, ${attempts} attempts` : '';
  // A URL someone set is the first suspect; the provider's own default leaves the network.
  const where = ctx.urlFromEnv ? ctx.urlVar : 'the network';
  if (code === 'ECONNREFUSED' || code === 'ConnectionRefused') {
    const fix = ctx.urlFromEnv ? `check ${ctx.urlVar} and that the server is running` : 'check the network';
    return { failure: 'refused', what: `${p}: nothing answers at ${origin} (connection refused${n})`, fix };
  }
  if (code === 'ENOTFOUND') {
    const fix = ctx.urlFromEnv ? `check the host name in ${ctx.urlVar}` : "check the machine's DNS and network";
    return { failure: 'dns', what: `${p}: the host "${hostOf(ctx.baseUrl)}" was not found (DNS ENOTFOUND)`, fix };
  }
  if (code === 'EAI_AGAIN') {
    const fix = `check the machine's DNS and network${ctx.urlFromEnv ? `, and ${ctx.urlVar}` : ''}`;
    return {
      failure: 'dns',
      what: `${p}: the host "${hostOf(ctx.baseUrl)}" could not be resolved (DNS EAI_AGAIN, a temporary failure${n})`,
      fix,
    };
  }
  if (code !== undefined && isTlsCode(code)) {
    return { failure: 'tls', what: `${p}: TLS with ${origin} failed: ${tlsReason(code)} (${code})`, fix: tlsFix(code, ctx) };
  }
  if (code !== undefined && /TIMEOUT|TIMEDOUT/.test(code)) {
    return { failure: 'timeout', what: `${p}: no answer from ${origin} in time (${code}${n})`, fix: `check ${where}` };
  }
  if (code !== undefined && TRANSIENT_NETWORK_CODES.has(code)) {
    return { failure: 'connection', what: `${p}: the connection to ${origin} broke (${code}${n})`, fix: `check ${where}` };
  }
  const message = bounded(redact(messageOf(err), ctx.secrets));
  if (p === 'vertex' && /credential|token|metadata|authenticat/i.test(message)) {
    return { failure: 'auth', what: `${p}: no access token: ${message}`, fix: `check ${ctx.credentialFix}` };
  }
  return { failure: 'other', what: `${p}: the model call failed${tries}: ${message}` };
}

/** A stream that broke off after it started (an `error` part): what the provider sent, bounded. */
export function explainStreamError(err: unknown, ctx: ProviderContext): ModelCallError {
  if (APICallError.isInstance(err) || networkCode(err) !== undefined) return explainModelError(err, ctx);
  const message = bounded(redact(messageOf(err), ctx.secrets));
  return new ModelCallError(`${ctx.provider}: the answer stream failed: ${message}`, 'stream', undefined, { cause: err });
}

/** HTTP's reason phrases: what the SDK reports when it could not read the body, and nothing the status does not say. */
const REASON_PHRASES = new Set(
  [
    'Bad Request',
    'Unauthorized',
    'Payment Required',
    'Forbidden',
    'Not Found',
    'Method Not Allowed',
    'Request Timeout',
    'Conflict',
    'Payload Too Large',
    'Unprocessable Entity',
    'Too Many Requests',
    'Internal Server Error',
    'Bad Gateway',
    'Service Unavailable',
    'Gateway Timeout',
  ].map((p) => p.toLowerCase()),
);

/**
 * ` ("the provider's message")`, bounded and with any key cut out; nothing when it only
 * repeats the status. A body the provider package could not parse (Ollama's `{"error":
 * "…"}`, vLLM's top-level `message`) leaves the SDK with the status text: the body says more.
 */
function serverSaid(err: unknown, ctx: ProviderContext): string {
  if (!APICallError.isInstance(err)) return '';
  const generic = (m: string) => m === '' || /^(status )?\d{3}$/i.test(m) || REASON_PHRASES.has(m.toLowerCase());
  let message = err.message.replace(/\s+/g, ' ').trim();
  if (generic(message)) message = bodyMessage(err.responseBody) ?? '';
  message = redact(message, ctx.secrets).replace(/\s+/g, ' ').trim();
  return generic(message) ? '' : ` ("${bounded(message)}")`;
}

/** The message in the error shapes servers send: `{error: {message}}`, `{error: "…"}`, `{message}`. */
export function bodyMessage(body: string | undefined): string | undefined {
  try {
    const v = JSON.parse(body ?? '') as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof v.error === 'string' ? v.error : (v.error?.message ?? v.message);
    return typeof m === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

function bounded(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A key echoed back by a server (some proxies do) never reaches a terminal or a log. */
function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 6) out = out.split(s).join('****');
  return out;
}

function retryAfterSeconds(err: APICallError): number | undefined {
  const entry = Object.entries(err.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'retry-after');
  const seconds = entry ? Number(entry[1]) : NaN;
  return Number.isFinite(seconds) ? Math.round(seconds) : undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url.slice(0, 100);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url.slice(0, 100);
  }
}

function tlsReason(code: string): string {
  if (['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN'].includes(code)) return "the server's certificate is self-signed";
  if (code.startsWith('UNABLE_TO_') || code === 'CERT_UNTRUSTED' || code === 'INVALID_CA')
    return "the server's certificate is not signed by a trusted CA";
  if (code === 'CERT_HAS_EXPIRED') return "the server's certificate has expired";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return "the server's certificate is for other host names";
  if (['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'].includes(code)) {
    return 'the port does not speak TLS';
  }
  return 'the handshake failed';
}

function tlsFix(code: string, ctx: ProviderContext): string {
  if (['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'].includes(code)) {
    return `check ${ctx.urlVar} (http:// for a plain-HTTP server)`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `check the host name in ${ctx.urlVar}`;
  return `check ${ctx.urlVar}, or trust the server's CA with NODE_EXTRA_CA_CERTS`;
}
