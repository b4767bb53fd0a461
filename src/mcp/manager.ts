import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import picomatch from 'picomatch';
import type { McpServerConfig } from '../config/mcp-schema.ts';
import { silentLogger, type Logger } from '../log.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import type { SecretValues } from '../util/secret-values.ts';
import type { Catalog } from '../tools/framework/catalog.ts';
import { McpConnection } from './connection.ts';
import type { ProcessGuard } from './stdio-transport.ts';
import { mcpToolDefinition } from './mcp-tool.ts';
import { canonicalName, modelFacingName } from './names.ts';

export interface McpManagerOptions {
  servers: Readonly<Record<string, McpServerConfig>>;
  catalog: Catalog;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** core-agent's state directory (OAuth tokens), from the composition root. */
  stateDir?: string | undefined;
  logger?: Logger;
  /** Run-wide filter on canonical names (--allow-tool / --deny-tool). */
  keep?: (canonical: string) => boolean;
  /** The DNS resolver behind the address policy of HTTP servers' requests (default: the system's); a test seam. */
  resolve?: Resolver | undefined;
  /** Where tokens a server's OAuth or Google credentials obtain are registered, to be masked wherever they surface. */
  secrets?: SecretValues | undefined;
  /** How stdio servers are started so that the model's commands cannot read their /proc files; none: as given. */
  processGuard?: ProcessGuard | undefined;
}

/**
 * The run's MCP servers as a tool source: each server's tools go into the
 * catalog under `mcp.<server>.<tool>` (the model sees a sanitised name), and are
 * replaced whenever the server's list changes or it restarts.
 */
export class McpManager {
  private readonly connections: McpConnection[] = [];
  private readonly log: Logger;

  constructor(private readonly opts: McpManagerOptions) {
    this.log = opts.logger ?? silentLogger;
    for (const [name, config] of Object.entries(opts.servers)) {
      if (config.disabled) continue;
      const connection: McpConnection = new McpConnection({
        name,
        config,
        workspace: opts.workspace,
        env: opts.env,
        stateDir: opts.stateDir,
        logger: this.log,
        resolve: opts.resolve,
        secrets: opts.secrets,
        processGuard: opts.processGuard,
        onTools: (tools) => this.register(name, config, tools, connection),
      });
      this.connections.push(connection);
    }
  }

  /**
   * Start every server at once and wait for each to connect or fail. A server
   * that fails does not stop the run: it is reported, retried with backoff, and
   * its tools appear when it comes up.
   */
  async start(): Promise<Array<{ server: string; error: string }>> {
    const results = await Promise.allSettled(this.connections.map((c) => c.start()));
    const failed: Array<{ server: string; error: string }> = [];
    for (const [i, r] of results.entries()) {
      if (r.status === 'rejected') failed.push({ server: this.connections[i]!.name, error: (r.reason as Error).message });
    }
    // A required server's failure is the caller's start-up error (runtime/mcp-step.ts), said once there.
    for (const f of failed)
      if (this.opts.servers[f.server]?.required !== true) this.log.warn(f, 'MCP server did not start; its tools are missing until it does');
    return failed;
  }

  status(): Array<{ server: string; status: string }> {
    return this.connections.map((c) => ({ server: c.name, status: c.status }));
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private register(server: string, config: McpServerConfig, tools: Tool[], connection: McpConnection): void {
    const allow = config.tools?.allow ? picomatch(config.tools.allow) : null;
    const deny = config.tools?.deny ? picomatch(config.tools.deny) : null;
    const kept = tools.filter(
      (t) => (allow === null || allow(t.name)) && !(deny?.(t.name) ?? false) && (this.opts.keep?.(canonicalName(server, t.name)) ?? true),
    );
    const defs = kept.map((t) => mcpToolDefinition(server, config, t, connection));
    const prefix = `mcp.${server}.`;
    this.opts.catalog.setSource(`mcp:${server}`, defs, (def, taken) => modelFacingName(server, def.name.slice(prefix.length), taken));
    this.log.info({ mcp_server: server, tools: kept.length, of: tools.length }, 'MCP tools registered');
  }
}
