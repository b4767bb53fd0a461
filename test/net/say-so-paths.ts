import { startPeerRegistration } from '../../src/attach/peer-register.ts';
import { PeerRegistry } from '../../src/attach/peers-registry.ts';
import type { McpServerConfig } from '../../src/config/mcp-schema.ts';
import type { Logger } from '../../src/log.ts';
import { McpConnection } from '../../src/mcp/connection.ts';
import { startHub } from '../attach/peer-hub.ts';
import { setup, tempDir } from '../helpers/workspace.ts';
import type { SaySoPath } from './say-so.cases.ts';
import type { World } from './say-so-servers.ts';

/**
 * How each path of the say-so matrix is made to aim at a destination `D`
 * (`http://host:port`), through the real component: the MCP connection with
 * the SDK's OAuth, the hub's HTTP route, call_peer and alert and web_search
 * through the dispatcher, the hub registration client. Each returns what
 * core-agent said — errors and log lines — for the runner to search.
 */
export const SECRETS = {
  clientSecret: 'planted-client-secret-4e1b7a',
  mcpKey: 'planted-mcp-key-9c2d55',
  peerToken: 'planted-peer-token-0f3a91',
  fleetToken: 'planted-fleet-token-77b0e2',
  alertToken: 'planted-alert-token-c4d821',
  alertPath: 'planted-webhook-path-19e6ab',
  searchKey: 'planted-search-key-5a7f30',
} as const;

/** Every form a secret may travel in: as is, and base64 (a Basic header carries `id:secret`). */
export function secretForms(): string[] {
  const forms: string[] = [];
  for (const s of Object.values(SECRETS)) forms.push(s, Buffer.from(s).toString('base64'));
  forms.push(Buffer.from(`ops-robot:${SECRETS.clientSecret}`).toString('base64'));
  return forms;
}

export interface Said {
  /** Errors and log lines, joined. */
  text: string;
  /** The hub's answer (hub-registration). */
  status?: number;
}

export interface PathSpec {
  /** The operator named D itself: loopback and private are allowed, metadata never. */
  operator: boolean;
  /** Whether a name can be resolved through the test seam outside the namespace. */
  resolverSeam: boolean;
  /** The setting a refusal of a private address must name (say-so paths). */
  setting?: string;
  /** Secrets that may reach D when D is reached on purpose (and the origin, for the MCP server's own). */
  run(world: World, d: string): Promise<Said>;
}

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (obj: Record<string, unknown> | string, msg?: string) =>
    lines.push(typeof obj === 'string' ? obj : `${msg ?? ''} ${JSON.stringify(obj)}`);
  return { logger: { fatal: log, error: log, warn: log, info: log, debug: log, trace: log }, lines };
}

/** An MCP server connection from start to close: what it threw and logged. */
async function connectMcp(world: World, config: McpServerConfig): Promise<Said> {
  const { logger, lines } = capture();
  const connection = new McpConnection({
    name: 'secure',
    config: { startup_timeout_seconds: 10, ...config },
    workspace: await tempDir(),
    env: { CLIENT_SECRET: SECRETS.clientSecret, MCP_KEY: SECRETS.mcpKey },
    stateDir: await tempDir(),
    logger,
    interactive: false,
    resolve: world.resolve,
    onTools: () => {},
  });
  try {
    await connection.start();
  } catch (err) {
    lines.push((err as Error).message);
  } finally {
    await connection.close();
  }
  return { text: lines.join('\n') };
}

const MCP_SETTING = 'mcp.servers.secure.oauth.private_hosts';
const credentials: McpServerConfig['oauth'] = {
  grant: 'client_credentials',
  client_id: 'ops-robot',
  client_secret_env: 'CLIENT_SECRET',
  private_hosts: ['auth.test'],
};
const oauthServer = (world: World, oauth: McpServerConfig['oauth']): McpServerConfig => ({
  url: `${world.origin}/mcp`,
  headers: { 'X-Api-Key': '${MCP_KEY}' },
  oauth,
});

async function dispatch(rt: Awaited<ReturnType<typeof setup>>, tool: string, args: unknown): Promise<Said> {
  const r = await rt.dispatcher.call(tool, args);
  return { text: r.ok ? JSON.stringify(r.result) : r.error };
}

export const PATHS: Record<SaySoPath, PathSpec> = {
  'oauth-resource-metadata': {
    operator: false,
    resolverSeam: true,
    setting: MCP_SETTING,
    run(world, d) {
      world.scenario.resourceMetadata = `${d}/.well-known/oauth-protected-resource/mcp`;
      return connectMcp(world, oauthServer(world, credentials));
    },
  },
  'oauth-server-metadata': {
    operator: false,
    resolverSeam: true,
    setting: MCP_SETTING,
    run(world, d) {
      world.scenario.authorizationServer = d;
      return connectMcp(world, oauthServer(world, credentials));
    },
  },
  'oauth-token': {
    operator: false,
    resolverSeam: true,
    setting: MCP_SETTING,
    run(world, d) {
      world.scenario.tokenEndpoint = `${d}/token`;
      return connectMcp(world, oauthServer(world, credentials));
    },
  },
  'oauth-registration': {
    operator: false,
    resolverSeam: true,
    setting: MCP_SETTING,
    run(world, d) {
      world.scenario.registrationEndpoint = `${d}/register`;
      return connectMcp(world, oauthServer(world, { private_hosts: ['auth.test'] }));
    },
  },
  'hub-registration': {
    operator: false,
    resolverSeam: true,
    setting: 'peers.private_hosts',
    async run(_world, d) {
      const hub = await startHub(PeerRegistry.open({ privateHosts: ['auth.test'] }));
      const res = await fetch(`${hub.url}/peers`, {
        method: 'POST',
        headers: { Authorization: 'Bearer alice', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'p-1', endpoint: d }),
      });
      return { text: await res.text(), status: res.status };
    },
  },
  'call-peer': {
    operator: false,
    resolverSeam: true,
    setting: 'peers.private_hosts',
    async run(world, d) {
      const rt = await setup({
        flags: { mode: 'yolo' },
        env: { PEER_TOKEN: SECRETS.peerToken },
        resolver: world.resolve,
        services: { peerRoster: { peers: () => [{ name: 'p-1', endpoint: d }] } },
        recipe: [
          'peers: { hub: true, token_env: PEER_TOKEN, private_hosts: [auth.test] }',
          'tools: { call_peer: { enabled: true, timeout_seconds: 10 } }',
        ].join('\n'),
      });
      return dispatch(rt, 'call_peer', { peer: 'p-1', prompt: 'how many nodes are Ready?' });
    },
  },
  'mcp-endpoint': {
    operator: true,
    resolverSeam: true,
    run(world, d) {
      return connectMcp(world, { url: `${d}/mcp`, headers: { 'X-Api-Key': '${MCP_KEY}' } });
    },
  },
  'register-with-hub': {
    operator: true,
    resolverSeam: false,
    async run(_world, d) {
      const { logger, lines } = capture();
      const registration = startPeerRegistration({
        config: { hub_url: d, name: 'w-1', endpoint: 'http://auth.test:1' },
        token: SECRETS.fleetToken,
        logger,
        intervalMs: 600_000,
        requestTimeoutMs: 10_000,
      });
      await registration.firstAttempt;
      await registration.close();
      return { text: lines.join('\n') };
    },
  },
  alert: {
    operator: true,
    resolverSeam: false,
    async run(_world, d) {
      const rt = await setup({
        flags: { mode: 'yolo' },
        env: { HOOK_URL: `${d}/hooks/${SECRETS.alertPath}`, HOOK_TOKEN: SECRETS.alertToken },
        recipe: 'alerts:\n  targets:\n    oncall: { url_env: HOOK_URL, token_env: HOOK_TOKEN }\n',
      });
      return dispatch(rt, 'alert', { target: 'oncall', level: 'critical', summary: 'api is down' });
    },
  },
  'web-search': {
    operator: true,
    resolverSeam: false,
    async run(_world, d) {
      const rt = await setup({
        flags: { mode: 'yolo' },
        env: { SEARCH_KEY: SECRETS.searchKey },
        recipe: `web_search: { provider: searxng, url: "${d}/", api_key_env: SEARCH_KEY }\n`,
      });
      return dispatch(rt, 'web_search', { query: 'kubernetes crashloop' });
    },
  },
};
