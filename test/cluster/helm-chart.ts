// helm for the chart tests (helm.test.ts): the binary built by test/cluster/build.sh
// (or $HELM), run with private cache/config/data dirs so nothing global is read or
// written and no repository is ever consulted.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { createNamespace as createKubeNamespace, deleteNamespace, KUBECONFIG, type Result } from './kube.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, '..', '..');
export const chartDir = join(repoRoot, 'helm', 'core-agent');

/** $HELM, else <K8S_BIN>/helm as test/cluster/lib.sh computes it. Missing → an error that says how to get it. */
let helmPath: string | undefined;
export function helmBinary(): string {
  if (helmPath) return helmPath;
  const fromEnv = process.env.HELM;
  const bin =
    fromEnv ||
    join(execFileSync('bash', ['-c', 'source "$1"; printf %s "$K8S_BIN"', '_', join(here, 'lib.sh')], { encoding: 'utf8' }), 'helm');
  if (!existsSync(bin)) {
    throw new Error(
      `helm not found at ${bin}${fromEnv ? ' ($HELM)' : ''}: build it with \`bash test/cluster/build.sh\` ` +
        '(or `bash test/cluster/up.sh`), or set HELM to a helm v3 binary.',
    );
  }
  return (helmPath = bin);
}

let helmHome: string | undefined;
function helmEnv(): NodeJS.ProcessEnv {
  helmHome ??= mkdtempSync(join(tmpdir(), 'core-agent-helm-'));
  return {
    ...process.env,
    KUBECONFIG,
    HELM_CACHE_HOME: join(helmHome, 'cache'),
    HELM_CONFIG_HOME: join(helmHome, 'config'),
    HELM_DATA_HOME: join(helmHome, 'data'),
  };
}

export function runHelm(args: string[]): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(helmBinary(), args, { cwd: repoRoot, env: helmEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new Error(`cannot run ${helmBinary()}: ${err.message}`)));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** helm that must succeed; returns stdout. */
export async function helm(args: string[]): Promise<string> {
  const r = await runHelm(args);
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** The release and namespace every golden is rendered with, so the goldens are stable. */
export const GOLDEN_RELEASE = 'core-agent';
export const GOLDEN_NAMESPACE = 'core-agent';

export function template(args: string[] = []): Promise<string> {
  return helm(['template', GOLDEN_RELEASE, chartDir, '--namespace', GOLDEN_NAMESPACE, ...args]);
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  [key: string]: unknown;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => {
      if (d.errors.length) throw new Error(`rendered YAML does not parse: ${d.errors[0]!.message}`);
      return d.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

/** A namespace for the helm tests (kube.ts' createNamespace, owned by helm-test); delete it with deleteNamespace. */
export const createNamespace = (prefix: string, labels: Record<string, string> = {}) => createKubeNamespace(prefix, labels, 'helm-test');
export { deleteNamespace };
