// Which cluster, which identity: a kubeconfig file (or the pod's service account) read
// into the one context a session uses. The entries are parsed by @kubernetes/client-node's
// own config_types (a small module of its package, without its HTTP client), so a
// kubeconfig means here what it means to the library; the lean transport (kube-http.ts)
// serves what it can, and `libraryOnly` names what only the whole library can.
import { existsSync, readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import { newClusters, newContexts, newUsers, type Cluster, type User } from '@kubernetes/client-node/dist/config_types.js';
import yamlChunk from 'virtual:yaml-chunk';
import * as z from 'zod/v4';
import { sharedEmbeddedModule } from '../embedded.ts';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The one context a session uses, resolved to its cluster and user. */
export interface KubeContext {
  context: string;
  cluster: Cluster;
  user: User;
  namespace: string;
}

// What core-agent reads of a kubeconfig, typed; everything else in it (extensions,
// preferences, fields of newer clients) is kept and ignored.
const text = z.string();
const named = <T extends z.ZodType>(key: string, inner: T) => z.array(z.looseObject({ name: z.string().min(1), [key]: inner })).nullish();
const KubeconfigSchema = z.looseObject({
  clusters: named(
    'cluster',
    z.looseObject({
      server: z.string().min(1),
      'certificate-authority': text.nullish(),
      'certificate-authority-data': text.nullish(),
      'insecure-skip-tls-verify': z.boolean().nullish(),
      'tls-server-name': text.nullish(),
      'proxy-url': text.nullish(),
    }),
  ),
  users: named(
    'user',
    z
      .looseObject({
        token: text.nullish(),
        'token-file': text.nullish(),
        'client-certificate': text.nullish(),
        'client-certificate-data': text.nullish(),
        'client-key': text.nullish(),
        'client-key-data': text.nullish(),
        username: text.nullish(),
        password: text.nullish(),
        as: text.nullish(),
        exec: z
          .looseObject({
            command: z.string().min(1),
            args: z.array(text).nullish(),
            env: z.array(z.looseObject({ name: text, value: text })).nullish(),
          })
          .nullish(),
        'auth-provider': z.looseObject({ name: text, config: z.record(z.string(), z.unknown()).nullish() }).nullish(),
      })
      .nullish(),
  ),
  contexts: named('context', z.looseObject({ cluster: z.string().min(1), user: text.nullish(), namespace: text.nullish() })),
  'current-context': text.nullish(),
});

/** What this file uses of the yaml chunk (config/yaml-entry.ts). */
interface Yaml {
  parseDocument(source: string): { errors: readonly Error[]; toJS(): unknown };
}

/** A kubeconfig file's context (`context`, else its current-context), with relative certificate paths made absolute to the file. */
export async function loadKubeconfig(file: string, context?: string): Promise<KubeContext> {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the kubeconfig ${file}: ${(err as NodeJS.ErrnoException).code ?? firstLine(err)}`);
  }
  // The same YAML parser as the recipes (one embedded chunk, evaluated once); its default alias limit holds.
  const yaml = await sharedEmbeddedModule<Yaml>(yamlChunk, 'yaml.cjs');
  const doc = yaml.parseDocument(source);
  const bad = doc.errors[0];
  if (bad) throw new Error(`${file} is not valid YAML: ${firstLine(bad)}`);
  let raw: unknown;
  try {
    raw = doc.toJS() ?? {};
  } catch (err) {
    throw new Error(`${file}: ${firstLine(err)}`);
  }
  const checked = KubeconfigSchema.safeParse(raw);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 5).map((i) => `${i.path.length > 0 ? i.path.join('.') : '(the file)'}: ${i.message}`);
    const more = checked.error.issues.length - issues.length;
    throw new Error(`${file} is not a kubeconfig core-agent can use: ${issues.join('; ')}${more > 0 ? `; and ${more} more` : ''}`);
  }
  const obj = checked.data;
  let entries: [ReturnType<typeof newClusters>, ReturnType<typeof newUsers>, ReturnType<typeof newContexts>];
  try {
    entries = [newClusters(obj.clusters), newUsers(obj.users), newContexts(obj.contexts)];
  } catch (err) {
    throw new Error(`${file}: ${firstLine(err)}`); // e.g. "clusters[0].cluster.server is missing"
  }
  const [clusters, users, contexts] = entries;
  const dir = path.dirname(file);
  const absolute = (p: string | undefined) => (p && !path.isAbsolute(p) ? path.join(dir, p) : p);
  for (const c of clusters) c.caFile = absolute(c.caFile);
  for (const u of users) {
    u.certFile = absolute(u.certFile);
    u.keyFile = absolute(u.keyFile);
  }

  const name = context ?? (typeof obj['current-context'] === 'string' ? obj['current-context'] : undefined);
  const names = contexts.map((c) => short(c.name));
  const known =
    names.length > 0 ? ` (its contexts: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})` : ' (it has no contexts)';
  if (!name) throw new Error(`${file} sets no current-context; name one with kubernetes.context${known}`);
  const ctx = contexts.find((c) => c.name === name);
  if (!ctx) throw new Error(`${file} has no context "${short(name)}"${known}`);
  const cluster = clusters.find((c) => c.name === ctx.cluster);
  if (!cluster)
    throw new Error(`${file}: context "${short(name)}" names the cluster "${short(ctx.cluster)}", which is not in its clusters`);
  // A context may name no user (an unauthenticated API); one it names must exist.
  const user = ctx.user ? users.find((u) => u.name === ctx.user) : { name: '' };
  if (!user) throw new Error(`${file}: context "${short(name)}" names the user "${short(ctx.user ?? '')}", which is not in its users`);
  return { context: name, cluster, user, namespace: ctx.namespace || 'default' };
}

/**
 * The pod's own service account, as the library's loadFromCluster reads it: the API
 * at the address the pod's environment gives ($KUBERNETES_SERVICE_HOST and _PORT,
 * read by findCluster), the mounted CA, and the mounted token re-read as it rotates
 * (a tokenFile auth provider).
 */
export function inClusterContext({ host, port }: { host: string; port: string }, dir = SERVICE_ACCOUNT_DIR): KubeContext {
  const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
  const nsFile = path.join(dir, 'namespace');
  return {
    context: 'inClusterContext',
    cluster: {
      name: 'inCluster',
      server: `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`,
      caFile: path.join(dir, 'ca.crt'),
      skipTLSVerify: false,
    },
    user: { name: 'inClusterUser', authProvider: { name: 'tokenFile', config: { tokenFile: path.join(dir, 'token') } } },
    namespace: (existsSync(nsFile) ? readFileSync(nsFile, 'utf8').trim() : '') || 'default',
  };
}

/** Whether the user's credentials come from an exec plugin (client-go's ExecCredential). */
export function usesExec(user: User): boolean {
  const provider = user.authProvider as { name?: string; config?: { exec?: unknown } } | undefined | null;
  return Boolean(user.exec) || provider?.name === 'exec' || Boolean(provider?.config?.exec);
}

/** Whether the user's token is a file re-read as it rotates (in-cluster). */
export function tokenFile(user: User): string | undefined {
  const provider = user.authProvider as { config?: { tokenFile?: unknown } } | undefined | null;
  return typeof provider?.config?.tokenFile === 'string' ? provider.config.tokenFile : undefined;
}

/**
 * What in this context only the whole @kubernetes/client-node can serve — a proxy, or
 * an auth provider (azure, gcp, oidc) — or undefined when the lean transport can:
 * tokens, token files, client certificates, basic auth, exec plugins, impersonation.
 */
export function libraryOnly(k: KubeContext): string | undefined {
  if (k.cluster.proxyUrl) return `the cluster's proxy-url`;
  const provider = k.user.authProvider as { name?: unknown } | undefined | null;
  if (provider && !usesExec(k.user) && !tokenFile(k.user)) return `the auth-provider ${JSON.stringify(provider.name ?? 'unnamed')}`;
  return undefined;
}

/** A name as an error shows it: bounded, whatever the file holds. */
function short(s: string): string {
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 300);
}
