// The incident recipe's delegation end to end, on the local control plane: a Deployment whose
// pod crash-loops (test/cluster/stages/pod-crashloop.yaml) and whose container's previous run
// printed 1,500 lines of noise and then its failure (the KWOK log up.sh serves for a container
// named `checkout`). The shipped recipes/k8s-incident.yaml runs with the model replayed: the
// parent hands the log to the recipe's read-only explore agent, whose own replayed steps
// (addressed to it) read the real log and events through the real k8s tools, try a write the
// profile does not grant, and return a digest; the parent then checks, fails to verify and
// escalates. Every replayed step is checked against what really happened.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import {
  KUBECONFIG,
  kubectl,
  kubectlJson,
  pathWithKubernetesMcpServer,
  requireCluster,
  until,
  webDeployment,
  withNamespace,
  type Pod,
} from './kube.ts';
import { webhook } from './webhook.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The last two lines of the crashed run's log (up.sh writes them): what the digest must name.
const ERROR_LINE = 'ERROR checkout: dial tcp 10.0.0.53:5432: connect: connection refused (PAYMENTS_DB_HOST=payments-db.shop.svc)';
const FATAL_LINE = 'FATAL checkout: cannot reach the payments database after 5 attempts; exiting with code 1';

type Result = { name: string; ok: boolean; shown: Record<string, unknown>; source?: string; call_id: string; error?: string };
type Usage = { inputTokens: number; outputTokens: number };

describe('incident delegation end to end (replayed parent and child, real tools)', () => {
  it('the parent hands the crashed run’s log to explore, which reads it for real and answers with a digest', async () => {
    await requireCluster();
    await withNamespace('delegation', {}, async (ns) => {
      await kubectl(['apply', '-f', '-'], JSON.stringify(webDeployment(ns, { name: 'checkout', replicas: 1, crash: true })));
      const pod = await until('the checkout pod crash-looping', 30_000, async () => {
        const pods = await kubectlJson<{ items: Pod[] }>(['-n', ns, 'get', 'pods', '-l', 'app=checkout']);
        return pods.items.length === 1 && JSON.stringify(pods.items).includes('CrashLoopBackOff') && pods.items[0]!.metadata.name;
      });
      const hook = await webhook();

      // The shipped recipe as it is, with its relative paths made absolute.
      const ws = await tempDir();
      const shipped = await readFile(path.join(root, 'recipes/k8s-incident.yaml'), 'utf8');
      const recipe = shipped
        .replace('dirs: [../skills]', `dirs: [${JSON.stringify(path.join(root, 'skills'))}]`)
        .replace('${CORE_AGENT_RECIPE_DIR}', path.join(root, 'recipes'));
      expect(recipe).not.toBe(shipped);
      await writeFile(path.join(ws, 'incident.yaml'), recipe);

      const child = 'explore-1';
      const digest = [
        `Pod ${pod}, container checkout, previous run: 1,500 INFO lines warming the price cache, then`,
        ERROR_LINE,
        FATAL_LINE,
        'Each once, at the end. Events: BackOff (Back-off restarting failed container).',
      ].join('\n');
      const target = { kind: 'Deployment', name: 'checkout', namespace: ns };
      const steps = [
        {
          tool_calls: [
            { name: 'record_plan', args: { plan: `1. See what fails in ${ns}/checkout.\n2. Have its log read.\n3. Verify, or escalate.` } },
          ],
        },
        { tool_calls: [{ name: 'k8s_list', args: { kind: 'pods', namespace: ns, label_selector: 'app=checkout' } }] },
        {
          text: 'The log is long: explore reads it.',
          tool_calls: [
            {
              name: 'spawn_agent',
              args: {
                agent: 'explore',
                goal: `Pod ${pod} in namespace ${ns} is in CrashLoopBackOff. Read the previous run of its container checkout and its events; quote the lines that say why it exited.`,
              },
            },
          ],
        },
        // The child's own steps, addressed to it: the real log and events, a write its profile does not grant, the digest.
        {
          agent: child,
          tool_calls: [
            // As its instructions say: 2,000 lines, more than max_bytes holds; the end is kept.
            { name: 'k8s_logs', args: { pod, namespace: ns, container: 'checkout', previous: true, tail_lines: 2000 } },
            { name: 'k8s_events', args: { namespace: ns, kind: 'Pod', name: pod } },
          ],
        },
        {
          agent: child,
          tool_calls: [{ name: 'alert', args: { target: 'oncall', level: 'critical', summary: 'checkout cannot reach its database' } }],
        },
        { agent: child, text: digest },
        {
          tool_calls: [
            {
              name: 'wait_and_verify',
              args: { tool: 'k8s_rollout_status', args: target, expect_jq: '.converged', interval_seconds: 1, timeout_seconds: 3 },
            },
          ],
        },
        {
          tool_calls: [
            {
              name: 'alert',
              args: {
                target: 'oncall',
                level: 'critical',
                summary: `UNRESOLVED ${ns}/checkout: crash-looping, cannot reach its database`,
                details: `explore's digest of the crashed run:\n${FATAL_LINE}\nProposal: check payments-db.shop.svc and the checkout pods' route to it.`,
              },
            },
          ],
        },
        { text: `UNRESOLVED ${ns}/checkout: "${FATAL_LINE}"; proposal sent to oncall.` },
      ];
      const script = path.join(ws, 'script.jsonl');
      await writeFile(script, steps.map((t) => JSON.stringify(t)).join('\n'));
      const db = path.join(ws, 'sessions.db');
      const env = { KUBECONFIG, ONCALL_WEBHOOK_URL: hook.url, PATH: pathWithKubernetesMcpServer() };
      // Asynchronously: the webhook receiver lives in this process.
      const r = await runCli(
        [
          'run',
          '-m',
          `replay:${script}`,
          '-c',
          path.join(ws, 'incident.yaml'),
          '-o',
          'json',
          '--session-db',
          db,
          `checkout in ${ns} is crash-looping`,
        ],
        ws,
        env,
      );
      expect(r.code, r.stderr).toBe(0);

      const log = EventLog.open(db);
      const parent = log.sessions().find((s) => !s.id.includes(':sub:'))!.id;
      try {
        // Two sessions: the run's and its child's, linked by id and by the child's session_start.
        const sessions = log.sessions().map((s) => s.id);
        const branch = `${parent}:sub:${child}`;
        expect(sessions.sort()).toEqual([parent, branch].sort());
        const childEvents = log.events(branch);
        const start = childEvents[0]!;
        expect(start.kind).toBe('session_start');
        expect(start.data).toMatchObject({ parent, agent: child, profile: 'explore' });
        // Its catalog is the profile's grant: the cluster's readers, and no alert, although its parent has one.
        expect([...(start.data.tools as string[])].sort()).toEqual(['k8s_events', 'k8s_get', 'k8s_list', 'k8s_logs']);
        expect(childEvents.at(-1)).toMatchObject({ kind: 'agent_end', data: { agent: child, status: 'done', stop_reason: 'natural' } });

        const results = (id: string) =>
          log
            .events(id)
            .filter((e) => e.kind === 'tool_result')
            .map((e) => e.data as Result);
        // The child's calls: the two reads ran against the cluster (read-only calls of one response
        // are logged as they finish), the alert was refused, not sent.
        const mine = results(branch);
        expect(mine.map((x) => `${x.name}:${x.ok}`).sort()).toEqual(['alert:false', 'k8s_events:true', 'k8s_logs:true']);
        const logs = mine.find((x) => x.name === 'k8s_logs')!.shown;
        expect(logs).toMatchObject({ pod, namespace: ns, container: 'checkout', previous: true });
        // The 1,502 lines are larger than max_bytes (64 KiB): the start was dropped, the end kept.
        const lines = String(logs.log).split('\n');
        expect(lines.slice(-3)).toEqual([ERROR_LINE, FATAL_LINE, '']);
        expect(logs.truncated).toBe(true);
        expect((logs.dropped as { lines: number }).lines).toBeGreaterThan(0);
        expect(lines.filter((l) => l.includes('warming price cache')).length).toBeGreaterThan(100);
        expect(JSON.stringify(mine.find((x) => x.name === 'k8s_events')!.shown)).toContain('Back-off restarting failed container');
        const refused = mine.find((x) => x.name === 'alert')!;
        expect(refused.shown.error).toMatch(/^alert is not registered: agent explore-1 was not granted it \(profile explore, read-only\)/);

        // The parent's calls, in order: each one's effect is what the cluster and the child did.
        const ours = results(parent).filter((x) => x.source !== 'poll');
        expect(ours.map((x) => `${x.name}:${x.ok}`)).toEqual([
          'record_plan:true',
          'k8s_list:true',
          'spawn_agent:true',
          'wait_and_verify:true',
          'alert:true',
        ]);
        const listed = JSON.stringify(ours[1]!.shown);
        expect(listed).toContain(pod);
        expect(listed).toContain('CrashLoopBackOff');
        const spawned = ours[2]!.shown;
        expect(spawned).toMatchObject({ name: child, profile: 'explore', branch, status: 'done', stop_reason: 'natural', turns: 3 });
        // The digest reached the parent, and each line it quotes from the log is a line the child really read.
        expect(spawned.final_text).toBe(digest);
        const quoted = digest.split('\n').filter((l) => /^(ERROR|FATAL) /.test(l));
        expect(quoted).toHaveLength(2);
        for (const q of quoted) expect(lines).toContain(q);
        expect(ours[3]!.shown).toMatchObject({ verified: false, outcome: expect.stringMatching(/^(timeout|attempts_exhausted)$/) });
        const polls = results(parent).filter((x) => x.source === 'poll');
        expect(polls.length).toBeGreaterThan(0);
        expect(polls.every((p) => p.name === 'k8s_rollout_status' && p.shown.converged === false)).toBe(true);

        // One alert reached the receiver: the parent's, quoting the failure line the child found.
        expect(hook.received).toHaveLength(1);
        expect(JSON.stringify(hook.received[0])).toContain(`UNRESOLVED ${ns}/checkout`);
        expect(JSON.stringify(hook.received[0])).toContain(FATAL_LINE);

        // The child's usage is in the parent's turn: its own share exactly, and the total with nothing lost or doubled.
        const tokens = (id: string) =>
          log
            .events(id)
            .filter((e) => e.kind === 'response')
            .reduce((n, e) => n + (e.data.usage as Usage).inputTokens, 0);
        const childTokens = tokens(branch);
        expect(childTokens).toBeGreaterThan(0);
        const turnEnd = log.events(parent).find((e) => e.kind === 'turn_end')!.data as {
          usage: Usage;
          delegated_usage: Usage;
          text: string;
        };
        expect(turnEnd.delegated_usage.inputTokens).toBe(childTokens);
        expect(turnEnd.usage.inputTokens).toBe(tokens(parent) + childTokens);
        expect(turnEnd.text).toContain(FATAL_LINE);
      } finally {
        log.close();
      }

      // -o json showed the child's start and end.
      const out = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(out.filter((l) => l.type === 'agent_start' || l.type === 'agent_end').map((l) => [l.type, l.name])).toEqual([
        ['agent_start', child],
        ['agent_end', child],
      ]);

      // sessions show prints the tree: the run's session names its child, the child's names its parent.
      const shown = await runCli(['sessions', 'show', parent, '--session-db', db], ws, env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(`agents:\n  ${child} (explore) done, natural`);
      expect(shown.stdout).toContain(`${parent}:sub:${child}`);
      const shownChild = await runCli(['sessions', 'show', `${parent}:sub:${child}`, '--session-db', db], ws, env);
      expect(shownChild.code, shownChild.stderr).toBe(0);
      expect(shownChild.stdout).toContain(`parent ${parent}`);
      expect(shownChild.stdout).toContain('k8s_logs ok');
    });
  }, 200_000);
});
