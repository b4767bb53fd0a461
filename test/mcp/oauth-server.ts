// An OAuth-protected MCP server for the tests, on 127.0.0.1, built from the SDK's
// server-side auth helpers: mcpAuthRouter (metadata, registration, authorize,
// token) over the SDK's demo in-memory provider, requireBearerAuth in front of a
// Streamable HTTP endpoint with one tool. The demo provider's token endpoint has
// no client-credentials grant (the SDK's server does not implement one), so a
// small handler ahead of it issues tokens for one pre-registered confidential client.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';

// express (the SDK's auth router is built on it) ships no types: the little used here, typed by hand.
type Req = IncomingMessage & { body?: Record<string, unknown>; auth?: unknown };
type Res = ServerResponse & { status(code: number): Res; json(body: unknown): void };
type Handler = (req: Req, res: Res, next: () => void) => unknown;
interface App {
  use(h: unknown): void;
  post(path: string, ...h: Handler[]): void;
  listen(port: number, host: string, cb: () => void): Server;
}
const express = createRequire(import.meta.url)('express') as (() => App) & {
  json(): Handler;
  urlencoded(o: { extended: boolean }): Handler;
};

export const CC_CLIENT = { id: 'ops-robot', secret: 'cc-secret-7d1f0b' };

export interface OAuthMcpServer {
  url: string;
  /** Every access token issued, so a test can look for it where it must not be. */
  issued: string[];
  /** Calls of the tool that arrived with a valid token. */
  calls: number;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(): Promise<OAuthMcpServer> {
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const provider = new DemoInMemoryAuthProvider();
  const state: OAuthMcpServer = {
    url: mcpUrl.href,
    issued: [],
    calls: 0,
    close: () => new Promise((r) => server.close(() => r())),
  };
  // The demo provider keeps its tokens in a map: record each one it issues.
  const tokens = (provider as unknown as { tokens: Map<string, { token: string }> }).tokens;
  const set = tokens.set.bind(tokens);
  tokens.set = (k, v) => {
    state.issued.push(k);
    return set(k, v);
  };

  app.post('/token', express.urlencoded({ extended: false }), (req, res, next) => {
    if (req.body?.grant_type !== 'client_credentials') return next();
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    // client_secret_basic or client_secret_post, whichever the client picked from the metadata.
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
      : [req.body?.client_id as string, req.body?.client_secret as string];
    if (id !== CC_CLIENT.id || secret !== CC_CLIENT.secret) return void res.status(401).json({ error: 'invalid_client' });
    const token = randomUUID();
    tokens.set(token, { token, clientId: id, scopes: ['mcp:tools'], expiresAt: Date.now() + 3_600_000, type: 'access' } as never);
    res.json({ access_token: token, token_type: 'bearer', expires_in: 3600, scope: 'mcp:tools' });
  });
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));

  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const mcp = new McpServer({ name: 'oauth-test', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says who the token belongs to.', annotations: { readOnlyHint: true } }, (extra) => {
      state.calls += 1;
      return { content: [{ type: 'text', text: `hello, client ${extra.authInfo?.clientId ?? '?'}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req as never, res, req.body);
  });
  return state;
}
