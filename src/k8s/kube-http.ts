// The lean transport: the two requests core-agent makes of a cluster — a GET that answers
// the API's JSON untouched, and a watch stream — over node:http(s), authenticated as the
// kubeconfig says. @kubernetes/client-node's whole package (its generated API, undici,
// proxy agents) costs a watch ~57 MiB of resident memory at rest; its exec-plugin
// authenticator is a small module, used here with its plugins run bounded; token, certificate
// and key files are read through the bounded reader (util/bounded-read.ts). What only the whole
// library serves (proxies, auth providers) still goes to it: see kubeconfig.ts libraryOnly.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import http, { STATUS_CODES, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createGunzip } from 'node:zlib';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { BoundedReadError, decodeText, formatBytes, readBoundedSync, type FileKind } from '../util/bounded-read.ts';
import type { Connection } from './connection.ts';
import { KubeError } from './kube-error.ts';
import { tokenFile, usesExec, type KubeContext } from './kubeconfig.ts';

/** The API server sends a bookmark about once a minute; a watch silent for longer than this is dead. */
export const WATCH_IDLE_MS = 150_000;
/** One watch event (one line) larger than this ends the stream rather than the process. */
export const MAX_WATCH_LINE = 64 * 1024 * 1024;
/** How much of a failed answer's body is read for its Status. */
const MAX_ERROR_BODY = 64 * 1024;

/** A non-2xx answer: what Kube.explain reads (`code`, and the Status or text as `body`). */
export class ApiStatusError extends Error {
  override readonly name = 'ApiStatusError';
  constructor(
    readonly code: number,
    readonly body: unknown,
  ) {
    super(`the Kubernetes API answered ${code}`);
  }
}

interface RequestAuth {
  headers: Record<string, string>;
  ca?: Buffer | undefined;
  cert?: Buffer | string | undefined;
  key?: Buffer | string | undefined;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface LeanOptions {
  userAgent?: string;
  /** WATCH_IDLE_MS unless a test says otherwise. */
  watchIdleMs?: number;
  /** MAX_WATCH_LINE unless a test says otherwise. */
  maxWatchLine?: number;
  /** EXEC_TIMEOUT_MS unless a test says otherwise. */
  execTimeoutMs?: number;
}

export function connectLean(k: KubeContext, opts: LeanOptions = {}): Connection {
  const { userAgent = 'core-agent', watchIdleMs = WATCH_IDLE_MS, maxWatchLine = MAX_WATCH_LINE, execTimeoutMs = EXEC_TIMEOUT_MS } = opts;
  const { cluster, user } = k;
  const secure = cluster.server.startsWith('https:');
  if (!secure && !cluster.server.startsWith('http:')) {
    throw new Error(
      `the cluster "${cluster.name}" has the server ${JSON.stringify(cluster.server.slice(0, 200))}, which is not an http(s) URL`,
    );
  }
  if (!secure && !cluster.skipTLSVerify) {
    // The library's rule too: plain HTTP only where the kubeconfig says TLS is not wanted.
    throw new Error(`the cluster "${cluster.name}" is served over plain http; set insecure-skip-tls-verify: true on it to allow that`);
  }
  const agent = secure
    ? new https.Agent({ keepAlive: true, keepAliveMsecs: 30_000 })
    : new http.Agent({ keepAlive: true, keepAliveMsecs: 30_000 });
  const exec = usesExec(user) ? boundedExecAuth(execTimeoutMs) : undefined;
  // ExecAuth caches a credential only once its plugin has exited, so the first requests
  // made together (discovery's parallel GETs) would each run the plugin: one at a time,
  // every request after the first finds the cached credential.
  let execTurn: Promise<unknown> = Promise.resolve();
  const tokenPath = tokenFile(user);
  const fileToken = tokenPath ? new TokenFile(tokenPath) : undefined;

  /** What every request carries, computed per request as the library does: exec credentials expire, token files rotate. */
  async function authenticate(): Promise<RequestAuth> {
    const auth: RequestAuth = { headers: { 'User-Agent': userAgent } };
    if (cluster.skipTLSVerify) auth.rejectUnauthorized = false;
    if (cluster.tlsServerName) auth.servername = cluster.tlsServerName;
    auth.ca = fileOrData(cluster.caFile, cluster.caData, 'certificate-authority');
    auth.cert = fileOrData(user.certFile, user.certData, 'client-certificate');
    auth.key = fileOrData(user.keyFile, user.keyData, 'client-key');
    if (user.impersonateUser) auth.headers['Impersonate-User'] = user.impersonateUser;
    if (exec) {
      try {
        const mine = execTurn.then(() => exec.applyAuthentication(user, auth as https.RequestOptions));
        execTurn = mine.catch(() => undefined);
        await mine;
      } catch (err) {
        const command = String(
          (user.exec ?? (user.authProvider as { config?: { exec?: { command?: unknown } } }).config?.exec)?.command ?? 'exec',
        );
        throw new KubeError(
          `the kubeconfig's exec plugin ${JSON.stringify(command.slice(0, 200))} failed: ${oneLine(err)}`,
          'unauthorized',
        );
      }
    } else if (fileToken) {
      try {
        const token = fileToken.current();
        if (token) auth.headers.Authorization = `Bearer ${token}`;
      } catch (err) {
        throw new KubeError(oneLine(err), 'unauthorized');
      }
    }
    if (user.token) auth.headers.Authorization = `Bearer ${user.token}`;
    if (user.username) auth.headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`;
    return auth;
  }

  async function request(
    apiPath: string,
    query: Record<string, string | number | boolean | undefined>,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ) {
    const url = new URL(cluster.server + apiPath);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    const { headers: authHeaders, ...tls } = await authenticate();
    signal?.throwIfAborted();
    return new Promise<IncomingMessage>((resolve, reject) => {
      const options = { method: 'GET', agent, headers: { ...authHeaders, ...headers }, signal, ...tls };
      const req = secure ? https.request(url, options, resolve) : http.request(url, options, resolve);
      req.once('error', reject);
      req.end();
    });
  }

  return {
    context: k.context,
    server: cluster.server,
    namespace: k.namespace,
    transport: 'lean',

    async raw(apiPath, query, as, signal) {
      const res = await request(
        apiPath,
        query,
        { Accept: as === 'json' ? 'application/json' : 'text/plain, */*', 'Accept-Encoding': 'gzip' },
        signal,
      );
      const status = res.statusCode ?? 0;
      const ok = status >= 200 && status <= 299;
      const text = await readBody(res, ok ? Infinity : MAX_ERROR_BODY);
      if (!ok) throw new ApiStatusError(status, parseOr(text));
      if (as === 'text') return text;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new KubeError(`the Kubernetes API answered ${status} for ${apiPath} with a body that is not JSON`, 'api_error', status);
      }
    },

    async watch(apiPath, query, onEvent, onDone) {
      const controller = new AbortController();
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (err: unknown) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        controller.abort();
        onDone(err);
      };
      const idle = () => {
        clearTimeout(timer);
        timer = setTimeout(() => finish(new Error(`the watch sent nothing for ${watchIdleMs / 1000} s`)), watchIdleMs);
        timer.unref();
      };
      idle();
      let res: IncomingMessage;
      try {
        res = await request(apiPath, { ...query, watch: 'true' }, { Accept: 'application/json' }, controller.signal);
      } catch (err) {
        finish(err);
        return controller;
      }
      if (res.statusCode !== 200) {
        const status = res.statusCode ?? 0;
        const body = parseOr(await readBody(res, MAX_ERROR_BODY).catch(() => ''));
        const message =
          body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string'
            ? (body as { message: string }).message
            : (STATUS_CODES[status] ?? `HTTP ${status}`);
        finish(Object.assign(new Error(message), { statusCode: status }));
        return controller;
      }
      idle();
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk: string) => {
        idle();
        pending += chunk;
        let nl: number;
        while ((nl = pending.indexOf('\n')) !== -1) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() === '') continue;
          let event: { type?: unknown; object?: unknown };
          try {
            event = JSON.parse(line) as typeof event;
          } catch {
            continue; // as the library does: a line that is not JSON is not an event
          }
          if (typeof event.type === 'string' && event.object && typeof event.object === 'object')
            onEvent(event.type, event.object as Record<string, unknown>);
          if (finished) return;
        }
        if (pending.length > maxWatchLine) finish(new Error(`a watch event exceeded ${maxWatchLine} bytes`));
      });
      res.once('end', () => finish(null));
      res.once('error', (err) => finish(err));
      res.once('close', () => finish(null));
      return controller;
    },
  };
}

/**
 * 1 MiB: a certificate, key or CA bundle — five times Debian's whole CA bundle (about 210 KiB),
 * the largest a kubeconfig is likely to name. Read at every request (it may be rotated).
 */
const PEM_FILE: FileKind = { noun: 'a certificate or key file', maxBytes: 1024 * 1024, hint: 'give a PEM file' };
/** 64 KiB: a projected service-account token is about 1 KiB, an OIDC one a few. */
const TOKEN_FILE: FileKind = { noun: 'a token file', maxBytes: 64 * 1024, hint: 'give a file holding the token' };

/** A certificate or key from its file (read each time: it may be rotated) or its base64 data. */
function fileOrData(file: string | undefined | null, data: string | undefined | null, what: string): Buffer | undefined {
  if (file) {
    try {
      return readBoundedSync(file, PEM_FILE);
    } catch (err) {
      throw new KubeError(unreadable(err, `the kubeconfig's ${what}`, file), 'unavailable');
    }
  }
  return data ? Buffer.from(data, 'base64') : undefined;
}

/** "cannot read <what> FILE: ENOENT" for a file that is not there, else the bounded reader's sentence, after <what>. */
function unreadable(err: unknown, what: string, file: string): string {
  if (err instanceof BoundedReadError && !err.code) return `${what} ${err.message}`;
  return `cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? oneLine(err)}`;
}

/**
 * A token file (the pod's service account, or a tokenFile auth provider), re-read once a minute
 * as it rotates — what client-go and the library's FileAuth do — but bounded.
 */
class TokenFile {
  private token: string | undefined;
  private readAt = 0;
  constructor(private readonly file: string) {}
  current(): string {
    if (this.token === undefined || Date.now() - this.readAt > 60_000) {
      try {
        this.token = decodeText(readBoundedSync(this.file, TOKEN_FILE), this.file, TOKEN_FILE).trim();
      } catch (err) {
        throw new Error(unreadable(err, 'the token file', this.file));
      }
      this.readAt = Date.now();
    }
    return this.token;
  }
}

/**
 * An ExecCredential is a few KiB of JSON; the library reads a plugin's stdout and stderr whole
 * and waits for it without end. Past these the plugin is killed and the request fails saying
 * why. Its stdin is /dev/null: nobody is there to answer a prompt (kubectl gives a plugin a
 * terminal only in interactive mode, which a headless agent is not).
 */
const MAX_EXEC_STDOUT = 1024 * 1024;
const MAX_EXEC_STDERR = 64 * 1024;
/** gcloud, aws and kubelogin with a cached login answer in seconds; a login that waits for a browser never would. */
export const EXEC_TIMEOUT_MS = 120_000;

/** The library's exec-plugin authenticator (its cache and ExecCredential handling), its plugins run bounded. */
function boundedExecAuth(timeoutMs: number): ExecAuth {
  const auth = new ExecAuth();
  (auth as unknown as { execFn: ExecFn }).execFn = (command, args, opts) => boundedSpawn(command, args, opts, timeoutMs);
  return auth;
}

type ExecFn = (command: string, args: readonly string[] | undefined, opts: SpawnOptions) => ChildProcess;

function boundedSpawn(command: string, args: readonly string[] | undefined, opts: SpawnOptions, timeoutMs: number): ChildProcess {
  // A process group of its own: a plugin that is a shell script leaves its children holding the
  // pipes, and the whole group goes when it is stopped.
  const child = spawn(command, args ?? [], { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stopped = false;
  // An 'error' before 'close' is what the library rejects with.
  const stop = (why: string) => {
    if (stopped) return;
    stopped = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL'); // gone already, or no group
    }
    // Nothing more reaches the library's buffers, whoever still holds the pipes.
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.emit('error', new Error(why));
  };
  const cap = (stream: NodeJS.ReadableStream | null, max: number, where: string) => {
    let seen = 0;
    // The library sets an encoding: chunks may be strings (UTF-16 length is a lower bound, enough for a cap).
    stream?.on('data', (chunk: Buffer | string) => {
      seen += chunk.length;
      if (seen > max) stop(`it wrote more than ${formatBytes(max)} to ${where}; an ExecCredential is a few KiB`);
    });
  };
  cap(child.stdout, MAX_EXEC_STDOUT, 'stdout');
  cap(child.stderr, MAX_EXEC_STDERR, 'stderr');
  const timer = setTimeout(() => stop(`it did not finish within ${timeoutMs / 1000} s`), timeoutMs);
  timer.unref();
  child.once('close', () => clearTimeout(timer));
  return child;
}

/** The body as text, gunzipped if the API compressed it; past `limit` bytes the rest is dropped. */
function readBody(res: IncomingMessage, limit: number): Promise<string> {
  const stream = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    stream.on('data', (b: Buffer) => {
      if (size >= limit) return;
      parts.push(b);
      size += b.length;
    });
    stream.once('end', () =>
      resolve(
        Buffer.concat(parts)
          .subarray(0, limit === Infinity ? undefined : limit)
          .toString('utf8'),
      ),
    );
    stream.once('error', reject);
    if (stream !== res) res.once('error', reject);
  });
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .trim()
    .split('\n')[0]!
    .slice(0, 500);
}
