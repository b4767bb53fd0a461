import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import { ENV_REFERENCE, type McpServerConfig } from '../config/mcp-schema.ts';
import { silentLogger, withFields, type Logger } from '../log.ts';
import { ToolError } from '../core/tool-error.ts';
import { capErrorText } from '../util/error-text.ts';
import type { Resolver } from '../net/guarded-fetch.ts';
import { outboundFetch, type FetchLike } from '../net/outbound-fetch.ts';
import { failureText } from '../net/undici.ts';
import { describeSchemaIssues, isSchemaError } from './error-text.ts';
import { loadSdk } from './sdk.ts';
import { StderrTail } from './stderr-tail.ts';
import type { BoundedStdioTransport, ProcessGuard, TooLargeData } from './stdio-transport.ts';
import type { Asker } from '../tools/framework/services.ts';
import { answerElicitation } from './elicitation.ts';
import { CoreAgentOAuthProvider } from './oauth-provider.ts';
import { shareStream } from '../util/fd-output.ts';
import { routeMetadataWarnings } from './google-warnings.ts';
import type { SecretValues } from '../util/secret-values.ts';

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** Restart delays after the first (immediate) attempt; the last repeats. */
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A server up this long has recovered: its next failure restarts it at once again. */
const STABLE_MS = 30_000;
/** A call waits for a restart due within this long rather than failing at once. */
const WAIT_FOR_RESTART_MS = 2_500;
/** The most of one answer (one event, on a stream) read from a Streamable HTTP server: the stdio transport's cap. */
const HTTP_ANSWER_CAP = 10 * 1024 * 1024;
/** The most of one OAuth discovery, registration or token response read (real ones are a few KiB). */
const OAUTH_ANSWER_CAP = 1024 * 1024;
/** The variables a stdio server gets from core-agent's environment; anything else must be declared. */
const BASE_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'TMPDIR'];

/** The server is down or went away: a model-visible refusal like any tool error. */
export class McpUnavailableError extends ToolError {}

export interface ConnectionOptions {
  name: string;
  config: McpServerConfig;
  /** Where a stdio server starts when it declares no cwd. */
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** core-agent's state directory (OAuth tokens live under it), from the composition root. */
  stateDir?: string | undefined;
  logger?: Logger;
  /** Called with the server's tool list after every (re)connect and tools/list_changed. */
  onTools: (tools: Tool[]) => void;
  /** How stdio servers are started so that the model's commands cannot read their /proc files (runtime/exec-only-launch.ts); none: as given. */
  processGuard?: ProcessGuard | undefined;
  /** OAuth: whether a browser login may start (default: a terminal or $BROWSER; `mcp login` forces it). */
  interactive?: boolean;
  /** Where a login's URL is shown (default stderr). */
  say?: ((text: string) => void) | undefined;
  /** `mcp login`: a person asked for a login now, whatever earlier ones ended in. */
  freshLogin?: boolean | undefined;
  /** The DNS resolver behind the address policy (default: the system's); a test seam. */
  resolve?: Resolver | undefined;
  /** Tokens obtained at run time (OAuth, Google) are registered here, to be masked wherever they surface. */
  secrets?: SecretValues | undefined;
}

/** An OAuth error response in words: the SDK's errors carry the code apart from a message that may be empty. */
function oauthErrorText(err: unknown): string | undefined {
  const code = (err as { errorCode?: unknown } | null)?.errorCode;
  if (typeof code !== 'string') return undefined;
  const message = (err as Error).message;
  return `the authorization server answered ${code}${message ? `: ${message}` : ''}`;
}

/** Logins (and step-ups) one connect or call goes through before it gives up. */
const MAX_LOGINS = 2;

type State =
  | { kind: 'idle' }
  | { kind: 'connecting'; ready: Promise<void> }
  | { kind: 'up'; client: Client }
  | { kind: 'down'; error: string; retryAt: number; timer: NodeJS.Timeout }
  | { kind: 'closed' };

/**
 * One MCP server: connects (spawning a stdio server or opening a Streamable HTTP
 * session), lists its tools, follows tools/list_changed, and restarts it with
 * backoff when it exits or stops answering. A call on a server that is down
 * fails at once with the reason; the session goes on.
 */
export class McpConnection {
  private state: State = { kind: 'idle' };
  /** Restarts since the server last stayed up for STABLE_MS; picks the backoff delay. */
  private failures = 0;
  private attempts = 0;
  private upSince: number | undefined;
  private readonly log: Logger;
  /** The last lines a stdio server wrote to stderr, for error messages (bounded: see StderrTail). */
  private stderrTail = new StderrTail();
  /** The calls in flight, each with the asker of its run: a server's elicitation goes to one of them. */
  private readonly inFlight = new Set<{ asker: Asker | undefined }>();
  /** OAuth servers: the provider (store, redirect listener), one for the connection's life. */
  private oauth: CoreAgentOAuthProvider | undefined;
  /** Each client's HTTP transport: a step-up finishes its login on it. */
  private readonly httpTransports = new WeakMap<Client, { finishAuth(code: string): Promise<void> }>();
  /** An HTTP server's requests, under the address policy (made once: see httpFetch). */
  private fetchFn: FetchLike | undefined;

  constructor(private readonly opts: ConnectionOptions) {
    this.log = withFields(opts.logger ?? silentLogger, { mcp_server: opts.name });
  }

  get name(): string {
    return this.opts.name;
  }

  get status(): string {
    const s = this.state;
    return s.kind === 'down' ? `down: ${s.error}` : s.kind;
  }

  /** Connect now; rejects with the reason when the first attempt fails (a retry is already scheduled). */
  start(): Promise<void> {
    if (this.state.kind === 'up') return Promise.resolve();
    if (this.state.kind === 'connecting') return this.state.ready;
    return this.connect();
  }

  /**
   * One tools/call. When the connection drops under it (the server exited), a
   * read-only call is sent once more to the restarted server — repeating it
   * changes nothing — and any other call fails, since it may have run.
   */
  async call(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    opts: { readOnly: boolean; asker?: Asker | undefined },
  ): Promise<CallToolResult> {
    const entry = { asker: opts.asker };
    this.inFlight.add(entry);
    try {
      return await this.callOnce(tool, args, signal, opts);
    } finally {
      this.inFlight.delete(entry);
    }
  }

  private async callOnce(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    opts: { readOnly: boolean },
  ): Promise<CallToolResult> {
    const timeout = (this.opts.config.call_timeout_seconds ?? DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000;
    let logins = 0;
    for (let attempt = 1; ; attempt++) {
      // The common case, without an extra await: the server is up.
      const client = this.state.kind === 'up' ? this.state.client : await this.ready();
      try {
        const result = (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout })) as CallToolResult;
        if (logins > 0) this.oauth?.accepted();
        return result;
      } catch (err) {
        // insufficient_scope: the SDK asked for a login with the wider scope; finish it and send the call again.
        if (logins < MAX_LOGINS && (await this.finishLogin(client, err))) {
          logins += 1;
          attempt -= 1;
          continue;
        }
        const message = (err as Error).message ?? String(err);
        const dropped = /connection closed/i.test(message) || !(this.state.kind === 'up' && this.state.client === client);
        if (!dropped) {
          // Timed out: a server that no longer answers a ping is hung, and is restarted.
          if (/timed out|timeout/i.test(message)) void this.checkAlive(client);
          throw this.callError(tool, err);
        }
        if (this.state.kind === 'up' && this.state.client === client) this.onClosed(client);
        if (!opts.readOnly || attempt > 1 || signal.aborted) {
          throw new McpUnavailableError(
            `server "${this.name}" went away during the call (${capErrorText(failureText(err), 2_000)}); it is being restarted`,
          );
        }
        this.log.info({ tool }, 'retrying a read-only call on the restarted server');
      }
    }
  }

  /**
   * What the model reads when a call fails without the connection dropping, bounded
   * at the source: a JSON-RPC error's message can be any size, and so can zod's dump
   * of a result that does not follow the MCP schema.
   */
  private callError(tool: string, err: unknown): unknown {
    const data = (err as { data?: Partial<TooLargeData> } | null)?.data;
    if (typeof data?.core_agent_too_large === 'number') {
      const size = `the 10 MiB the MCP stdio transport accepts (${(data.core_agent_too_large / 1024 / 1024).toFixed(1)} MiB)`;
      const others = (data.in_flight ?? 1) - 1;
      const what =
        others > 0
          ? `server "${this.name}" sent an answer larger than ${size} while "${tool}" and ${others} other call(s) were waiting; its id was unreadable, so each of them failed`
          : `the result of "${tool}" on server "${this.name}" was larger than ${size}`;
      return new ToolError(`${what}; ask for less (a filter, a namespace, a limit), if the tool takes one. The server is still running.`);
    }
    if (isSchemaError(err)) {
      return new ToolError(
        `server "${this.name}" returned a result for "${tool}" that does not follow the MCP schema (${describeSchemaIssues(err.issues)})`,
      );
    }
    // The server's own error (JSON-RPC), or the SDK's (a timeout, an output-schema mismatch).
    // The dispatcher bounds every error the model sees (tools/error-text.ts).
    if ((err as Error | null)?.name === 'McpError') return new ToolError((err as Error).message);
    return err;
  }

  async close(): Promise<void> {
    const s = this.state;
    this.state = { kind: 'closed' };
    if (s.kind === 'down') clearTimeout(s.timer);
    if (s.kind === 'up') await s.client.close().catch(() => {});
    this.oauth?.close();
  }

  /**
   * After a request failed with UnauthorizedError because the SDK's auth() sent
   * the user to the browser: wait for the loopback redirect's code and exchange
   * it on the same transport. False when no login was started (the error stands).
   */
  private async finishLogin(client: Client, err: unknown): Promise<boolean> {
    if (!this.oauth) return false;
    const sdk = await loadSdk();
    if (!(err instanceof sdk.UnauthorizedError)) return false;
    const transport = this.httpTransports.get(client);
    const code = await this.oauth.takeAuthorizationCode();
    if (!transport || code === undefined) return false;
    await transport.finishAuth(code);
    this.log.info('OAuth login completed');
    return true;
  }

  /** The client, reconnecting first if the server went away. */
  private async ready(): Promise<Client> {
    const s = this.state;
    if (s.kind === 'up') return s.client;
    if (s.kind === 'closed') throw new McpUnavailableError(`server "${this.name}" is shut down`);
    if (s.kind === 'down') {
      const due = s.retryAt - Date.now();
      if (due > WAIT_FOR_RESTART_MS) {
        throw new McpUnavailableError(`server "${this.name}" is down (${s.error}); next restart attempt in ${Math.ceil(due / 1000)} s`);
      }
      // Due soon: wait for it (the timer's connect) rather than fail a call it would serve.
      await new Promise((r) => setTimeout(r, Math.max(0, due) + 20));
      return this.ready();
    }
    await (s.kind === 'connecting' ? s.ready : this.connect());
    const now = this.state;
    if (now.kind !== 'up') throw new McpUnavailableError(`server "${this.name}" is not available (${this.status})`);
    return now.client;
  }

  private connect(): Promise<void> {
    // Only the newest attempt may install its client; an older one that finishes late closes its own.
    const attempt = ++this.attempts;
    const ready = this.connectOnce().then(
      (client) => {
        if (this.state.kind === 'closed' || attempt !== this.attempts) {
          void client.close();
          return;
        }
        this.upSince = Date.now();
        this.state = { kind: 'up', client };
      },
      (err: unknown) => {
        const message = (err as Error).message ?? String(err);
        if (this.state.kind !== 'closed' && attempt === this.attempts) this.scheduleRetry(message);
        throw new McpUnavailableError(`server "${this.name}" did not start: ${message}`);
      },
    );
    this.state = { kind: 'connecting', ready: ready.catch(() => {}) };
    return ready;
  }

  /**
   * After the server went away: at once the first time, with backoff when it keeps
   * dying soon after starting (a crash loop must not become a respawn loop).
   */
  private restart(why: string): void {
    const stayedUp = this.upSince !== undefined && Date.now() - this.upSince >= STABLE_MS;
    if (stayedUp) this.failures = 0;
    if (this.failures === 0) {
      this.failures = 1;
      void this.connect().catch(() => {});
    } else {
      this.scheduleRetry(why);
    }
  }

  private scheduleRetry(error: string): void {
    const delay = BACKOFF_MS[Math.min(Math.max(this.failures - 1, 0), BACKOFF_MS.length - 1)]!;
    this.failures += 1;
    this.log.warn({ error, retry_in_ms: delay }, 'MCP server unavailable; will retry');
    const timer = setTimeout(() => void this.connect().catch(() => {}), delay);
    timer.unref();
    this.state = { kind: 'down', error, retryAt: Date.now() + delay, timer };
  }

  /** OAuth keeps its tokens under the state directory the root passes down; a server with oauth: and none is a setup error. */
  private stateDirForOAuth(): string {
    if (this.opts.stateDir === undefined)
      throw new Error(`MCP server "${this.name}": OAuth needs a state directory for its tokens, and none was given`);
    return this.opts.stateDir;
  }

  private async connectOnce(): Promise<Client> {
    const sdk = await loadSdk();
    if (this.opts.config.url && this.opts.config.oauth) {
      this.oauth ??= new CoreAgentOAuthProvider({
        server: this.name,
        url: this.opts.config.url,
        config: this.opts.config.oauth,
        env: this.opts.env,
        stateDir: this.stateDirForOAuth(),
        sdk,
        interactive: this.opts.interactive ?? (Boolean(this.opts.env.BROWSER) || (process.stdin.isTTY && process.stderr.isTTY)),
        say:
          this.opts.say ??
          ((text) => {
            shareStream(2);
            process.stderr.write(text);
          }),
        freshLogin: this.opts.freshLogin === true,
        fetch: this.httpFetch(),
        secrets: this.opts.secrets,
      });
      await this.oauth.prepare();
    }
    // The first request of a connect may need a login: the code comes back, and the connect is made again.
    for (let logins = 0; ; logins++) {
      try {
        return await this.connectClient(sdk);
      } catch (err) {
        const pending = (err as { pendingLogin?: () => Promise<boolean> }).pendingLogin;
        if (logins >= MAX_LOGINS || !pending || !(await pending())) throw (err as { cause?: unknown }).cause ?? err;
      }
    }
  }

  private async connectClient(sdk: Awaited<ReturnType<typeof loadSdk>>): Promise<Client> {
    const cfg = this.opts.config;
    // Form elicitation is declared always, and declined when no one can answer (elicitation.ts):
    // undeclared, a server's SDK refuses to send it, so the server could never learn why.
    const client = new sdk.Client(
      { name: 'core-agent', version: __CORE_AGENT_VERSION__ },
      { capabilities: { elicitation: { form: { applyDefaults: true } } } },
    );
    sdk.handleElicitation(client, (params, extra) => {
      // Every call of a run shares its asker; prefer one that can show a form.
      const call = [...this.inFlight].findLast((c) => c.asker?.elicit) ?? [...this.inFlight].at(-1);
      return answerElicitation(this.name, params, call, extra.signal, this.log);
    });
    const transport = await this.transport(sdk);
    if (transport instanceof sdk.StreamableHTTPClientTransport) this.httpTransports.set(client, transport);
    const timeout = (cfg.startup_timeout_seconds ?? DEFAULT_STARTUP_TIMEOUT_MS / 1000) * 1000;
    const signal = AbortSignal.timeout(timeout);
    try {
      await client.connect(transport, { timeout, signal });
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
        void this.refreshTools(client).catch((err: unknown) => this.log.warn({ error: (err as Error).message }, 'tools/list failed'));
      });
      await this.refreshTools(client, signal);
    } catch (err) {
      if (this.oauth && err instanceof sdk.UnauthorizedError) {
        // Closed only after the login is finished on it (finishLogin uses its transport).
        const login = async () => {
          try {
            return await this.finishLogin(client, err);
          } finally {
            await client.close().catch(() => {});
          }
        };
        throw Object.assign(new Error('OAuth login pending'), { pendingLogin: login, cause: err });
      }
      await client.close().catch(() => {});
      // A TLS or DNS failure reaching an HTTP server, in words (not OpenSSL's).
      const why = capErrorText(oauthErrorText(err) ?? failureText(err), 2_000);
      throw new Error(this.lastWords() ? `${why} — stderr: ${this.lastWords()}` : why);
    }
    client.onclose = () => this.onClosed(client);
    this.oauth?.accepted();
    this.log.info('MCP server connected');
    if (transport instanceof sdk.BoundedStdioTransport) this.checkGuard(transport);
    return client;
  }

  /**
   * A stdio server whose env: is readable by the model's commands through /proc/PID/environ is
   * said once per start, with why: its program could not be copied execute-only, or a process
   * of its tree ran a readable file after the copy (a shell wrapper's child, uvx's Python).
   */
  private checkGuard(transport: BoundedStdioTransport): void {
    const guard = this.opts.processGuard;
    const launched = transport.launched;
    // exec_only: false is the recipe's choice, said in its own words.
    if (!guard || !launched || this.opts.config.exec_only === false || Object.keys(this.opts.config.env ?? {}).length === 0) return;
    const why = (reason: string) =>
      this.log.warn(
        { reason },
        "the MCP server's env: values are readable by commands the model runs, through /proc/PID/environ (docs/shell.md)",
      );
    if (!launched.guard.exec_only) return why(launched.guard.reason);
    const pid = transport.pid;
    const open = pid === null ? [] : guard.dumpableIn(pid);
    if (open.length > 0)
      why(
        `started from an execute-only copy, its process ${open[0]!.pid} (${open[0]!.command}) then ran a readable file${open.length > 1 ? ` (and ${open.length - 1} more)` : ''}`,
      );
  }

  private async refreshTools(client: Client, signal?: AbortSignal): Promise<void> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, signal ? { signal } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.opts.onTools(tools);
  }

  private onClosed(client: Client): void {
    if (this.state.kind !== 'up' || this.state.client !== client) return;
    const why = this.lastWords() || 'connection closed';
    this.log.warn({ reason: why }, 'MCP server went away; restarting');
    this.restart(why);
  }

  private async checkAlive(client: Client): Promise<void> {
    try {
      await client.ping({ timeout: 5_000 });
    } catch {
      if (this.state.kind !== 'up' || this.state.client !== client) return;
      this.log.warn('MCP server does not answer a ping after a timed-out call; restarting it');
      // The replacement starts first, so a call arriving meanwhile waits for it rather than racing it.
      this.restart('did not answer a ping');
      await client.close().catch(() => {});
    }
  }

  private async transport(sdk: Awaited<ReturnType<typeof loadSdk>>): Promise<Transport> {
    const cfg = this.opts.config;
    if (cfg.url) {
      const headers = this.httpHeaders();
      const fetch = this.httpFetch();
      if (this.oauth)
        return new sdk.StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers }, authProvider: this.oauth, fetch });
      if (!cfg.google_auth) return new sdk.StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers }, fetch });
      // Google access tokens last an hour and a session (or `watch`) may last days: every
      // request asks the library for its current token, which it caches and refreshes.
      routeMetadataWarnings(this.log);
      const auth = new sdk.GoogleAuth({ scopes: cfg.google_auth.scopes });
      const token = async () => {
        const t = await auth.getAccessToken().catch((err: unknown) => {
          throw new Error(`Google credentials: ${(err as Error).message.split('\n')[0]}`);
        });
        if (!t) throw new Error('Google credentials produced no access token');
        this.opts.secrets?.add(t);
        return t;
      };
      await token(); // fail at start, with the reason, rather than on the first call
      return new sdk.StreamableHTTPClientTransport(new URL(cfg.url), {
        requestInit: { headers },
        fetch: async (url, init) => {
          const h = new Headers(init?.headers);
          h.set('Authorization', `Bearer ${await token()}`);
          return fetch(url, { ...init, headers: h });
        },
      });
    }
    const env: Record<string, string> = {};
    for (const k of BASE_ENV) if (this.opts.env[k] !== undefined) env[k] = this.opts.env[k]!;
    for (const [k, v] of Object.entries(cfg.env ?? {})) env[k] = this.expand(v, `env.${k}`);
    // Ours, not the SDK's: one message over 10 MiB fails its call instead of closing the connection.
    const transport = new sdk.BoundedStdioTransport({
      command: cfg.command!,
      args: (cfg.args ?? []).map((a, i) => this.expand(a, `args[${i}]`)),
      env,
      cwd: cfg.cwd ?? this.opts.workspace,
      launch: cfg.exec_only === false ? undefined : this.opts.processGuard?.launch,
    });
    this.stderrTail = new StderrTail();
    this.collectStderr(transport.stderr);
    return transport;
  }

  /**
   * Every request of an HTTP server — the MCP endpoint's, and OAuth's discovery,
   * registration and token calls, which go where the server's documents point —
   * takes the address policy (net/outbound-fetch.ts): the server URL's own host
   * and the hosts in oauth.private_hosts may be loopback or private, metadata
   * never, and anything else must be public. Bodies are capped: the endpoint's
   * answers as the stdio transport's, OAuth's at 1 MiB. The server's configured
   * `headers:` go to the server's origin only, never to an authorization server
   * it names (the SDK would add them to every request).
   */
  private httpFetch(): FetchLike {
    if (this.fetchFn) return this.fetchFn;
    const cfg = this.opts.config;
    const server = new URL(cfg.url!);
    const policy = {
      namedHosts: [server.hostname, ...(cfg.oauth?.private_hosts ?? [])],
      setting: `mcp.servers.${this.name}.oauth.private_hosts`,
      resolve: this.opts.resolve,
      // The SDK swallows some failures (a refused protected-resource document sends it to its fallback): the log still says why.
      onRefusal: (err: Error) =>
        this.log.warn({ error: err.message }, 'an HTTP request of this server was refused or cut by the address policy'),
    };
    const endpoint = outboundFetch({ ...policy, what: `answers from MCP server "${this.name}"`, maxBodyBytes: HTTP_ANSWER_CAP });
    const oauth = outboundFetch({ ...policy, what: 'OAuth discovery, registration and token responses', maxBodyBytes: OAUTH_ANSWER_CAP });
    const configured = Object.keys(cfg.headers ?? {});
    this.fetchFn = (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input.href);
      if (url.origin === server.origin && url.pathname === server.pathname) return endpoint(url, init);
      if (url.origin === server.origin || configured.length === 0) return oauth(url, init);
      const headers = new Headers(init?.headers);
      for (const name of configured) headers.delete(name);
      return oauth(url, { ...init, headers });
    };
    return this.fetchFn;
  }

  private httpHeaders(): Record<string, string> {
    const cfg = this.opts.config;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(cfg.headers ?? {})) headers[k] = this.expand(v, `headers.${k}`);
    if (cfg.bearer_token_env) {
      const token = this.opts.env[cfg.bearer_token_env];
      if (!token) throw new Error(`bearer_token_env: ${cfg.bearer_token_env} is not set`);
      headers.Authorization = `Bearer ${token}`;
    }
    return headers;
  }

  /** `${NAME}` / `${env:NAME}` from core-agent's environment; an unset name is an error, never "" — unless `${NAME:-default}` gives one. */
  private expand(value: string, where: string): string {
    return value.replace(ENV_REFERENCE, (_m, name: string, fallback: string | undefined) => {
      const v = this.opts.env[name];
      if (fallback !== undefined && (v === undefined || v === '')) return fallback;
      if (v === undefined) throw new Error(`${where}: \${${name}} is not set`);
      return v;
    });
  }

  private collectStderr(stream: Readable): void {
    const tail = this.stderrTail;
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      for (const line of tail.push(chunk)) this.log.debug({ stderr: line }, 'MCP server stderr');
    });
  }

  private lastWords(): string {
    return this.stderrTail.last();
  }
}
