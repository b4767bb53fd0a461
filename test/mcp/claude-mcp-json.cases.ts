/**
 * Claude Code's `.mcp.json` as core-agent reads it (src/mcp/claude-mcp-json.ts): the file and
 * the environment in, the declarations out (`servers`, each checked by the mcp.json schema) and
 * a line for what is skipped or ignored (`notices`), or the error at its position (`error`).
 */
export interface ClaudeMcpJsonCase {
  name: string;
  json: unknown;
  env?: Record<string, string>;
  servers?: Record<string, object>;
  notices?: RegExp[];
  error?: RegExp;
}

// One case a line (prettier would spread each over several).
// prettier-ignore
export const CLAUDE_MCP_JSON_CASES: ClaudeMcpJsonCase[] = [
  { name: 'stdio without a type', json: { mcpServers: { gh: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } } }, servers: { gh: { transport: 'stdio', command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } }, notices: [] },
  { name: 'stdio with "type": "stdio"', json: { mcpServers: { fs: { type: 'stdio', command: 'mcp-fs' } } }, servers: { fs: { transport: 'stdio', command: 'mcp-fs' } } },
  { name: 'http with headers: references kept until start', json: { mcpServers: { api: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } } } }, servers: { api: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${API_KEY}' } } } },
  { name: 'a url from ${VAR:-default}, unset', json: { mcpServers: { api: { type: 'http', url: '${API_BASE_URL:-https://api.example.com}/mcp' } } }, servers: { api: { transport: 'http', url: 'https://api.example.com/mcp' } } },
  { name: 'a url from ${VAR:-default}, set', json: { mcpServers: { api: { type: 'http', url: '${API_BASE_URL:-https://api.example.com}/mcp' } } }, env: { API_BASE_URL: 'http://127.0.0.1:9' }, servers: { api: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } } },
  { name: 'a url from ${VAR:-default}, set empty: the default', json: { mcpServers: { api: { type: 'http', url: '${API_BASE_URL:-https://api.example.com}/mcp' } } }, env: { API_BASE_URL: '' }, servers: { api: { transport: 'http', url: 'https://api.example.com/mcp' } } },
  { name: 'a command from ${VAR}', json: { mcpServers: { t: { command: '${TOOLS}/server' } } }, env: { TOOLS: '/opt/t' }, servers: { t: { transport: 'stdio', command: '/opt/t/server' } } },
  { name: 'a url needing an unset variable: skipped, named', json: { mcpServers: { api: { type: 'http', url: '${API_BASE_URL}/mcp' } } }, servers: {}, notices: [/mcpServers\.api is not started: url needs \$\{API_BASE_URL\}, which is not set/] },
  { name: 'a command needing an unset variable', json: { mcpServers: { t: { command: '${TOOLS}/server' } } }, servers: {}, notices: [/command needs \$\{TOOLS\}/] },
  { name: 'sse: skipped, said', json: { mcpServers: { asana: { type: 'sse', url: 'https://mcp.asana.com/sse' } } }, servers: {}, notices: [/mcpServers\.asana is not started: it uses the SSE transport, .*"type": "http"/] },
  { name: 'an unknown type', json: { mcpServers: { w: { type: 'ws', url: 'wss://x' } } }, servers: {}, notices: [/"type": "ws" is not one core-agent knows/] },
  { name: 'a url with credentials: the schema refuses it', json: { mcpServers: { api: { type: 'http', url: 'https://u:p@example.com/mcp' } } }, servers: {}, notices: [/mcpServers\.api is not started: url: no user:password@/] },
  { name: 'http with no url', json: { mcpServers: { api: { type: 'http' } } }, servers: {}, notices: [/url: an http server needs url/] },
  { name: 'stdio with no command', json: { mcpServers: { x: { args: ['a'] } } }, servers: {}, notices: [/command: a stdio server needs command/] },
  { name: 'Claude Code\'s own keys: ignored, named', json: { mcpServers: { api: { type: 'http', url: 'https://x.example/mcp', oauth: { clientId: 'c' }, headersHelper: './h.sh' } } }, servers: { api: { transport: 'http', url: 'https://x.example/mcp' } }, notices: [/mcpServers\.api: oauth, headersHelper ignored \(Claude Code's/] },
  { name: 'a name MCP rules cannot hold: skipped', json: { mcpServers: { 'my.server': { command: 'x' } } }, servers: {}, notices: [/my\.server is not started: a server name starts with a letter/] },
  { name: 'one bad server does not cost the others', json: { mcpServers: { bad: { type: 'sse', url: 'https://x/sse' }, good: { command: 'ok' } } }, servers: { good: { transport: 'stdio', command: 'ok' } }, notices: [/bad is not started/] },
  { name: 'no mcpServers: no servers', json: { other: 1 }, servers: {}, notices: [] },
  { name: 'args not a list: an error at its position', json: { mcpServers: { x: { command: 'y', args: 'a b' } } }, error: /\.mcp\.json:1:\d+: .*mcpServers\.x\.args/ },
  { name: 'not JSON: an error at its position', json: '{"mcpServers": {', error: /\.mcp\.json:1:\d+: not JSON/ },
];
