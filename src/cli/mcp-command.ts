import { buildSystem } from '../runtime/system.ts';
import { flagSettings, parse } from './common-options.ts';
import { MCP, MCP_LIST, MCP_LOGIN, MCP_LOGOUT, MCP_SERVE } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';
import { stateDir } from '../runtime/state-dir.ts';

/** mcp's --help: its subcommands, from the tree (command-table.ts MCP). */
export const mcpHelp = (): string => commandHelp(MCP);

export const mcpServeHelp = (): string =>
  commandHelp(MCP_SERVE, {
    about: `Serves core-agent's catalog over MCP, so another agent can use its gated,
capped tools: over stdio (the client starts this command), or with --http over
Streamable HTTP. Every call takes the path a model's call takes: argument
validation, path_scope, the permission gate, the deadline and the output caps.
There is nobody to ask, so in ask mode a call that changes state is refused
unless permissions.allow (or --mode / --yolo) allows it; deny rules always win.
Tools are annotated readOnlyHint / destructiveHint / openWorldHint. Clients
may set a log level (logging/setLevel; default warning): each call's start
(info: argument names and size, never values), end (debug) and failure
(warning) arrive as notifications/message.`,
  });

export async function mcpCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${mcpHelp()}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub === 'list' || sub === 'login' || sub === 'logout') return mcpAuthCommand(sub, rest, io);
  if (sub !== 'serve') throw new UsageError(`unknown command "mcp ${sub}"`, 'mcp');
  const { values, positionals } = parse(rest, MCP_SERVE);
  if (values.help) {
    io.out(`${mcpServeHelp()}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'mcp serve');
  const listen = values.http === undefined ? undefined : hostPort(values.http);
  const tokenEnv = values['token-env'];
  const token = tokenEnv === undefined ? undefined : io.env[tokenEnv];
  if (tokenEnv !== undefined && !token) throw new UsageError(`--token-env: ${tokenEnv} is not set`, 'mcp serve');
  if (tokenEnv !== undefined && !listen) throw new UsageError('--token-env is for --http', 'mcp serve');
  if (values['allowed-host'] !== undefined && !listen) throw new UsageError('--allowed-host is for --http', 'mcp serve');
  const allowedHosts = listen ? await httpHosts(listen.host, values['allowed-host'] ?? [], token !== undefined) : [];

  const sys = await buildSystem({
    until: 'dispatcher',
    flags: { ...flagSettings(values), sessionDb: values['session-db'] },
    env: io.env,
    command: 'mcp serve',
    logLevel: 'warn',
    say: (text) => io.err(text),
    stateDir: true,
    recordAs: listen ? `mcp serve --http ${values.http}` : 'mcp serve',
    fresh: values['fresh-session-db'] === true,
  });
  const { runtime: rt, logger } = sys;
  const { serveHttp, serveStdio } = await import('../mcp/serve.ts');
  try {
    if (!listen) {
      await serveStdio(rt.catalog, rt.dispatcher);
      return EXIT.ok;
    }
    const http = await serveHttp(rt.catalog, rt.dispatcher, { ...listen, token, allowedHosts, logger });
    const addr = http.address();
    const port = typeof addr === 'object' && addr ? addr.port : listen.port;
    const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    io.out(`core-agent MCP server on http://${shown}:${port}/mcp\n`);
    await new Promise<void>((resolve) => {
      for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => http.close(() => resolve()));
    });
    return EXIT.ok;
  } finally {
    await sys.close();
  }
}

/** The --allowed-host entries, checked with the address: off loopback (or with "*") a token is required. */
async function httpHosts(host: string, given: readonly string[], hasToken: boolean) {
  const { anyHostProblem, parseAllowedHosts } = await import('../net/allowed-hosts.ts');
  const { isLoopbackBind } = await import('../net/listener-host.ts');
  let allowed;
  try {
    allowed = parseAllowedHosts(given);
  } catch (err) {
    throw new UsageError(`--allowed-host ${(err as Error).message}`, 'mcp serve');
  }
  const anyHost = anyHostProblem(allowed, hasToken, '--allowed-host');
  if (anyHost) throw new UsageError(anyHost, 'mcp serve');
  if (!hasToken && !isLoopbackBind(host)) {
    throw new UsageError(`serving on ${host} (not loopback) needs --token-env: anyone who can reach it could call the tools`, 'mcp serve');
  }
  return allowed;
}

function hostPort(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new UsageError(`--http: expected HOST:PORT (e.g. 127.0.0.1:8765), not "${text}"`, 'mcp serve');
  return { host: m[1] ?? m[2]!, port };
}

/**
 * mcp list / login / logout: the declared servers (recipe and, trusted,
 * .agents/mcp.json), without starting the run's MCP step. Tokens never show: the
 * auth column says only whether a login is stored.
 */
async function mcpAuthCommand(sub: 'list' | 'login' | 'logout', argv: string[], io: Io): Promise<number> {
  const node = { list: MCP_LIST, login: MCP_LOGIN, logout: MCP_LOGOUT }[sub];
  const { values, positionals } = parse(argv, node);
  if (values.help) {
    io.out(`${commandHelp(node)}\n`);
    return EXIT.ok;
  }
  const wantsServer = sub !== 'list';
  if (wantsServer && positionals.length !== 1) throw new UsageError(`mcp ${sub} takes one SERVER name`, `mcp ${sub}`);
  if (!wantsServer && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'mcp list');
  const sys = await buildSystem({
    until: 'dispatcher',
    flags: flagSettings(values),
    env: io.env,
    command: `mcp ${sub}`,
    logLevel: 'warn',
    say: (text) => io.err(text),
    startMcp: false,
  });
  const rt = sys.runtime;
  await sys.close();
  const { loadMcpConfig } = await import('../mcp/load-config.ts');
  const admin = await import('../mcp/oauth-admin.ts');
  const servers = (await loadMcpConfig(rt.workspace, rt.recipe.mcp, rt.settings.trustWorkspace === true, io.env)).servers ?? {};
  const state = stateDir(io.env);
  const opts = { workspace: rt.workspace, env: io.env, stateDir: state, say: (text: string) => io.err(text) };

  if (sub === 'list') {
    const rows = [['SERVER', 'TRANSPORT', 'AUTH', 'TOOLS']];
    for (const [name, cfg] of Object.entries(servers)) {
      const auth = await admin.authState(name, cfg, state);
      // Never a browser here: a server that needs a login says so in the TOOLS column.
      const r = cfg.disabled ? { error: 'disabled' } : await admin.probe(name, cfg, { ...opts, interactive: false });
      const tools = 'tools' in r ? String(r.tools) : `- (${r.error.slice(0, 120)})`;
      rows.push([name, cfg.url ? 'http' : 'stdio', auth, tools]);
    }
    if (rows.length === 1) {
      io.out('no MCP servers declared (recipe mcp.servers or .agents/mcp.json)\n');
      return EXIT.ok;
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    io.out(`${rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ')).join('\n')}\n`);
    return EXIT.ok;
  }

  const name = positionals[0]!;
  const cfg = servers[name];
  if (!cfg) {
    const known = Object.keys(servers).join(', ') || 'none';
    throw new UsageError(`no MCP server "${name.slice(0, 40)}" is declared (declared: ${known})`, `mcp ${sub}`);
  }
  if (!cfg.url || !cfg.oauth) throw new UsageError(`server "${name}" has no oauth: block (mcp.servers.${name}.oauth)`, `mcp ${sub}`);
  if (sub === 'logout') {
    const removed = await admin.logout(name, cfg, state);
    io.out(removed ? `logged out of ${name}\n` : `${name} had no stored login\n`);
    return EXIT.ok;
  }
  const r = await admin.login(name, cfg, opts);
  if ('error' in r) {
    io.err(`core-agent: login to ${name} failed: ${r.error}\n`);
    return EXIT.failure;
  }
  io.out(`logged in to ${name} (${r.tools} tools)\n`);
  return EXIT.ok;
}
