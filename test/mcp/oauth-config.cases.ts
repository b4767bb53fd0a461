/**
 * oauth: blocks of an MCP server declaration, and what the schema says: null is
 * accepted, else a fragment of the error and the field it names. Secrets are
 * variable names, never values; a block that cannot work is refused at load.
 */
export interface OAuthConfigCase {
  oauth: unknown;
  /** Server keys beside oauth (default: an http url). */
  server?: Record<string, unknown>;
  error: null | { path: string; says: string };
}

const url = 'https://mcp.example.com/mcp';
export const OAUTH_CONFIG_CASES: Array<[string, OAuthConfigCase]> = [
  ['empty block: dynamic registration, browser login', { oauth: {}, error: null }],
  ['pre-registered public client', { oauth: { client_id: 'core-agent-cli' }, error: null }],
  ['pre-registered confidential client', { oauth: { client_id: 'c', client_secret_env: 'MCP_SECRET' }, error: null }],
  ['scopes', { oauth: { scopes: ['repo', 'read:org'] }, error: null }],
  ['client credentials with a secret', { oauth: { grant: 'client_credentials', client_id: 'c', client_secret_env: 'S' }, error: null }],
  [
    'client credentials with a key file',
    { oauth: { grant: 'client_credentials', client_id: 'c', private_key_file: '/k.pem', signing_algorithm: 'ES256' }, error: null },
  ],
  ['client credentials with a key in env', { oauth: { grant: 'client_credentials', client_id: 'c', private_key_env: 'KEY' }, error: null }],
  ['client metadata document URL', { oauth: { client_metadata_url: 'https://example.com/client.json' }, error: null }],
  ['a misspelt key', { oauth: { client_idd: 'x' }, error: { path: 'oauth', says: 'client_idd' } }],
  [
    'a secret VALUE where a variable name goes',
    {
      oauth: { client_id: 'c', client_secret_env: 's3cr3t-value!' },
      error: { path: 'oauth.client_secret_env', says: 'environment variable name' },
    },
  ],
  ['an unknown grant', { oauth: { grant: 'password' }, error: { path: 'oauth.grant', says: 'authorization_code' } }],
  [
    'client credentials without a client',
    {
      oauth: { grant: 'client_credentials', client_secret_env: 'S' },
      error: { path: 'oauth.client_id', says: 'pre-registered client_id' },
    },
  ],
  [
    'client credentials without a credential',
    {
      oauth: { grant: 'client_credentials', client_id: 'c' },
      error: { path: 'oauth.client_secret_env', says: 'client_secret_env or private_key_file' },
    },
  ],
  [
    'client credentials with a secret and a key',
    {
      oauth: { grant: 'client_credentials', client_id: 'c', client_secret_env: 'S', private_key_env: 'K' },
      error: { path: 'oauth.client_secret_env', says: 'not both' },
    },
  ],
  [
    'a key file and a key variable',
    {
      oauth: { grant: 'client_credentials', client_id: 'c', private_key_file: '/k', private_key_env: 'K' },
      error: { path: 'oauth.private_key_env', says: 'not both' },
    },
  ],
  [
    'a private key for a browser login',
    { oauth: { client_id: 'c', private_key_file: '/k.pem' }, error: { path: 'oauth.private_key_file', says: 'grant: client_credentials' } },
  ],
  [
    'a secret without its client',
    { oauth: { client_secret_env: 'S' }, error: { path: 'oauth.client_id', says: 'pre-registered client_id' } },
  ],
  [
    'an algorithm without a key',
    { oauth: { signing_algorithm: 'RS256' }, error: { path: 'oauth.signing_algorithm', says: 'for a private key' } },
  ],
  [
    'an unknown algorithm',
    {
      oauth: { grant: 'client_credentials', client_id: 'c', private_key_env: 'K', signing_algorithm: 'none' },
      error: { path: 'oauth.signing_algorithm', says: 'RS256' },
    },
  ],
  ['a scope with a space', { oauth: { scopes: ['read write'] }, error: { path: 'oauth.scopes.0', says: 'no spaces' } }],
  [
    'a metadata URL over http',
    { oauth: { client_metadata_url: 'http://example.com/c.json' }, error: { path: 'oauth.client_metadata_url', says: 'https' } },
  ],
  [
    'a metadata URL for client credentials',
    {
      oauth: { grant: 'client_credentials', client_id: 'c', client_secret_env: 'S', client_metadata_url: 'https://e.com/c.json' },
      error: { path: 'oauth.client_metadata_url', says: 'authorization_code' },
    },
  ],
  ['oauth on a stdio server', { oauth: {}, server: { command: 'srv' }, error: { path: 'oauth', says: 'for http servers' } }],
  [
    'oauth and a bearer token',
    { oauth: {}, server: { url, bearer_token_env: 'T' }, error: { path: 'bearer_token_env', says: 'keep one' } },
  ],
  [
    'oauth and Google credentials',
    {
      oauth: {},
      server: { url, google_auth: { scopes: ['https://www.googleapis.com/auth/cloud-platform'] } },
      error: { path: 'google_auth', says: 'keep one' },
    },
  ],
  ['oauth that is not an object', { oauth: 'yes', error: { path: 'oauth', says: 'object' } }],
];
