// node bench/incident-bench.ts (needs KUBECONFIG: `bash test/cluster/with-cluster.sh npm run
// bench -- --only incident`): how many bytes of tool results one incident puts in the model's
// context, with the output caps and the digest wrap as shipped, and with both off. The same
// replayed incident (recipes/k8s-remediate.yaml) runs twice, each in a fresh namespace holding
// a crash-looping Deployment beside a 40-replica healthy one, so the survey calls (a full pod
// list, every event, the MCP server's pod and event lists) are as large as in a busy
// namespace. Prints a line `RESULTS {json}`; nothing asserted.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventLog } from '../src/store/event-log.ts';
import { kubectl, kubectlJson, pathWithKubernetesMcpServer, until, webDeployment, type Pod } from '../test/cluster/kube.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = path.join(root, 'dist/core-agent.mjs');
if (!process.env.KUBECONFIG) {
  console.log('incident: skipped (no KUBECONFIG; run under test/cluster/with-cluster.sh)');
  console.log('RESULTS null');
  process.exit(0);
}

const deployment = (ns: string, name: string, replicas: number, crash: boolean) => webDeployment(ns, { name, replicas, crash });

async function incident(label: string, extraRecipe: string, extraArgs: string[]) {
  const ns = `ca-bench-${label}-${Date.now().toString(36)}`;
  await kubectl(['create', 'namespace', ns]);
  try {
    await kubectl(['apply', '-f', '-'], JSON.stringify(deployment(ns, 'batch', 40, false)));
    await kubectl(['apply', '-f', '-'], JSON.stringify(deployment(ns, 'web', 2, true)));
    await until('42 pods', 60_000, async () => (await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods'])).items.length === 42);
    const ws = mkdtempSync(path.join(tmpdir(), 'core-agent-incident-'));
    const recipe = readFileSync(path.join(root, 'recipes/k8s-remediate.yaml'), 'utf8')
      .replace('dirs: [../skills]', `dirs: [${JSON.stringify(path.join(root, 'skills'))}]`)
      .replace('${CORE_AGENT_RECIPE_DIR}', path.join(root, 'recipes'))
      .replace('  allow: [tool.alert]\n', '  allow: [mcp.kubernetes.resources_create_or_update]\n');
    writeFileSync(path.join(ws, 'r.yaml'), recipe + extraRecipe);
    const target = { kind: 'Deployment', name: 'web', namespace: ns };
    const turns = [
      { tool_calls: [{ name: 'record_plan', args: { plan: `Triage web in ${ns}; fix; verify.` } }] },
      { tool_calls: [{ name: 'skill', args: { name: 'k8s-triage' } }] },
      {
        tool_calls: [
          { name: 'k8s_rollout_status', args: target },
          { name: 'k8s_list', args: { kind: 'pods', namespace: ns, output: 'full', limit: 100 } },
          { name: 'kubernetes_pods_list_in_namespace', args: { namespace: ns } },
        ],
      },
      {
        tool_calls: [
          { name: 'k8s_events', args: { namespace: ns, limit: 500 } },
          { name: 'kubernetes_events_list', args: { namespace: ns } },
          { name: 'skill', args: { name: 'k8s-triage', file: 'references/crashloopbackoff.md' } },
        ],
      },
      {
        tool_calls: [
          { name: 'kubernetes_resources_create_or_update', args: { resource: JSON.stringify(deployment(ns, 'web', 2, false)) } },
        ],
      },
      {
        tool_calls: [
          {
            name: 'wait_and_verify',
            args: { tool: 'k8s_rollout_status', args: target, expect_jq: '.converged', interval_seconds: 1, timeout_seconds: 90 },
          },
        ],
      },
      { text: `RESOLVED ${ns}/web` },
    ];
    writeFileSync(path.join(ws, 's.jsonl'), turns.map((t) => JSON.stringify(t)).join('\n'));
    const db = path.join(ws, 'sessions.db');
    const r = spawnSync(
      process.execPath,
      [
        bundle,
        'run',
        '-m',
        `replay:${path.join(ws, 's.jsonl')}`,
        '-c',
        path.join(ws, 'r.yaml'),
        '--session-db',
        db,
        ...extraArgs,
        'incident',
      ],
      {
        cwd: ws,
        encoding: 'utf8',
        // The recipe's oncall target is required; the replay never alerts, so nothing listens there.
        env: {
          PATH: pathWithKubernetesMcpServer(),
          HOME: ws,
          KUBECONFIG: process.env.KUBECONFIG,
          ONCALL_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
        },
      },
    );
    if (r.status !== 0) throw new Error(`${label}: the run failed: ${r.stderr}`);
    const log = EventLog.open(db);
    const id = log.sessions()[0]!.id;
    const results = log
      .events(id)
      .filter((e) => e.kind === 'tool_result')
      .map((e) => e.data as { name: string; ok: boolean; shown: unknown });
    log.close();
    const failed = results.filter((x) => !x.ok).map((x) => x.name);
    if (failed.length > 0) throw new Error(`${label}: calls failed: ${failed.join(', ')}`);
    const bytes = results.map((x) => ({ name: x.name, bytes: Buffer.byteLength(JSON.stringify(x.shown)) }));
    return { label, calls: results.length, contextBytes: bytes.reduce((n, b) => n + b.bytes, 0), perCall: bytes };
  } finally {
    await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => '');
  }
}

const shipped = await incident('shipped', '', []);
const off = await incident('off', 'tool_output:\n  max_bytes: 67108864\n  max_lines: 1000000\n', ['--no-mcp-digest']);
console.log(`context bytes of one replayed incident (${shipped.calls} tool calls):`);
console.log(`  caps + digest as shipped: ${shipped.contextBytes}`);
console.log(`  caps and digest off:      ${off.contextBytes}  (${(off.contextBytes / shipped.contextBytes).toFixed(2)}×)`);
// Concurrent calls are logged as they finish: pair the two runs' rows by name and occurrence.
const key = (rows: Array<{ name: string }>) => rows.map((r, i) => `${r.name}#${rows.slice(0, i).filter((x) => x.name === r.name).length}`);
const offBytes = new Map(key(off.perCall).map((k, i) => [k, off.perCall[i]!.bytes]));
for (const [i, k] of key(shipped.perCall).entries()) {
  console.log(
    `    ${shipped.perCall[i]!.name.padEnd(40)} ${String(shipped.perCall[i]!.bytes).padStart(8)} ${String(offBytes.get(k) ?? '').padStart(8)}`,
  );
}
console.log(
  `RESULTS ${JSON.stringify({ shipped: shipped.contextBytes, off: off.contextBytes, calls: shipped.calls, perCall: { shipped: shipped.perCall, off: off.perCall } })}`,
);
