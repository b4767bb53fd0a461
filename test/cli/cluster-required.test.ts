import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';
import { tempDir } from '../helpers/workspace.ts';
import { CLUSTER_CASES, type ClusterCase } from './cluster-required.cases.ts';

const label = (c: ClusterCase) => `${c.command}, kubernetes: ${c.kubernetes ?? '(none)'}, cluster: ${c.cluster} → ${c.code}`;

describe('kubernetes.required: no cluster, no start (exit 2); not required, said plainly', () => {
  it.each(CLUSTER_CASES.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    const ws = await tempDir();
    await writeFile(path.join(ws, 'r.yaml'), c.kubernetes === undefined ? 'max_steps: 5\n' : `kubernetes: ${c.kubernetes}\n`);
    await writeFile(path.join(ws, 's.jsonl'), `${JSON.stringify({ text: 'done' })}\n`);
    const env: Record<string, string> = {};
    if (c.cluster === 'missing-file') env.KUBECONFIG = path.join(ws, 'nope');
    // A usable kubeconfig names a context (required: it is read and checked at start, never contacted).
    if (c.cluster === 'kubeconfig') env.KUBECONFIG = await writeKubeconfig(path.join(ws, 'kubeconfig'), 'https://127.0.0.1:1');
    if (c.cluster === 'unusable-kubeconfig') {
      env.KUBECONFIG = path.join(ws, 'kubeconfig');
      await writeFile(env.KUBECONFIG, 'apiVersion: v1\nkind: Config\n');
    }
    const args =
      c.command === 'validate'
        ? ['recipe', 'validate', 'r.yaml']
        : [c.command, '-c', 'r.yaml', '-m', 'replay:s.jsonl', '--session-db', ':memory:', ...(c.command === 'run' ? ['hi'] : [])];
    const out = await runCli(args, ws, env);
    expect(out.code, out.stderr).toBe(c.code);
    if (c.stderr) expect(out.stderr).toMatch(c.stderr);
    else expect(out.stderr).not.toMatch(/Kubernetes/);
    // Exactly one line about it, however many steps noticed.
    expect(out.stderr.split('\n').filter((l) => /Kubernetes/.test(l)).length).toBe(c.stderr ? 1 : 0);
  });
});
