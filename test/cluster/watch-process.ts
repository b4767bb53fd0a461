// `core-agent watch` as the operator runs it: the built bundle in its own process,
// against the cluster KUBECONFIG reaches. The tests read its /metrics and its
// session database, and stop it with SIGTERM or SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { bundle } from '../helpers/cli.ts';
import { KUBECONFIG, until } from './kube.ts';

export interface WatchProcess {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  metrics: () => Promise<Record<string, number>>;
  exited: Promise<number | null>;
}

/** A recipe with a watch: section for one namespace, and a replay script that answers every incident. */
export async function watchFixture(
  dir: string,
  ns: string,
  watch: Record<string, unknown>,
  script: Array<Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): Promise<{ recipe: string; script: string; db: string }> {
  const recipe = path.join(dir, 'watch.yaml');
  const scriptFile = path.join(dir, 'incident.jsonl');
  await writeFile(
    recipe,
    JSON.stringify({
      instructions: 'You triage Kubernetes incidents.',
      tools: { disable: ['bash', 'write_file', 'edit_file', 'delete_file'] },
      permissions: { mode: 'ask' },
      watch: { namespaces: [ns], reasons: ['BackOff'], ...watch },
      ...extra,
    }),
  );
  await writeFile(scriptFile, script.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { recipe, script: scriptFile, db: path.join(dir, 'sessions.db') };
}

export async function startWatch(
  f: { recipe: string; script: string; db: string },
  cwd: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<WatchProcess> {
  const child = spawn(
    process.execPath,
    [
      bundle,
      'watch',
      '-c',
      f.recipe,
      '--model',
      `replay:${f.script}`,
      '--session-db',
      f.db,
      '--listen',
      '127.0.0.1:0',
      '-w',
      cwd,
      ...extraArgs,
    ],
    { cwd, env: { PATH: process.env.PATH, HOME: cwd, KUBECONFIG, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await until('watch listening', 20_000, async () => {
    if (child.exitCode !== null) throw new Error(`watch exited ${child.exitCode}: ${err}`);
    return /health and metrics on (http:\/\/\S+)/.exec(out)?.[1];
  });
  const metrics = async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const values: Record<string, number> = {};
    for (const line of text.split('\n')) {
      const m = /^([a-z_]+(?:\{[^}]*\})?) ([0-9.e+-]+)$/.exec(line);
      if (m) values[m[1]!] = Number(m[2]);
    }
    return values;
  };
  await until('watch ready', 20_000, async () => (await fetch(`${url}/readyz`)).status === 200);
  return { child, url, stdout: () => out, stderr: () => err, metrics, exited };
}

/** A core/v1 Event about a Pod, as the kubelet would write it. */
export function backOffEvent(ns: string, pod: string, n: number): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod}.burst-${n}`, namespace: ns },
    involvedObject: { apiVersion: 'v1', kind: 'Pod', name: pod, namespace: ns },
    reason: 'BackOff',
    type: 'Warning',
    message: `Back-off restarting failed container app in pod ${pod} (${n})`,
    source: { component: 'kubelet' },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  };
}
