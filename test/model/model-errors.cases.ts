// Every provider × every way a model call fails, through the built CLI (test/model/model-errors.test.ts):
// `run` against a server on 127.0.0.1 that answers every request with `reply` (each provider's
// real error body), or a network failure — `refused` (a closed port), `dns` (a .invalid host),
// `self-signed` (TLS with an untrusted certificate), `plain-http` (an https:// URL to a plain
// HTTP port). `says` is the exact sentence after "core-agent: model call failed: "; `exit` the
// status. The same failure through `doctor -m` gives the same sentence (its "model api" check's
// detail and fix), made once: {tries} and {n} are the run's retries (" after 5 attempts",
// ", 5 attempts") and nothing in doctor. Placeholders: {url} the base URL, {origin} its origin,
// {host} the .invalid host; {key} in a reply is the planted key, which must appear nowhere.
// One line a case.

export type Provider = 'openai' | 'openai-compatible' | 'anthropic' | 'google' | 'vertex';
export type Net = 'refused' | 'dns' | 'self-signed' | 'plain-http';

export interface ModelErrorCase {
  provider: Provider;
  /** An HTTP answer to every request: status and JSON body. */
  reply?: { status: number; body: unknown; headers?: Record<string, string> };
  net?: Net;
  says: string;
  exit: 3;
  /** Requests the run made (retries included); default 1. */
  requests?: number;
}

const openaiError = (message: string, type: string, code: string | null = null) => ({ error: { message, type, param: null, code } });
const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const googleError = (code: number, status: string, message: string, reason?: string) => ({
  error: {
    code,
    message,
    status,
    ...(reason ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] } : {}),
  },
});

const OPENAI_KEY_FIX = 'check that OPENAI_API_KEY holds a current OpenAI API key';
const REFUSED = (p: string, v: string) =>
  `${p}: nothing answers at {origin} (connection refused{n}); check ${v} and that the server is running`;
const DNS = (p: string, v: string) => `${p}: the host "{host}" was not found (DNS ENOTFOUND); check the host name in ${v}`;
const SELF_SIGNED = (p: string, v: string) =>
  `${p}: TLS with {origin} failed: the server's certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); check ${v}, or trust the server's CA with NODE_EXTRA_CA_CERTS`;
const PLAIN = (p: string, v: string) =>
  `${p}: TLS with {origin} failed: the port does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER); check ${v} (http:// for a plain-HTTP server)`;
const VERTEX_FIX =
  'check Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, `gcloud auth application-default login`, or the metadata server)';
const VERTEX_ACCESS =
  'check that the Vertex AI API is enabled in the project in GOOGLE_CLOUD_PROJECT and the account holds roles/aiplatform.user there (GOOGLE_CLOUD_LOCATION is us-central1)';

export const MODEL_ERROR_CASES: ModelErrorCase[] = [
  // OpenAI (its error bodies as the API sends them; a 401 echoing the key, masked as OpenAI masks it only in part).
  {
    provider: 'openai',
    reply: { status: 401, body: openaiError('Incorrect API key provided: {key}.', 'invalid_request_error', 'invalid_api_key') },
    says: `openai answered HTTP 401: the key in OPENAI_API_KEY was refused ("Incorrect API key provided: ****."); ${OPENAI_KEY_FIX}`,
    exit: 3,
  },
  {
    provider: 'openai',
    reply: {
      status: 403,
      body: openaiError('Project `proj_1` does not have access to model `gpt-4.1-mini`', 'invalid_request_error', 'model_not_found'),
    },
    says: 'openai answered HTTP 403: the key in OPENAI_API_KEY may not use model "gpt-4.1-mini" ("Project `proj_1` does not have access to model `gpt-4.1-mini`"); check the access of the key\'s project or organization to that model, and OPENAI_BASE_URL',
    exit: 3,
  },
  {
    provider: 'openai',
    reply: {
      status: 404,
      body: openaiError(
        'The model `gpt-4.1-mini` does not exist or you do not have access to it.',
        'invalid_request_error',
        'model_not_found',
      ),
    },
    says: 'openai answered HTTP 404: no model "gpt-4.1-mini" at {url} ("The model `gpt-4.1-mini` does not exist or you do not have access to it."); check the model name and OPENAI_BASE_URL',
    exit: 3,
  },
  {
    provider: 'openai',
    reply: {
      status: 429,
      body: openaiError('Rate limit reached for gpt-4.1-mini on tokens per min (TPM): Limit 30000.', 'tokens', 'rate_limit_exceeded'),
    },
    says: 'openai answered HTTP 429{tries}: rate limited ("Rate limit reached for gpt-4.1-mini on tokens per min (TPM): Limit 30000."); wait and run again, or check the quota of the key in OPENAI_API_KEY',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'openai',
    reply: {
      status: 429,
      body: openaiError(
        'You exceeded your current quota, please check your plan and billing details.',
        'insufficient_quota',
        'insufficient_quota',
      ),
    },
    says: 'openai answered HTTP 429: the key in OPENAI_API_KEY is out of quota ("You exceeded your current quota, please check your plan and billing details."); check the plan and billing of its account',
    exit: 3,
  },
  {
    provider: 'openai',
    reply: { status: 500, body: openaiError('The server had an error while processing your request. Sorry about that!', 'server_error') },
    says: 'openai answered HTTP 500{tries}: the server failed ("The server had an error while processing your request. Sorry about that!"); try again later, and check OPENAI_BASE_URL',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'openai',
    reply: { status: 503, body: openaiError('The engine is currently overloaded, please try again later.', 'server_error') },
    says: 'openai answered HTTP 503{tries}: the server failed ("The engine is currently overloaded, please try again later."); try again later, and check OPENAI_BASE_URL',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'openai',
    reply: { status: 400, body: openaiError("Invalid value for 'tool_choice'.", 'invalid_request_error') },
    says: 'openai answered HTTP 400: the request was refused ("Invalid value for \'tool_choice\'."); check the model name "gpt-4.1-mini" and OPENAI_BASE_URL',
    exit: 3,
  },
  { provider: 'openai', net: 'refused', says: REFUSED('openai', 'OPENAI_BASE_URL'), exit: 3 },
  { provider: 'openai', net: 'dns', says: DNS('openai', 'OPENAI_BASE_URL'), exit: 3 },
  { provider: 'openai', net: 'self-signed', says: SELF_SIGNED('openai', 'OPENAI_BASE_URL'), exit: 3 },
  { provider: 'openai', net: 'plain-http', says: PLAIN('openai', 'OPENAI_BASE_URL'), exit: 3 },

  // OpenAI-compatible servers: llama.cpp's error shape, vLLM's top-level message, Ollama's error string.
  {
    provider: 'openai-compatible',
    reply: { status: 401, body: { error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' } } },
    says: 'openai-compatible answered HTTP 401: the key in OPENAI_COMPATIBLE_API_KEY was refused ("Invalid API Key"); check that OPENAI_COMPATIBLE_API_KEY holds the key the server expects',
    exit: 3,
  },
  {
    provider: 'openai-compatible',
    reply: { status: 403, body: { error: { message: 'forbidden for {key}', type: 'permission_error' } } },
    says: 'openai-compatible answered HTTP 403: the key in OPENAI_COMPATIBLE_API_KEY may not use model "local-model" ("forbidden for ****"); check the server\'s access rules for the key in OPENAI_COMPATIBLE_API_KEY',
    exit: 3,
  },
  {
    provider: 'openai-compatible',
    reply: {
      status: 404,
      body: { object: 'error', message: 'The model `local-model` does not exist.', type: 'NotFoundError', param: null, code: 404 },
    },
    says: 'openai-compatible answered HTTP 404: no model "local-model" at {url} ("The model `local-model` does not exist."); check the model name and OPENAI_COMPATIBLE_BASE_URL',
    exit: 3,
  },
  {
    provider: 'openai-compatible',
    reply: { status: 400, body: { error: 'registry.ollama.ai/library/local-model:latest does not support tools' } },
    says: 'openai-compatible answered HTTP 400: the request was refused ("registry.ollama.ai/library/local-model:latest does not support tools"); check the model name "local-model" and OPENAI_COMPATIBLE_BASE_URL',
    exit: 3,
    // A 400 is asked once more without stream_options (some servers refuse that field): two requests.
    requests: 2,
  },
  {
    provider: 'openai-compatible',
    reply: { status: 429, body: { error: { message: 'too many requests in flight', type: 'rate_limit' } } },
    says: 'openai-compatible answered HTTP 429{tries}: rate limited ("too many requests in flight"); wait and run again, or check the quota of the key in OPENAI_COMPATIBLE_API_KEY',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'openai-compatible',
    reply: { status: 500, body: { error: { message: 'CUDA out of memory', type: 'server_error' } } },
    says: 'openai-compatible answered HTTP 500{tries}: the server failed ("CUDA out of memory"); check the log of the server at {url}',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'openai-compatible',
    reply: { status: 503, body: { error: { message: 'Loading model', type: 'unavailable_error' } } },
    says: 'openai-compatible answered HTTP 503{tries}: the server failed ("Loading model"); check the log of the server at {url}',
    exit: 3,
    requests: 5,
  },
  { provider: 'openai-compatible', net: 'refused', says: REFUSED('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL'), exit: 3 },
  { provider: 'openai-compatible', net: 'dns', says: DNS('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL'), exit: 3 },
  { provider: 'openai-compatible', net: 'self-signed', says: SELF_SIGNED('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL'), exit: 3 },
  { provider: 'openai-compatible', net: 'plain-http', says: PLAIN('openai-compatible', 'OPENAI_COMPATIBLE_BASE_URL'), exit: 3 },

  // Anthropic (its error types, 529 overloaded included).
  {
    provider: 'anthropic',
    reply: { status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') },
    says: 'anthropic answered HTTP 401: the key in ANTHROPIC_API_KEY was refused ("invalid x-api-key"); check that ANTHROPIC_API_KEY holds a current Anthropic API key',
    exit: 3,
  },
  {
    provider: 'anthropic',
    reply: {
      status: 403,
      body: anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.'),
    },
    says: 'anthropic answered HTTP 403: the key in ANTHROPIC_API_KEY may not use model "claude-sonnet-4-5" ("Your API key does not have permission to use the specified resource."); check the access of the key\'s project or organization to that model, and ANTHROPIC_BASE_URL',
    exit: 3,
  },
  {
    provider: 'anthropic',
    reply: { status: 404, body: anthropicError('not_found_error', 'model: claude-sonnet-4-5') },
    says: 'anthropic answered HTTP 404: no model "claude-sonnet-4-5" at {url} ("model: claude-sonnet-4-5"); check the model name and ANTHROPIC_BASE_URL',
    exit: 3,
  },
  {
    provider: 'anthropic',
    reply: { status: 429, body: anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') },
    says: 'anthropic answered HTTP 429{tries}: rate limited ("Number of request tokens has exceeded your per-minute rate limit"); wait and run again, or check the quota of the key in ANTHROPIC_API_KEY',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'anthropic',
    reply: { status: 529, body: anthropicError('overloaded_error', 'Overloaded') },
    says: 'anthropic answered HTTP 529{tries}: the server failed ("Overloaded"); try again later, and check ANTHROPIC_BASE_URL',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'anthropic',
    reply: { status: 500, body: anthropicError('api_error', 'Internal server error') },
    says: 'anthropic answered HTTP 500{tries}: the server failed; try again later, and check ANTHROPIC_BASE_URL',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'anthropic',
    reply: { status: 400, body: anthropicError('invalid_request_error', 'tools.0.input_schema: JSON schema is invalid') },
    says: 'anthropic answered HTTP 400: the request was refused ("tools.0.input_schema: JSON schema is invalid"); check the model name "claude-sonnet-4-5" and ANTHROPIC_BASE_URL',
    exit: 3,
  },
  { provider: 'anthropic', net: 'refused', says: REFUSED('anthropic', 'ANTHROPIC_BASE_URL'), exit: 3 },
  { provider: 'anthropic', net: 'dns', says: DNS('anthropic', 'ANTHROPIC_BASE_URL'), exit: 3 },
  { provider: 'anthropic', net: 'self-signed', says: SELF_SIGNED('anthropic', 'ANTHROPIC_BASE_URL'), exit: 3 },
  { provider: 'anthropic', net: 'plain-http', says: PLAIN('anthropic', 'ANTHROPIC_BASE_URL'), exit: 3 },

  // The Gemini API: a bad key is 400 API_KEY_INVALID, not 401; the key came from GEMINI_API_KEY.
  {
    provider: 'google',
    reply: {
      status: 400,
      body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'),
    },
    says: 'google answered HTTP 400: the key in GEMINI_API_KEY was refused ("API key not valid. Please pass a valid API key."); check that GEMINI_API_KEY holds a current Gemini API key',
    exit: 3,
  },
  {
    provider: 'google',
    reply: { status: 401, body: googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.') },
    says: 'google answered HTTP 401: the key in GEMINI_API_KEY was refused ("Request had invalid authentication credentials."); check that GEMINI_API_KEY holds a current Gemini API key',
    exit: 3,
  },
  {
    provider: 'google',
    reply: {
      status: 403,
      body: googleError(403, 'PERMISSION_DENIED', 'Generative Language API has not been used in project 123 before or it is disabled.'),
    },
    says: 'google answered HTTP 403: the key in GEMINI_API_KEY may not use model "gemini-2.5-flash" ("Generative Language API has not been used in project 123 before or it is disabled."); check that the key\'s Google Cloud project may use the Gemini API and that model, and GOOGLE_GEMINI_BASE_URL',
    exit: 3,
  },
  {
    provider: 'google',
    reply: {
      status: 404,
      body: googleError(
        404,
        'NOT_FOUND',
        'models/gemini-2.5-flash is not found for API version v1beta, or is not supported for generateContent.',
      ),
    },
    says: 'google answered HTTP 404: no model "gemini-2.5-flash" at {url} ("models/gemini-2.5-flash is not found for API version v1beta, or is not supported for generateContent."); check the model name and GOOGLE_GEMINI_BASE_URL',
    exit: 3,
  },
  {
    provider: 'google',
    reply: { status: 429, body: googleError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).') },
    says: 'google answered HTTP 429{tries}: rate limited ("Resource has been exhausted (e.g. check quota)."); wait and run again, or check the quota of the key in GEMINI_API_KEY',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'google',
    reply: { status: 500, body: googleError(500, 'INTERNAL', 'An internal error has occurred.') },
    says: 'google answered HTTP 500{tries}: the server failed ("An internal error has occurred."); try again later, and check GOOGLE_GEMINI_BASE_URL',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'google',
    reply: { status: 503, body: googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.') },
    says: 'google answered HTTP 503{tries}: the server failed ("The model is overloaded. Please try again later."); try again later, and check GOOGLE_GEMINI_BASE_URL',
    exit: 3,
    requests: 5,
  },
  { provider: 'google', net: 'refused', says: REFUSED('google', 'GOOGLE_GEMINI_BASE_URL'), exit: 3 },
  { provider: 'google', net: 'dns', says: DNS('google', 'GOOGLE_GEMINI_BASE_URL'), exit: 3 },
  { provider: 'google', net: 'self-signed', says: SELF_SIGNED('google', 'GOOGLE_GEMINI_BASE_URL'), exit: 3 },
  { provider: 'google', net: 'plain-http', says: PLAIN('google', 'GOOGLE_GEMINI_BASE_URL'), exit: 3 },

  // Vertex AI: an access token from the metadata server; the credentials are what to check.
  {
    provider: 'vertex',
    reply: {
      status: 401,
      body: googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.'),
    },
    says: `vertex answered HTTP 401: the access token of the Google Cloud credentials was refused ("Request had invalid authentication credentials. Expected OAuth 2 access token."); ${VERTEX_FIX}`,
    exit: 3,
  },
  {
    provider: 'vertex',
    reply: { status: 403, body: googleError(403, 'PERMISSION_DENIED', "Permission 'aiplatform.endpoints.predict' denied on resource.") },
    says: `vertex answered HTTP 403: the access token of the Google Cloud credentials may not use model "gemini-2.5-flash" ("Permission 'aiplatform.endpoints.predict' denied on resource."); ${VERTEX_ACCESS}`,
    exit: 3,
  },
  {
    provider: 'vertex',
    reply: {
      status: 404,
      body: googleError(404, 'NOT_FOUND', 'Publisher Model `gemini-2.5-flash` was not found or your project does not have access to it.'),
    },
    says: 'vertex answered HTTP 404: no model "gemini-2.5-flash" at {url} ("Publisher Model `gemini-2.5-flash` was not found or your project does not have access to it."); check the model name and GOOGLE_VERTEX_BASE_URL',
    exit: 3,
  },
  {
    provider: 'vertex',
    reply: {
      status: 429,
      body: googleError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute.'),
    },
    says: 'vertex answered HTTP 429{tries}: rate limited ("Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute."); wait and run again, or check the quota of the project in GOOGLE_CLOUD_PROJECT',
    exit: 3,
    requests: 5,
  },
  {
    provider: 'vertex',
    reply: { status: 500, body: googleError(500, 'INTERNAL', 'Internal error encountered.') },
    says: 'vertex answered HTTP 500{tries}: the server failed ("Internal error encountered."); try again later, and check GOOGLE_VERTEX_BASE_URL',
    exit: 3,
    requests: 5,
  },
  { provider: 'vertex', net: 'refused', says: REFUSED('vertex', 'GOOGLE_VERTEX_BASE_URL'), exit: 3 },
  { provider: 'vertex', net: 'dns', says: DNS('vertex', 'GOOGLE_VERTEX_BASE_URL'), exit: 3 },
  { provider: 'vertex', net: 'self-signed', says: SELF_SIGNED('vertex', 'GOOGLE_VERTEX_BASE_URL'), exit: 3 },
  { provider: 'vertex', net: 'plain-http', says: PLAIN('vertex', 'GOOGLE_VERTEX_BASE_URL'), exit: 3 },
];
