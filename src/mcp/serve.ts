import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Logger } from '../log.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import type { Dispatcher } from '../tools/framework/dispatch.ts';
import { kindTraits } from '../tools/framework/kinds.ts';
import { loadSdk, type Sdk } from './sdk.ts';
import { ServeLog } from './serve-log.ts';

/**
 * core-agent's catalog as an MCP server. Every call goes through the
 * dispatcher — argument validation, path_scope, the permission gate (headless:
 * whatever would need a person's approval is refused), the deadline, the output
 * caps — so serving adds no way round any of them.
 */
export function catalogServer(sdk: Sdk, catalog: Catalog, dispatcher: Dispatcher, log = new ServeLog()): Server {
  const server = new sdk.Server(
    { name: 'core-agent', version: __CORE_AGENT_VERSION__ },
    { capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  // Replaces the SDK's own handler, which keeps the level per session: the HTTP server has none (serve-log.ts).
  server.setRequestHandler(sdk.SetLevelRequestSchema, (req) => {
    log.setLevel(req.params.level);
    return {};
  });
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: catalog.list().map((t) => ({
      name: t.modelName,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      annotations: {
        readOnlyHint: kindTraits(t.kind).readOnly,
        destructiveHint: kindTraits(t.kind).destructive,
        openWorldHint: kindTraits(t.kind).openWorld,
      },
    })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const args = req.params.arguments ?? {};
    const send = extra.sendNotification;
    const started = Date.now();
    await log.callStarted(send, req.params.name, args);
    // Recorded as an mcp serve call (when a store is wired); a failure's kind stays in the record, the client gets isError.
    const outcome = await dispatcher.call(req.params.name, args, extra.signal, { source: 'mcp_serve' });
    if (!outcome.ok) {
      await log.callFailed(send, req.params.name, outcome.kind, outcome.error);
      return { isError: true, content: [{ type: 'text', text: outcome.error }] };
    }
    await log.callDone(send, req.params.name, Date.now() - started);
    return { content: [{ type: 'text', text: JSON.stringify(outcome.result) }], structuredContent: outcome.result };
  });
  return server;
}

export async function serveStdio(catalog: Catalog, dispatcher: Dispatcher): Promise<void> {
  const sdk = await loadSdk();
  const server = catalogServer(sdk, catalog, dispatcher, new ServeLog());
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  catalog.onChange(() => void server.sendToolListChanged().catch(() => {}));
  await server.connect(new sdk.StdioServerTransport());
  // The client closing stdin ends the session.
  process.stdin.once('end', () => void server.close());
  await closed;
}

export interface HttpServeOptions {
  host: string;
  port: number;
  /** Required from every client as `Authorization: Bearer <token>` when set. */
  token?: string | undefined;
  logger: Logger;
}

/**
 * Stateless Streamable HTTP at /mcp on plain node:http: each POST gets a fresh
 * server and transport over the same catalog and dispatcher (one session's
 * gate, plans and todo list, shared by every client of this process).
 */
export async function serveHttp(catalog: Catalog, dispatcher: Dispatcher, opts: HttpServeOptions): Promise<HttpServer> {
  const sdk = await loadSdk();
  // Loaded here: node:http and node:crypto would cost every other command's start-up.
  const { createServer } = await import('node:http');
  const { timingSafeEqual } = await import('node:crypto');
  const authorized = (req: IncomingMessage, token: string): boolean => {
    const given = Buffer.from(req.headers.authorization ?? '');
    const wanted = Buffer.from(`Bearer ${token}`);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  };
  const log = new ServeLog();
  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/mcp')
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the endpoint is /mcp\n');
      if (opts.token !== undefined && !authorized(req, opts.token)) {
        return void res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
      }
      if (req.method !== 'POST') {
        return void res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('stateless server: POST only\n');
      }
      const server = catalogServer(sdk, catalog, dispatcher, log);
      const transport = new sdk.StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        // Answers as an SSE stream (which every MCP client accepts), so a call's log notifications travel with it.
        enableJsonResponse: false,
        // Without a token, only the loopback names this server listens on: a web page whose
        // domain is rebound to 127.0.0.1 sends its own Host and is refused (DNS rebinding).
        ...(opts.token === undefined ? { enableDnsRebindingProtection: true, allowedHosts: loopbackHosts(http) } : {}),
      });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })().catch((err: unknown) => {
      opts.logger.error({ error: (err as Error).message }, 'MCP request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host, () => resolve());
  });
  return http;
}

function loopbackHosts(http: HttpServer): string[] {
  const addr = http.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}
