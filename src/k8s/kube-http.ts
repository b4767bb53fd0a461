// The lean transport: the two requests core-agent makes of a cluster — a GET that answers
// the API's JSON untouched, and a watch stream — over node:http(s), authenticated as the
// kubeconfig says. @kubernetes/client-node's whole package (its generated API, undici,
// proxy agents) costs a watch ~57 MiB of resident memory at rest; its exec-plugin and
// token-file authenticators are small modules, used here as they are. What only the whole
// library serves (proxies, auth providers) still goes to it: see kubeconfig.ts libraryOnly.
import { readFileSync } from 'node:fs';
import http, { STATUS_CODES, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createGunzip } from 'node:zlib';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { FileAuth } from '@kubernetes/client-node/dist/file_auth.js';
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
}

export function connectLean(k: KubeContext, opts: LeanOptions = {}): Connection {
  const { userAgent = 'core-agent', watchIdleMs = WATCH_IDLE_MS, maxWatchLine = MAX_WATCH_LINE } = opts;
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
  const exec = usesExec(user) ? new ExecAuth() : undefined;
  // ExecAuth caches a credential only once its plugin has exited, so the first requests
  // made together (discovery's parallel GETs) would each run the plugin: one at a time,
  // every request after the first finds the cached credential.
  let execTurn: Promise<unknown> = Promise.resolve();
  const fileToken = tokenFile(user) ? new FileAuth() : undefined;

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
        await fileToken.applyAuthentication(user, auth as https.RequestOptions);
      } catch (err) {
        throw new KubeError(`cannot read the service account token: ${oneLine(err)}`, 'unauthorized');
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

/** A certificate or key from its file (read each time: it may be rotated) or its base64 data. */
function fileOrData(file: string | undefined | null, data: string | undefined | null, what: string): Buffer | undefined {
  if (file) {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new KubeError(
        `cannot read the kubeconfig's ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? oneLine(err)}`,
        'unavailable',
      );
    }
  }
  return data ? Buffer.from(data, 'base64') : undefined;
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
