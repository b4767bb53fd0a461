// The Scion harness (scion/) against a real sciontool, built from Scion's public source at the
// commit scripts/sciontool.sh pins. Without one on this machine (the Go module proxy does not
// serve Scion's module), each test is skipped and says why; the stand-in's tests
// (hooks-session.test.ts, sciontool-status.test.ts) run everywhere.
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { renderEnvelope } from '../../src/tools/framework/hooks.ts';
import { createRuntime, type Runtime } from '../../src/runtime/runtime.ts';
import { EventLog } from '../../src/store/event-log.ts';
import { closedPortUrl, fakeHub } from '../helpers/sciontool.ts';
import { tempDir } from '../helpers/workspace.ts';
import { TASK_1, TASK_2, TWO_TASKS_EVENTS, replTwoTasks, twoTasksWorkspace } from './two-tasks.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const found = spawnSync('bash', [path.join(root, 'scripts/sciontool.sh'), '--find'], { encoding: 'utf8' });
const sciontool = found.status === 0 ? found.stdout.trim() : undefined;
const unavailable = `no real sciontool: ${found.stderr.trim().replace(/^sciontool\.sh: /, '')}`;
const python = spawnSync('python3', ['--version']).status === 0;

/** The real sciontool, or the test is skipped, saying why. */
function real(ctx: TestContext): string {
  if (!sciontool) ctx.skip(unavailable);
  return sciontool!;
}

const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.session.close();
});

/** A Scion agent's home as Scion composes it: the harness-config's home/ copied in, and the instructions file. */
async function agentHome(instructions: string): Promise<string> {
  const home = await tempDir('core-agent-scion-home-');
  await cp(path.join(root, 'scion/home'), home, { recursive: true });
  await writeFile(path.join(home, '.config/core-agent/AGENTS.md'), instructions);
  return home;
}

/**
 * A directory with `sciontool` first on the PATH: a recorder that runs the real one with the
 * same argv and stdin and notes its exit status, its stderr and the activity it left.
 */
async function recordingShim(bin: string): Promise<{ dir: string; calls(): Promise<Array<Record<string, any>>> }> {
  const dir = await tempDir('core-agent-scion-shim-');
  const record = path.join(dir, 'calls.jsonl');
  const shim = `#!${process.execPath}
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
// Only a hook reads stdin (sciontool_status's execFile leaves its stdin open).
const input = process.argv[2] === 'hook' ? fs.readFileSync(0) : Buffer.alloc(0);
const r = spawnSync(${JSON.stringify(bin)}, process.argv.slice(2), { input, encoding: 'utf8' });
let activity = null, phase = null;
try { ({ activity = null, phase = null } = JSON.parse(fs.readFileSync(process.env.HOME + '/agent-info.json', 'utf8'))); } catch {}
const envelope = input.length ? JSON.parse(input) : undefined;
fs.appendFileSync(${JSON.stringify(record)}, JSON.stringify({ argv: process.argv.slice(2), envelope, code: r.status, stderr: r.stderr, activity, phase }) + '\\n');
process.stderr.write(r.stderr);
process.exit(r.status ?? 1);
`;
  await writeFile(path.join(dir, 'sciontool'), shim);
  await chmod(path.join(dir, 'sciontool'), 0o755);
  return {
    dir,
    calls: async () =>
      (await readFile(record, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>),
  };
}

describe('the Scion harness against a real sciontool', () => {
  it('is the pinned build', (ctx) => {
    const r = spawnSync(real(ctx), ['version'], { encoding: 'utf8' });
    // sciontool prints the commit's first 7 characters.
    expect(r.stdout).toContain('Commit: 770980c\n');
  });

  it('reads Claude Code hook input with --dialect=claude; --dialect=core-agent is unknown to it', async (ctx) => {
    const bin = real(ctx);
    const home = await tempDir();
    const env = { PATH: process.env.PATH, HOME: home };
    const envelope = renderEnvelope('claude', 'tool-start', 's-1', home, { tool_name: 'read_file', tool_input: { path: 'a.txt' } });
    const claude = spawnSync(bin, ['hook', '--dialect=claude'], { input: JSON.stringify(envelope), env, encoding: 'utf8' });
    expect(claude.status, claude.stderr).toBe(0);
    expect(claude.stderr).toContain('[executing] Running tool: read_file');
    expect(JSON.parse(await readFile(path.join(home, 'agent-info.json'), 'utf8'))).toMatchObject({
      activity: 'executing',
      toolName: 'read_file',
    });
    // Our envelope needs a sciontool that loads dialect.yaml: this one refuses the dialect, so the harness uses claude.
    const ours = renderEnvelope('core-agent', 'tool-start', 's-1', home, { tool_name: 'read_file' });
    const custom = spawnSync(bin, ['hook', '--dialect=core-agent'], { input: JSON.stringify(ours), env, encoding: 'utf8' });
    expect(custom.status).toBe(1);
    expect(custom.stderr).toContain('unknown dialect: core-agent');
  });

  it('runs provision.py through `sciontool harness provision`: the instructions land where core-agent reads them', async (ctx) => {
    const bin = real(ctx);
    if (!python) ctx.skip('no python3 on the PATH (the provisioner needs it, as config.yaml says)');
    const home = await tempDir('core-agent-scion-home-');
    const bundle = path.join(home, '.scion/harness');
    await mkdir(path.join(bundle, 'inputs'), { recursive: true });
    await mkdir(path.join(bundle, 'outputs'), { recursive: true });
    await cp(path.join(root, 'scion/provision.py'), path.join(bundle, 'provision.py'));
    await writeFile(path.join(bundle, 'inputs/instructions.md'), 'Review the pull request.\n');
    await writeFile(path.join(bundle, 'inputs/system-prompt.md'), 'You are a careful reviewer.\n');
    await writeFile(path.join(bundle, 'inputs/auth-candidates.json'), JSON.stringify({ env_vars: ['GEMINI_API_KEY'] }));
    // The manifest as Scion's ContainerScriptHarness.Provision writes it, with the bundle's paths
    // absolute (sciontool refuses the literal $HOME/... that Scion 770980cb writes: see below) and
    // the provisioner's script where this home has it (Scion's config says /home/scion/...).
    const manifest = (bundleDir: string) => ({
      schema_version: 1,
      command: 'provision',
      agent_name: 'demo',
      agent_home: home,
      agent_workspace: '/workspace',
      harness_bundle_dir: bundleDir,
      harness_config: {
        harness: 'core-agent',
        provisioner: {
          type: 'container-script',
          interface_version: 1,
          command: ['python3', path.join(bundle, 'provision.py')],
          timeout: '30s',
        },
        config_dir: '.config/core-agent',
        system_prompt_mode: 'prepend_to_instructions',
      },
      inputs: { instructions: path.join(bundle, 'inputs/instructions.md'), system_prompt: path.join(bundle, 'inputs/system-prompt.md') },
      outputs: { env: `${bundleDir}/outputs/env.json`, resolved_auth: `${bundleDir}/outputs/resolved-auth.json` },
      platform: { goos: 'linux', goarch: 'amd64' },
    });
    const env = { PATH: process.env.PATH, HOME: home };
    await writeFile(path.join(bundle, 'manifest.json'), JSON.stringify(manifest(bundle)));
    const r = spawnSync(bin, ['harness', 'provision', '--manifest', path.join(bundle, 'manifest.json')], { env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    // The same text Scion's generic harness writes for prepend_to_instructions.
    expect(await readFile(path.join(home, '.config/core-agent/AGENTS.md'), 'utf8')).toBe(
      '# System Prompt\n\nYou are a careful reviewer.\n\n---\n\nReview the pull request.\n',
    );
    expect(JSON.parse(await readFile(path.join(bundle, 'outputs/env.json'), 'utf8'))).toEqual({});
    expect(JSON.parse(await readFile(path.join(bundle, 'outputs/resolved-auth.json'), 'utf8'))).toMatchObject({
      method: 'api-key',
      env_vars: ['GEMINI_API_KEY'],
    });
    // Why config.yaml's default is `type: generic`: the manifest as Scion 770980cb stages it is refused before the script runs.
    await writeFile(path.join(bundle, 'manifest.json'), JSON.stringify(manifest('$HOME/.scion/harness')));
    const staged = spawnSync(bin, ['harness', 'provision', '--manifest', path.join(bundle, 'manifest.json')], { env, encoding: 'utf8' });
    expect(staged.status).toBe(1);
    expect(staged.stderr).toContain('harness_bundle_dir path "$HOME/.scion/harness" escapes allowed roots');
  });

  it('two tasks and a compaction through the harness recipe: every event read, and completed cleared by the second task', async (ctx) => {
    const bin = real(ctx);
    const home = await agentHome('# System Prompt\n\nYou are the Scion test agent.\n\n---\n\nSay hello.\n');
    const ws = await tempDir('core-agent-scion-ws-');
    const model = await twoTasksWorkspace(ws);
    const shim = await recordingShim(bin);
    const db = path.join(home, 'sessions.db');
    const recipe = path.join(home, '.config/core-agent/scion-recipe.yaml');
    const r = await replTwoTasks(['--yolo', '--trust-workspace', '-c', recipe, '-m', model, '--session-db', db], ws, {
      HOME: home,
      PATH: `${shim.dir}:${process.env.PATH}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/hook failed/);
    const calls = await shim.calls();
    for (const c of calls) expect(c.code, c.stderr).toBe(0);
    const harnessEvents = TWO_TASKS_EVENTS.filter((e) => e !== 'response-complete');
    // What sciontool made of each event: its normalized name, in its log line's words.
    const said = calls.map((c) => /\[sciontool\] INFO: (?:\[\w+\] )?(.*)/.exec(c.stderr)?.[1] ?? c.stderr);
    const prompts = [TASK_1, TASK_2];
    expect(said).toEqual(
      harnessEvents.map((e) => {
        const [event, tool] = e.split(':');
        if (e.startsWith('status ')) return 'Agent completed task: Read a.txt';
        if (event === 'prompt-submit') return `User prompt: ${prompts.shift()}`;
        return {
          'session-start': 'Session started (source: startup)',
          'agent-start': 'Agent turn started',
          'model-start': 'LLM call started',
          'model-end': 'LLM call completed',
          'tool-start': `Running tool: ${tool}`,
          'tool-end': `Tool ${tool} completed`,
          'agent-end': 'Agent turn completed',
          'session-end': 'Session ended (reason: exit)',
        }[event!];
      }),
    );
    // The display as it went: completed from task_completed through the compaction, cleared by the second prompt.
    expect(calls.map((c) => c.activity)).toEqual([
      'idle',
      'thinking',
      'thinking',
      'thinking',
      'idle',
      'executing',
      'idle',
      'thinking',
      'idle',
      'executing',
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
      'thinking',
      'thinking',
      'thinking',
      'idle',
      'idle',
      // session-end: the phase is stopped, and a stopped agent has no activity.
      null,
    ]);
    expect(calls.at(-1)).toMatchObject({ phase: 'stopped' });
    // The instructions Scion wrote into the agent's home reached the system prompt.
    const log = EventLog.open(db);
    try {
      const [session] = log.sessions();
      const start = log.events(session!.id).find((e) => e.kind === 'session_start')!;
      expect(String(start.data.instructions)).toContain('You are the Scion test agent.');
    } finally {
      log.close();
    }
  }, 120_000);

  it('sciontool_status: reported when the hub takes it, not delivered when the hub is unreachable', async (ctx) => {
    const bin = real(ctx);
    const hub = await fakeHub();
    try {
      for (const [endpoint, expected] of [
        [hub.url, 'reported'],
        [await closedPortUrl(), 'not delivered'],
      ] as const) {
        const home = await tempDir();
        const rt = await createRuntime({
          flags: { workspace: home, mode: 'yolo' },
          env: {},
          commandEnv: {
            PATH: `${path.dirname(bin)}:${process.env.PATH}`,
            HOME: home,
            SCION_HUB_ENDPOINT: endpoint,
            SCION_AUTH_TOKEN: 'agent-token',
            SCION_AGENT_ID: 'agent-7',
          },
        });
        runtimes.push(rt);
        const r = await rt.dispatcher.call('sciontool_status', { status_type: 'task_completed', message: 'Fixed it' });
        if (expected === 'reported') {
          expect(r).toEqual({ ok: true, result: { status_type: 'task_completed', message: 'Fixed it', reported: true } });
        } else {
          expect(r).toMatchObject({ ok: false, kind: 'tool_error' });
          expect(!r.ok && r.error).toMatch(
            /not delivered: it is recorded in the container \(agent-info\.json\) but the Scion hub did not get it\. sciontool said: Failed to report to Hub: .*connection refused/,
          );
        }
        expect(JSON.parse(await readFile(path.join(home, 'agent-info.json'), 'utf8'))).toMatchObject({ activity: 'completed' });
      }
      expect(hub.received).toEqual([
        expect.objectContaining({ method: 'POST', path: '/api/v1/agents/agent-7/status', activity: 'completed', taskSummary: 'Fixed it' }),
      ]);
    } finally {
      await hub.close();
    }
  }, 60_000);
});
