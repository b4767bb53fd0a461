import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Logger } from '../log.ts';
import type { AllowedHostEntry } from '../net/allowed-hosts.ts';
import { ListenerHostPolicy } from '../net/listener-host.ts';
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
  /** Host names it answers to besides its own address and loopback (--allowed-host). */
  allowedHosts?: readonly AllowedHostEntry[];
  logger: Logger;
}

/** Where an operator adds a host name `mcp serve --http` answers to (named in a refusal). */
export const MCP_HOSTS_SETTING = 'mcp serve --allowed-host';

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
  // Token or not: a rebinding page must not reach the tools, and a name the
  // operator did not give is no name this server has.
  const policy = new ListenerHostPolicy({ bind: opts.host, allowed: opts.allowedHosts ?? [], setting: MCP_HOSTS_SETTING });
  const http = createServer((req, res) => {
    void (async () => {
      const admitted = policy.check(req);
      if (!admitted.ok) {
        const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: admitted.error }, id: null });
        return void res.writeHead(admitted.status, { 'content-type': 'application/json' }).end(body);
      }
      // The SDK rebuilds the URL from Host and refuses a spelling it would write otherwise ([0:0::1]).
      req.headers.host = admitted.host;
      const url = admitted.url;
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
        // The SDK's own Host check stays off: the policy above has already judged Host and Origin.
        enableJsonResponse: false,
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
