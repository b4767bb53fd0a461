/**
 * Known secret values masked wherever a tool, a library or the model lets one
 * through (src/util/secret-values.ts, filled by the root: src/runtime/secrets.ts).
 * Each case plants a secret, makes one tool class (or the model, or a log line)
 * bring it back, and secret-masking.test.ts looks for it where it must not be:
 * the result or error the model is shown, the session database, the JSON event
 * stream and the logs — through the built CLI (`run -o json --log-level debug`
 * with a replayed model), or, for call_peer (a hub's tool only), through the
 * root's runtime in-process with the session recorded and logged.
 *
 * `source`: how the secret reaches the registry — a variable named like a
 * credential (PLANTED_TOKEN), a variable a recipe `*_env` key names whatever its
 * name (an alert target's url_env HOOK_ADDRESS, the peers' token_env
 * FLEET_BEARER), or a `${NAME}` an MCP server's headers expand (API_HEADER).
 * `form`: how it appears — as is, base64, URL-encoded, with JSON-escaped
 * characters; `short` (7 characters) and `inside-base64` (in the base64 of
 * `user:secret`) are the documented limits: `shown`.
 */
export type Source = 'secret-named' | 'recipe-env' | 'mcp-header' | 'peers-token';
export type Form = 'plain' | 'base64' | 'url' | 'json-escaped' | 'short' | 'inside-base64';
export type Via =
  | 'read_file'
  | 'bash'
  | 'grep'
  | 'mcp-result'
  | 'mcp-error'
  | 'fetch_url'
  | 'fetch_url-error'
  | 'read_file-error'
  | 'model-text'
  | 'mcp-stderr-log'
  | 'call_peer';

export interface MaskCase {
  name: string;
  via: Via;
  source: Source;
  form: Form;
  expect: 'masked' | 'shown';
}

export const MASK_CASES: readonly MaskCase[] = [
  { name: 'read_file of a file holding the token', via: 'read_file', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'bash cat of that file', via: 'bash', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'grep matching the line that holds it', via: 'grep', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'an MCP tool returning it (the server’s env)', via: 'mcp-result', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'an MCP tool failing with it in its error', via: 'mcp-error', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'fetch_url of a page quoting it', via: 'fetch_url', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'fetch_url failing on a URL that holds it', via: 'fetch_url-error', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'read_file failing on a path that holds it', via: 'read_file-error', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'the model’s own text quoting it', via: 'model-text', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'an MCP server’s stderr in the debug log', via: 'mcp-stderr-log', source: 'secret-named', form: 'plain', expect: 'masked' },
  { name: 'call_peer: a peer’s answer quoting the fleet token', via: 'call_peer', source: 'peers-token', form: 'plain', expect: 'masked' },
  { name: 'an alert webhook URL (url_env) read from a file', via: 'read_file', source: 'recipe-env', form: 'plain', expect: 'masked' },
  { name: 'an MCP header value (${API_HEADER}) read from a file', via: 'read_file', source: 'mcp-header', form: 'plain', expect: 'masked' },
  { name: 'the token in base64', via: 'read_file', source: 'secret-named', form: 'base64', expect: 'masked' },
  { name: 'the token URL-encoded', via: 'read_file', source: 'secret-named', form: 'url', expect: 'masked' },
  {
    name: 'a token with quotes and backslashes (JSON-escaped in the stream)',
    via: 'bash',
    source: 'secret-named',
    form: 'json-escaped',
    expect: 'masked',
  },
  { name: 'limit: a 7-character secret is not masked', via: 'read_file', source: 'secret-named', form: 'short', expect: 'shown' },
  {
    name: 'limit: a secret inside a larger base64 string is not',
    via: 'read_file',
    source: 'secret-named',
    form: 'inside-base64',
    expect: 'shown',
  },
];
