import * as z from 'zod/v4';
import { privateHostsSchema } from './private-hosts.ts';

/**
 * MCP server declarations: one schema for `.agents/mcp.json` and a recipe's
 * `mcp:` key. Strict like the recipe, so a misspelt `read_onyl` is an error with
 * its position rather than a server quietly treated as writable.
 */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. GITHUB_TOKEN');
const seconds = (max: number, what: string) => z.number().positive().max(max).optional().describe(what);

export { ENV_REFERENCE } from './env-reference.ts';

/** An http(s) URL with no user:password@ — credentials in a URL end up in errors and logs. */
export function credentialFreeUrl(where: string) {
  return z
    .url({ protocol: /^https?$/ })
    .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), `no user:password@ in the URL (it would show in errors); ${where}`);
}

/** A leading letter: the model-facing names start with it, and Gemini requires one. */
export const SERVER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** OAuth for a Streamable HTTP server (mcp/oauth-provider.ts): secrets are named by variable, never written here. */
export const mcpOAuthSchema = z
  .strictObject({
    grant: z
      .enum(['authorization_code', 'client_credentials'])
      .optional()
      .describe('authorization_code (a person logs in through a browser; the default) or client_credentials (unattended).'),
    client_id: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe('A pre-registered client; without it the client registers itself (RFC 7591).'),
    client_secret_env: envName.optional().describe('The variable holding the client secret of a confidential client.'),
    private_key_file: z
      .string()
      .min(1)
      .optional()
      .describe('client_credentials: a PEM private key signing a JWT client assertion (private_key_jwt).'),
    private_key_env: envName.optional().describe('client_credentials: the variable holding that PEM private key.'),
    signing_algorithm: z
      .enum(['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'ES512', 'EdDSA'])
      .optional()
      .describe('The JWT assertion’s algorithm (default RS256).'),
    scopes: z
      .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'a scope token: no spaces or quotes'))
      .optional()
      .describe('Scopes to ask for; default: the server’s WWW-Authenticate scope, else its metadata’s scopes_supported.'),
    client_metadata_url: credentialFreeUrl('an https URL')
      .refine((u) => u.startsWith('https://'), 'an https URL')
      .optional()
      .describe('A client ID metadata document URL used as client_id where the server supports it (SEP-991).'),
    private_hosts: privateHostsSchema(
      'OAuth discovery, registration and token requests (an authorization server inside the network; the server URL’s own host needs no entry)',
    ),
  })
  .superRefine((o, ctx) => {
    const grant = o.grant ?? 'authorization_code';
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (o.private_key_file !== undefined && o.private_key_env !== undefined)
      issue('private_key_env', 'give private_key_file or private_key_env, not both');
    const key = o.private_key_file ?? o.private_key_env;
    if (grant === 'client_credentials') {
      if (!o.client_id) issue('client_id', 'client_credentials needs the pre-registered client_id');
      if (!o.client_secret_env && key === undefined)
        issue('client_secret_env', 'client_credentials needs client_secret_env or private_key_file / private_key_env');
      if (o.client_secret_env && key !== undefined) issue('client_secret_env', 'give a client secret or a private key, not both');
      if (o.client_metadata_url) issue('client_metadata_url', 'client_metadata_url is for authorization_code');
    } else {
      if (key !== undefined)
        issue(o.private_key_file ? 'private_key_file' : 'private_key_env', 'a private key is for grant: client_credentials');
      if (o.client_secret_env && !o.client_id) issue('client_id', 'client_secret_env belongs to a pre-registered client_id');
    }
    if (o.signing_algorithm && key === undefined) issue('signing_algorithm', 'signing_algorithm is for a private key');
  });

export const mcpServerSchema = z
  .strictObject({
    transport: z.enum(['stdio', 'http']).optional().describe('stdio (a command) or http (Streamable HTTP); inferred from command / url.'),
    command: z.string().min(1).optional().describe('stdio: the program to start.'),
    args: z
      .array(z.string())
      .optional()
      .describe('stdio: its arguments. ${NAME} expands; ${CORE_AGENT_RECIPE_DIR} is the directory of the recipe that declares it.'),
    env: z
      .record(envName, z.string())
      .optional()
      .describe(
        'stdio: variables for the server, on top of a minimal base (HOME, PATH, USER, …); core-agent’s own environment is NOT passed on. Values may use ${NAME}.',
      ),
    cwd: z.string().optional().describe('stdio: working directory (default: the workspace).'),
    exec_only: z
      .boolean()
      .optional()
      .describe(
        'stdio: false starts the command as given. By default, on Linux, the server runs from an execute-only copy of its program (or of its #! interpreter), so that the commands the model runs cannot read its env: or memory through /proc (docs/shell.md).',
      ),
    url: z
      .url({ protocol: /^https?$/ })
      .refine(
        (u) => !/^[a-z]+:\/\/[^/]*@/i.test(u),
        'no user:password@ in the URL (it would show in errors); use headers or bearer_token_env',
      )
      .optional()
      .describe('http: the Streamable HTTP endpoint.'),
    headers: z.record(z.string(), z.string()).optional().describe('http: extra request headers. Values may use ${NAME}.'),
    bearer_token_env: envName.optional().describe('http: send "Authorization: Bearer <value of this variable>".'),
    google_auth: z
      .strictObject({
        scopes: z
          .array(z.url())
          .min(1)
          .describe('OAuth scopes, e.g. https://www.googleapis.com/auth/cloud-platform (no default: ask for the least you need).'),
      })
      .optional()
      .describe(
        'http: Google Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud ADC, the metadata server / GKE Workload Identity) for Google-hosted MCP endpoints.',
      ),
    oauth: mcpOAuthSchema
      .optional()
      .describe('http: OAuth 2.1 (authorization code + PKCE, or client credentials); tokens are kept in the state directory, mode 0600.'),
    read_only: z
      .boolean()
      .optional()
      .describe('Every tool of this server changes nothing: calls run without approval, concurrently, and may be polled.'),
    poll_allow: z.array(z.string().min(1)).optional().describe('Tools of this server that are read-only even without readOnlyHint.'),
    tools: z
      .strictObject({
        allow: z.array(z.string().min(1)).optional().describe('Register only these tools of the server.'),
        deny: z.array(z.string().min(1)).optional().describe('Never register these (wins over allow).'),
      })
      .optional(),
    startup_timeout_seconds: seconds(600, 'Connect and list tools within this (default 30).'),
    call_timeout_seconds: seconds(3600, 'One tool call within this (default 120).'),
    digest: z.boolean().optional().describe('false: never digest this server’s responses (the output caps still apply).'),
    disabled: z.boolean().optional().describe('Declared but not started.'),
    required: z
      .boolean()
      .optional()
      .describe('The run needs this server: one that cannot start is a start-up error (exit 2), not a run without its tools.'),
  })
  .superRefine((s, ctx) => {
    const transport = s.transport ?? (s.url ? 'http' : 'stdio');
    const wrong = (key: keyof typeof s, why: string) => {
      if (s[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: why });
    };
    if (transport === 'stdio') {
      if (!s.command) ctx.addIssue({ code: 'custom', path: ['command'], message: 'a stdio server needs command (or give url for http)' });
      for (const k of ['url', 'headers', 'bearer_token_env', 'google_auth', 'oauth'] as const)
        wrong(k, `${k} is for http servers; this one is stdio`);
    } else {
      if (!s.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'an http server needs url' });
      for (const k of ['command', 'args', 'env', 'cwd', 'exec_only'] as const) wrong(k, `${k} is for stdio servers; this one is http`);
      if (s.oauth)
        for (const k of ['bearer_token_env', 'google_auth'] as const) wrong(k, `${k} and oauth both set Authorization: keep one`);
    }
    if (s.required && s.disabled)
      ctx.addIssue({ code: 'custom', path: ['required'], message: 'a required server cannot be disabled: drop one of the two' });
  });

export const mcpConfigSchema = z
  .strictObject({
    version: z.literal(1).optional().describe('The schema version (1).'),
    digest: z.boolean().optional().describe('false turns the digest layer off for the run, like --no-mcp-digest (default true).'),
    servers: z
      .record(
        z
          .string()
          .regex(SERVER_NAME, 'a server name starts with a letter, then letters, digits, - and _ (at most 32), e.g. kubernetes, gke'),
        mcpServerSchema,
      )
      .optional()
      .describe('MCP servers by name; their tools are mcp.<name>.<tool> in permission rules.'),
  })
  .describe('MCP servers as tool sources (the same shape as .agents/mcp.json).');

export type McpOAuthConfig = z.output<typeof mcpOAuthSchema>;
export type McpServerConfig = z.output<typeof mcpServerSchema>;
export type McpConfig = z.output<typeof mcpConfigSchema>;
