// Which cluster, which identity: a kubeconfig file (or the pod's service account) read
// into the one context a session uses. The entries are parsed by @kubernetes/client-node's
// own config_types (a small module of its package, without its HTTP client), so a
// kubeconfig means here what it means to the library; the lean transport (kube-http.ts)
// serves what it can, and `libraryOnly` names what only the whole library can.
import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import { newClusters, newContexts, newUsers, type Cluster, type User } from '@kubernetes/client-node/dist/config_types.js';
import yamlChunk from 'virtual:yaml-chunk';
import * as z from 'zod/v4';
import { sharedEmbeddedModule } from '../startup/embedded.ts';
import { decodeText, readBounded, readBoundedSync, type FileKind } from '../util/bounded-read.ts';
import { MAX_ALIAS_NODES, nestingProblem, treeProblems, type YamlChecks } from '../util/yaml-limits.ts';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The one context a session uses, resolved to its cluster and user. */
export interface KubeContext {
  context: string;
  cluster: Cluster;
  user: User;
  namespace: string;
  /** The kubeconfig as it was read (bounded), for the whole library when it is the one to serve it. */
  text?: string;
}

/**
 * 1 MiB: a kubeconfig of a fleet — fifty clusters, each with its CA inline (about 3 KiB) — is
 * about 150 KiB, and one of 20 000 short cluster entries (1 MiB) is read and parsed in 1.4 s. It
 * may come from anywhere KUBECONFIG or the recipe points: a 10 GB file, /dev/zero, a FIFO are
 * refused before a byte is parsed, and the worst shapes measured within the cap (an error or an
 * empty key on every line, 1 MiB) cost 8-15 s of CPU and 250-530 MB once, at start-up
 * (`watch` with KUBECONFIG=<file>, 2026-12-07, the shared 2-core machine at a load of about 18).
 */
export const KUBECONFIG_FILE: FileKind = {
  noun: 'a kubeconfig',
  maxBytes: 1024 * 1024,
  hint: 'give a kubeconfig file (kubectl config view --raw --flatten writes one)',
};
/** A pod's namespace file: a DNS label (63 characters at most). */
const NAMESPACE_FILE: FileKind = { noun: "the service account's namespace file", maxBytes: 1024, hint: 'it is mounted by Kubernetes' };

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
type Yaml = YamlChecks & Pick<typeof import('yaml'), 'LineCounter' | 'parseDocument'>;

/** A kubeconfig file's context (`context`, else its current-context), with relative certificate paths made absolute to the file. */
export async function loadKubeconfig(file: string, context?: string): Promise<KubeContext> {
  // Bounded, regular files only, UTF-8 text: each refusal a sentence naming the file (util/bounded-read.ts).
  const source = decodeText(await readBounded(file, KUBECONFIG_FILE), file, KUBECONFIG_FILE);
  const raw = await parseYaml(source, file);
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
  return { context: name, cluster, user, namespace: ctx.namespace || 'default', text: source };
}

/**
 * The YAML parser the recipes use (one embedded chunk, evaluated once) under their limits
 * (util/yaml-limits.ts), each problem at FILE:LINE:COL: nesting found by the lexer before the
 * parser spends time and memory on it (400 KB of "[" took 19 s and 400 MB without), aliases
 * expanded past a budget, collection keys. Error objects without stacks: a file with an error
 * on every line makes one each.
 */
async function parseYaml(source: string, file: string): Promise<unknown> {
  const yaml = await sharedEmbeddedModule<Yaml>(yamlChunk, 'yaml.cjs');
  const lines = new yaml.LineCounter();
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  const deep = nestingProblem(yaml, source);
  if (deep) {
    // linePos needs the lines counted: the lexer's offset is converted by hand here.
    const before = source.slice(0, deep.offset);
    const line = before.split('\n').length;
    throw new Error(`${file}:${line}:${deep.offset - before.lastIndexOf('\n')}: ${deep.message}`);
  }
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let doc;
  try {
    doc = yaml.parseDocument(source, { lineCounter: lines, prettyErrors: false });
  } finally {
    Error.stackTraceLimit = limit;
  }
  const bad = doc.errors[0];
  if (bad) throw new Error(`${at(bad.pos[0])}: not valid YAML: ${firstLine(bad)}`);
  const tree = treeProblems(yaml, doc)[0];
  if (tree) throw new Error(`${at(tree.node.range?.[0] ?? 0)}: ${tree.message}`);
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_NODES * 100 }) ?? {};
  } catch (err) {
    throw new Error(`${file}: ${firstLine(err)}`);
  }
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
    namespace: (existsSync(nsFile) ? decodeText(readBoundedSync(nsFile, NAMESPACE_FILE), nsFile, NAMESPACE_FILE).trim() : '') || 'default',
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
