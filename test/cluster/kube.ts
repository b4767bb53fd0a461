// kubectl and friends for the tests against a real Kubernetes API (test/cluster/).
// kubectl is taken from $KUBECTL, else from the build cache (test/cluster/build.sh),
// else from PATH; the cluster is the one KUBECONFIG reaches.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function cachedKubectl(): string {
  const versions: Record<string, string> = {};
  for (const raw of readFileSync(join(here, 'versions.env'), 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').replace(/\s+/g, '');
    const eq = line.indexOf('=');
    if (eq > 0) versions[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const root = process.env.CORE_AGENT_K8S_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'core-agent', 'k8s');
  const key =
    `k8s-${versions.K8S_VERSION}_etcd-${versions.ETCD_VERSION}_kwok-${versions.KWOK_VERSION}` +
    `_helm-${versions.HELM_VERSION}_r${versions.BUILD_RECIPE}`;
  return join(root, key, 'bin', 'kubectl');
}

export const KUBECTL = process.env.KUBECTL ?? (existsSync(cachedKubectl()) ? cachedKubectl() : 'kubectl');
export const KUBECONFIG = process.env.KUBECONFIG;

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(args: string[], input?: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, args, {
      env: { ...process.env, KUBECONFIG },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new Error(`cannot run ${KUBECTL}: ${err.message}`)));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** kubectl that must succeed; returns stdout. */
export async function kubectl(args: string[], input?: string): Promise<string> {
  const r = await run(args, input);
  if (r.code !== 0) {
    throw new Error(`kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  }
  return r.stdout;
}

export async function kubectlJson<T>(args: string[]): Promise<T> {
  return JSON.parse(await kubectl([...args, '-o', 'json'])) as T;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll fn until it returns a truthy value or the deadline passes. */
export async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await sleep(250);
  }
}

export const suffix = () => randomBytes(3).toString('hex');

/**
 * A namespace with labels, ready once its default ServiceAccount exists. For a test that
 * spans several `it`s; delete it with deleteNamespace (withNamespace does both around one function).
 */
export async function createNamespace(prefix: string, labels: Record<string, string> = {}, owner = 'cluster-test'): Promise<string> {
  const ns = `ca-test-${prefix}-${suffix()}`;
  const manifest = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'core-agent.test/owner': owner, ...labels } } };
  await kubectl(['create', '-f', '-'], JSON.stringify(manifest));
  try {
    await until(
      `ServiceAccount default in ${ns}`,
      30_000,
      async () => (await run(['-n', ns, 'get', 'serviceaccount', 'default'])).code === 0,
    );
  } catch (err) {
    await deleteNamespace(ns);
    throw err;
  }
  return ns;
}

export async function deleteNamespace(ns: string): Promise<void> {
  await run(['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
}

/** Create a namespace (with optional labels), wait for its default ServiceAccount, run fn, delete it. */
export async function withNamespace(prefix: string, labels: Record<string, string>, fn: (ns: string) => Promise<void>): Promise<void> {
  const ns = await createNamespace(prefix, labels);
  try {
    await fn(ns);
  } finally {
    await deleteNamespace(ns);
  }
}

export interface Pod {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status: { phase?: string; conditions?: { type: string; status: string }[] };
}

export const podReady = (p: Pod) =>
  p.status.phase === 'Running' && (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/**
 * Every test starts here, so that a missing or unreachable cluster fails each
 * test with this message instead of skipping it.
 */
let clusterCheck: Promise<void> | undefined;
export function requireCluster(): Promise<void> {
  clusterCheck ??= (async () => {
    if (!KUBECONFIG) {
      throw new Error(
        'KUBECONFIG is not set. Start the cluster with `bash test/cluster/up.sh` and export ' +
          'KUBECONFIG=<the path it prints> (or point KUBECONFIG at any reachable cluster).',
      );
    }
    const r = await run(['version', '-o', 'json', '--request-timeout=10s']);
    if (r.code !== 0) {
      throw new Error(`no reachable cluster with KUBECONFIG=${KUBECONFIG} (kubectl=${KUBECTL}): ${r.stderr.trim()}`);
    }
  })();
  return clusterCheck;
}

/**
 * A PATH that has `kubernetes-mcp-server`, as the shipped recipes expect: the binary
 * comes from the npm package kubernetes-mcp-server-linux-amd64 (a dev dependency; the
 * multi-platform wrapper package lists builds this registry does not serve).
 */
export function pathWithKubernetesMcpServer(): string {
  // Resolved like a module, so it works from this file and from a bundle of it (bench/).
  const pkg = createRequire(import.meta.url).resolve('kubernetes-mcp-server-linux-amd64/package.json');
  const binary = join(dirname(pkg), 'bin', 'kubernetes-mcp-server-linux-amd64');
  const dir = join(tmpdir(), `core-agent-kms-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'kubernetes-mcp-server');
  if (!existsSync(link)) symlinkSync(binary, link);
  return `${dir}${delimiter}${process.env.PATH ?? ''}`;
}

/**
 * A Deployment of pause containers. With `crash`, its pods carry the label the KWOK stage
 * test/cluster/stages/pod-crashloop.yaml crash-loops (CrashLoopBackOff, a BackOff event
 * each); without, they become Ready. The incident scenarios' fix turns the flag off.
 */
export function webDeployment(ns: string, opts: { name?: string; replicas?: number; crash: boolean }) {
  const name = opts.name ?? 'web';
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas: opts.replicas ?? 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, 'core-agent.test/crash': opts.crash ? 'true' : 'false' } },
        spec: { containers: [{ name, image: 'registry.k8s.io/pause:3.10' }] },
      },
    },
  };
}
