import { existsSync } from 'node:fs';
import path from 'node:path';
import k8sChunk from 'virtual:k8s-chunk';
import { loadEmbeddedModule } from '../startup/embedded.ts';
import { joinUnder } from '../startup/join-path.ts';
import type { JsonObject, JsonValue } from '../core/json.ts';
import type { ClusterSource, Connection } from './connection.ts';
import { KubeError, kubeErrorKind } from './kube-error.ts';

type Client = typeof import('./client-entry.ts');
let client: Promise<Client> | undefined;
const loadClient = () => (client ??= loadEmbeddedModule<Client>(k8sChunk, 'k8s.cjs'));

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const USER_AGENT = `core-agent/${typeof __CORE_AGENT_VERSION__ === 'string' ? __CORE_AGENT_VERSION__ : '0.0.0-dev'}`;

export interface KubeSettings {
  kubeconfig?: string | undefined;
  context?: string | undefined;
  denied_resources?: ReadonlyArray<{ group?: string | undefined; kind: string }> | undefined;
}

/** One API resource from discovery. */
export interface ApiResource {
  name: string;
  kind: string;
  group: string;
  version: string;
  namespaced: boolean;
  shortNames: string[];
  singular: string;
  verbs: string[];
}

/**
 * Where the cluster is: `kubernetes.kubeconfig`, else $KUBECONFIG (its first file),
 * else ~/.kube/config, else the pod's service account. Without any, the
 * Kubernetes tools are not registered, and this says why. `home` is the home
 * directory the composition root was given (env.HOME unless it says otherwise):
 * nothing below the root asks the operating system for it.
 */
export function findCluster(
  env: Readonly<Record<string, string | undefined>>,
  settings: KubeSettings = {},
  home: string | undefined = env.HOME,
): ClusterSource | { unavailable: string } {
  const explicit = settings.kubeconfig ?? env.KUBECONFIG?.split(path.delimiter).find((p) => p.length > 0);
  if (explicit) return existsSync(explicit) ? { kubeconfig: explicit } : { unavailable: `the kubeconfig ${explicit} does not exist` };
  const inHome = home ? joinUnder(home, '.kube/config') : undefined;
  if (inHome && existsSync(inHome)) return { kubeconfig: inHome };
  if (env.KUBERNETES_SERVICE_HOST && existsSync(SERVICE_ACCOUNT_TOKEN)) {
    return { inCluster: true, host: env.KUBERNETES_SERVICE_HOST, port: env.KUBERNETES_SERVICE_PORT || '443' };
  }
  return {
    unavailable:
      'no cluster is configured: no kubeconfig (kubernetes.kubeconfig in the recipe, $KUBECONFIG, ~/.kube/config) and not running in a cluster',
  };
}

/**
 * The session's view of one cluster: a connection made on first use, discovery
 * cached, the denied kinds (Secrets always), and the shaping every result gets.
 */
export class Kube {
  private connection: Promise<Connection> | undefined;
  private discovered: Promise<ApiResource[]> | undefined;
  private readonly denied: ReadonlyArray<{ group: string | undefined; kind: string }>;

  constructor(
    private readonly source: ClusterSource,
    private readonly settings: KubeSettings = {},
  ) {
    this.denied = [{ group: '', kind: 'Secret' }, ...(settings.denied_resources ?? []).map((d) => ({ group: d.group, kind: d.kind }))];
  }

  async defaultNamespace(): Promise<string> {
    return (await this.conn()).namespace;
  }

  /** GET an API path; API errors become KubeErrors whose messages the model can read (403s say RBAC). */
  async get(apiPath: string, query: Record<string, string | undefined>, as: 'json', signal?: AbortSignal): Promise<JsonObject>;
  async get(apiPath: string, query: Record<string, string | undefined>, as: 'text', signal?: AbortSignal): Promise<string>;
  async get(apiPath: string, query: Record<string, string | undefined>, as: 'json' | 'text', signal?: AbortSignal): Promise<unknown> {
    const conn = await this.conn();
    try {
      return await conn.raw(apiPath, query, as, signal);
    } catch (err) {
      throw this.explain(err, conn.server);
    }
  }

  /**
   * Follow a collection's changes from `resourceVersion` until the server ends the
   * stream (resolves), it fails (rejects; a 410 "too old" rejects with WatchGone,
   * meaning list again), or `signal` aborts (resolves). BOOKMARKs are passed on:
   * they carry the newest resourceVersion.
   */
  async watch(
    apiPath: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (type: string, object: JsonObject) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const conn = await this.conn();
    await new Promise<void>((resolve, reject) => {
      let gone = false;
      let failure: Error | undefined;
      let stream: AbortController | undefined;
      const stop = () => stream?.abort();
      signal.addEventListener('abort', stop, { once: true });
      const done = (err: unknown) => {
        signal.removeEventListener('abort', stop);
        if (gone) reject(new WatchGone());
        else if (failure) reject(failure);
        else if (err && !signal.aborted) {
          const status = (err as { statusCode?: number }).statusCode;
          reject(
            status === 410 ? new WatchGone() : this.explain(status ? { code: status, body: (err as Error).message } : err, conn.server),
          );
        } else resolve();
      };
      const onLine = (type: string, obj: Record<string, unknown>) => {
        if (type === 'ERROR') {
          // The API reports an expired resourceVersion as an ERROR event holding a Status.
          if (obj.code === 410) gone = true;
          else
            failure = new KubeError(`the Kubernetes API ended the watch: ${String(obj.message ?? obj.reason ?? 'an error')}`, 'api_error');
          stream?.abort();
          return;
        }
        onEvent(type, obj as JsonObject);
      };
      conn.watch(apiPath, query, onLine, done).then(
        (c) => {
          stream = c;
          if (signal.aborted) c.abort();
        },
        (err: unknown) => done(err),
      );
    });
  }

  /** Every resource the API serves (the preferred version of each group), cached for the session. */
  discovery(signal?: AbortSignal): Promise<ApiResource[]> {
    this.discovered ??= this.discover(signal).catch((err: unknown) => {
      this.discovered = undefined;
      throw err;
    });
    return this.discovered;
  }

  /**
   * A kind as a person would write it — `Pod`, `pods`, `po`, `deploy`,
   * `deployments.apps`, `HorizontalPodAutoscaler` — to its resource. Refuses a
   * denied kind before any request for it is made (unless only its name is
   * needed, as for the events about it).
   */
  async resolve(kind: string, apiVersion?: string, signal?: AbortSignal, opts: { allowDenied?: boolean } = {}): Promise<ApiResource> {
    const all = await this.discovery(signal);
    const [base, groupHint] = splitGroup(kind);
    const wanted = base.toLowerCase();
    const version = apiVersion ? parseApiVersion(apiVersion) : undefined;
    const matches = all.filter(
      (r) =>
        (r.kind.toLowerCase() === wanted || r.name === wanted || r.singular === wanted || r.shortNames.includes(wanted)) &&
        (groupHint === undefined || r.group === groupHint || r.group.startsWith(`${groupHint}.`)) &&
        (version === undefined || (r.group === version.group && r.version === version.version)),
    );
    if (matches.length === 0) {
      const near = all
        .filter((r) => r.name.includes(wanted.slice(0, 3)) || r.kind.toLowerCase().includes(wanted.slice(0, 3)))
        .slice(0, 8)
        .map((r) => r.kind);
      throw new KubeError(
        `the cluster serves no resource "${kind}"${apiVersion ? ` in ${apiVersion}` : ''}` +
          `${near.length > 0 ? `; similar kinds: ${[...new Set(near)].join(', ')}` : ''} (k8s_api_resources lists them all)`,
        'not_found',
      );
    }
    // kubectl's order: the core group first, then the built-in groups, then the rest.
    const best = [...matches].sort((a, b) => groupRank(a.group) - groupRank(b.group))[0]!;
    if (!opts.allowDenied && this.isDenied(best.group, best.kind, resourceNames(best))) throw this.deniedError(best.kind);
    return best;
  }

  /** A denied entry may name the kind as kubectl does (configmaps, cm): `names` are the resource's other names. */
  isDenied(group: string, kind: string, names: readonly string[] = []): boolean {
    const all = [kind.toLowerCase(), ...names];
    return this.denied.some((d) => (d.group === undefined || d.group === group) && all.includes(d.kind.toLowerCase()));
  }

  deniedError(kind: string): KubeError {
    return new KubeError(
      `${kind} objects are not readable here: ${kind === 'Secret' ? 'Secrets are always refused' : 'the recipe lists it in kubernetes.denied_resources'}. ` +
        'Work from the objects that reference them (Pods, Deployments) and their events instead.',
      'denied',
    );
  }

  /** The URL path of a resource (a collection, or one object with `name`). */
  resourcePath(r: ApiResource, namespace: string | undefined, name?: string): string {
    const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
    const ns = r.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${root}${ns}/${r.name}${name ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** For the model: no managedFields, no last-applied copy, nothing from a denied kind. */
  shape(obj: JsonValue): JsonValue {
    if (Array.isArray(obj)) return obj.map((o) => this.shape(o));
    if (obj === null || typeof obj !== 'object') return obj;
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'managedFields') continue;
      if (k === 'annotations' && v && typeof v === 'object' && !Array.isArray(v)) {
        const { 'kubectl.kubernetes.io/last-applied-configuration': _dropped, ...rest } = v;
        out[k] = rest;
        continue;
      }
      out[k] = this.shape(v);
    }
    return out;
  }

  /** A list's items without any object of a denied kind (a List can mix kinds). */
  withoutDenied(items: JsonValue[], fallbackKind: string, group: string): { items: JsonValue[]; withheld: number } {
    const kept = items.filter((i) => {
      const kind = i && typeof i === 'object' && !Array.isArray(i) && typeof i.kind === 'string' ? i.kind : fallbackKind;
      const apiVersion = i && typeof i === 'object' && !Array.isArray(i) && typeof i.apiVersion === 'string' ? i.apiVersion : undefined;
      return !this.isDenied(apiVersion ? parseApiVersion(apiVersion).group : group, kind);
    });
    return { items: kept, withheld: items.length - kept.length };
  }

  /**
   * The connection, made on first use and shared by every request (one agent, one exec
   * plugin run): the lean transport unless the kubeconfig needs the whole library. A
   * failed attempt is not kept, so a fixed kubeconfig is read again.
   */
  conn(): Promise<Connection> {
    this.connection ??= this.connect().catch((err: unknown) => {
      this.connection = undefined;
      throw err;
    });
    return this.connection;
  }

  private async connect(): Promise<Connection> {
    const { loadKubeconfig, inClusterContext, libraryOnly } = await import('./kubeconfig.ts');
    const unloadable = (err: unknown) =>
      new KubeError(`cannot load the Kubernetes configuration: ${(err as Error).message}`, 'unavailable');
    let resolved;
    try {
      resolved =
        'kubeconfig' in this.source ? await loadKubeconfig(this.source.kubeconfig, this.settings.context) : inClusterContext(this.source);
    } catch (err) {
      throw unloadable(err);
    }
    const why = libraryOnly(resolved);
    try {
      if (why) return (await loadClient()).connect(this.source, this.settings.context, why, resolved.text);
      return (await import('./kube-http.ts')).connectLean(resolved, { userAgent: USER_AGENT });
    } catch (err) {
      throw unloadable(err);
    }
  }

  private async discover(signal?: AbortSignal): Promise<ApiResource[]> {
    const core = await this.get('/api/v1', {}, 'json', signal);
    const groups = await this.get('/apis', {}, 'json', signal);
    const lists = [{ group: '', version: 'v1', list: core }];
    const preferred = ((groups.groups as JsonObject[] | undefined) ?? []).map(
      (g) => (g.preferredVersion as JsonObject).groupVersion as string,
    );
    const fetched = await Promise.all(
      preferred.map(async (gv) => {
        try {
          const { group, version } = parseApiVersion(gv);
          return { group, version, list: await this.get(`/apis/${gv}`, {}, 'json', signal) };
        } catch {
          return null; // an aggregated API that is down should not hide the rest
        }
      }),
    );
    const out: ApiResource[] = [];
    for (const entry of [...lists, ...fetched]) {
      if (!entry) continue;
      for (const r of (entry.list.resources as JsonObject[] | undefined) ?? []) {
        const name = String(r.name);
        if (name.includes('/')) continue; // subresources (pods/log, deployments/scale)
        out.push({
          name,
          kind: String(r.kind),
          group: entry.group,
          version: entry.version,
          namespaced: r.namespaced === true,
          shortNames: ((r.shortNames as string[] | undefined) ?? []).map((s) => s.toLowerCase()),
          singular: String(r.singularName || String(r.kind).toLowerCase()),
          verbs: (r.verbs as string[] | undefined) ?? [],
        });
      }
    }
    return out;
  }

  private explain(err: unknown, server: string): Error {
    const e = err as { code?: number; body?: unknown; message?: string; cause?: { code?: string; message?: string } };
    if (typeof e.code === 'number') {
      const status = (e.body && typeof e.body === 'object' ? e.body : {}) as { message?: string; reason?: string };
      const message = status.message ?? (typeof e.body === 'string' ? e.body.slice(0, 500) : 'no details');
      const kind = kubeErrorKind(e.code);
      const text =
        kind === 'forbidden'
          ? `forbidden (403, RBAC): ${message}. The identity core-agent runs as may not do this; its role is read-only by design.`
          : kind === 'unauthorized'
            ? `unauthorized (401): the cluster rejected core-agent's credentials: ${message}`
            : kind === 'not_found'
              ? `not found (404): ${message}`
              : `the Kubernetes API answered ${e.code}${status.reason ? ` ${status.reason}` : ''}: ${message}`;
      return new KubeError(text, kind, e.code);
    }
    if (err instanceof KubeError || (err as Error)?.name === 'AbortError') return err as Error;
    const why = e.cause?.message ?? e.message ?? String(err);
    return new KubeError(`cannot reach the Kubernetes API at ${server}: ${why}`, 'unavailable');
  }
}

/** The watch's resourceVersion is older than the API keeps: list again. */
export class WatchGone extends Error {
  override name = 'WatchGone';
  constructor() {
    super('the watch resourceVersion is too old (410 Gone); listing again');
  }
}

/** Every name kubectl accepts for a resource besides its Kind. */
export function resourceNames(r: ApiResource): string[] {
  return [r.name, r.singular, ...r.shortNames];
}

function splitGroup(kind: string): [string, string | undefined] {
  const dot = kind.indexOf('.');
  return dot === -1 ? [kind, undefined] : [kind.slice(0, dot), kind.slice(dot + 1).toLowerCase()];
}

export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function groupRank(group: string): number {
  if (group === '') return 0;
  if (!group.includes('.') || group.endsWith('.k8s.io')) return 1;
  return 2;
}
