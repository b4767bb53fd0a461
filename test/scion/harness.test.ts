import { spawnSync } from 'node:child_process';
import { appendFile, cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_EVENTS } from '../../src/config/hook-events.ts';
import { loadRecipe } from '../../src/config/load-recipe.ts';
import { loadYaml } from '../../src/config/parse-config.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';

const dir = fileURLToPath(new URL('../../scion/', import.meta.url));
const yamlFile = async (name: string) =>
  (await loadYaml()).parseDocument(await readFile(`${dir}${name}`, 'utf8')).toJS() as Record<string, any>;

/**
 * The keys of Scion's harness-config schema (pkg/config/schemas/settings-v1.schema.json,
 * $defs.harnessConfig, additionalProperties: false) at Scion 770980cb: any other key makes
 * Scion refuse the whole config.yaml.
 */
const SCION_HARNESS_CONFIG_KEYS = [
  'harness',
  'image',
  'user',
  'model',
  'task_flag',
  'args',
  'env',
  'volumes',
  'auth_selected_type',
  'secrets',
  'provisioner',
  'config_dir',
  'skills_dir',
  'interrupt_key',
  'instructions_file',
  'system_prompt_file',
  'system_prompt_mode',
  'command',
  'env_template',
  'capabilities',
  'auth',
  'dialect',
];

/** In the container: /home/scion is the agent's home, which Scion composes from scion/home/. */
const inHome = (p: string) => path.join(dir, 'home', path.relative('/home/scion', p));

describe('the Scion harness in scion/', () => {
  it("config.yaml has only keys of Scion's harness-config schema, and a generic provisioner", async () => {
    const config = await yamlFile('config.yaml');
    for (const key of Object.keys(config)) expect(SCION_HARNESS_CONFIG_KEYS, key).toContain(key);
    expect(config.harness).toBe('core-agent');
    expect(config.provisioner).toMatchObject({ type: 'generic', command: ['python3', '/home/scion/.scion/harness/provision.py'] });
    expect(config.model).toMatch(/^(google|vertex|openai|anthropic):[\w.-]+$/);
  });

  it('the command starts the REPL on the recipe Scion copies into the home, and the task goes last', async () => {
    const config = await yamlFile('config.yaml');
    const base = config.command.base as string[];
    expect(base.slice(0, 4)).toEqual(['core-agent', 'repl', '--yolo', '--trust-workspace']);
    expect(base.slice(-2, -1)).toEqual(['-c']);
    expect(existsSync(inHome(base.at(-1)!)), base.at(-1)).toBe(true);
    expect(config.command).toMatchObject({ resume_flag: '--continue', task_position: 'after_base_args' });
    expect(config.command.task_flag).toBeUndefined();
    // The instructions go where core-agent reads the user's AGENTS.md: its user directory.
    expect(config.instructions_file).toBe(`${config.config_dir}/AGENTS.md`);
    expect(config.system_prompt_mode).toBe('prepend_to_instructions');
    expect(config.skills_dir).toBe(`${config.config_dir}/skills`);
  });

  it("the recipe wires every event but response-complete to sciontool's claude dialect, in Claude Code's envelope", async () => {
    const recipe = await loadRecipe(path.join(dir, 'home/.config/core-agent/scion-recipe.yaml'), BUILTIN_TOOLS);
    for (const event of HOOK_EVENTS) {
      if (event === 'response-complete') expect(recipe.hooks?.[event], event).toBeUndefined();
      else expect(recipe.hooks?.[event], event).toEqual([{ command: ['sciontool', 'hook', '--dialect=claude'], envelope: 'claude' }]);
    }
    expect(recipe.permissions?.allow).toEqual(['tool.bash:sciontool hook --dialect=claude', 'tool.sciontool_status']);
  });

  it('dialect.yaml maps each of our events to the Scion event of the same name', async () => {
    const dialect = await yamlFile('dialect.yaml');
    expect(dialect.dialect).toBe('core-agent');
    expect(dialect.event_name_field).toBe('hook_event_name');
    expect(Object.keys(dialect.mappings).sort()).toEqual([...HOOK_EVENTS].sort());
    for (const event of HOOK_EVENTS) expect(dialect.mappings[event].event).toBe(event);
    expect(dialect.mappings['tool-start'].fields).toEqual({ tool_name: '.tool_name', tool_input: '.tool_input' });
  });

  it("a Scion user's MCP servers in the home's user file reach core-agent, without --trust-workspace", async () => {
    const home = await tempDir('core-agent-scion-home-');
    const ws = await tempDir('core-agent-scion-ws-');
    await cp(path.join(dir, 'home'), home, { recursive: true });
    await appendFile(path.join(home, '.config/core-agent/config.yaml'), 'mcp:\n  servers:\n    from-scion-home: {command: /bin/false}\n');
    const r = await runCli(['mcp', 'list'], ws, { HOME: home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^from-scion-home\s+stdio/m);
  }, 60_000);

  it.skipIf(spawnSync('python3', ['--version']).status !== 0)(
    "provision.py writes the AGENTS.md Scion's generic harness would, from the staged inputs",
    async () => {
      const home = await tempDir('core-agent-scion-home-');
      const bundle = path.join(home, '.scion/harness');
      await mkdir(path.join(bundle, 'inputs'), { recursive: true });
      await writeFile(path.join(bundle, 'inputs/instructions.md'), 'Review the pull request.\n');
      await writeFile(path.join(bundle, 'inputs/system-prompt.md'), 'You are a careful reviewer.\n');
      const manifest = path.join(bundle, 'manifest.json');
      const write = (mode: string, command = 'provision') =>
        writeFile(
          manifest,
          JSON.stringify({
            schema_version: 1,
            command,
            harness_bundle_dir: '$HOME/.scion/harness',
            harness_config: { config_dir: '.config/core-agent', system_prompt_mode: mode },
            outputs: { env: '$HOME/.scion/harness/outputs/env.json', resolved_auth: '$HOME/.scion/harness/outputs/resolved-auth.json' },
          }),
        );
      const run = () =>
        spawnSync('python3', [path.join(dir, 'provision.py'), '--manifest', manifest], { env: { HOME: home }, encoding: 'utf8' });
      const agentsMd = () => readFile(path.join(home, '.config/core-agent/AGENTS.md'), 'utf8');
      await write('prepend_to_instructions');
      expect(run().status).toBe(0);
      expect(await agentsMd()).toBe('# System Prompt\n\nYou are a careful reviewer.\n\n---\n\nReview the pull request.\n');
      expect(JSON.parse(await readFile(path.join(bundle, 'outputs/resolved-auth.json'), 'utf8'))).toMatchObject({ method: 'none' });
      await write('none');
      expect(run().status).toBe(0);
      expect(await agentsMd()).toBe('Review the pull request.\n');
      await write('prepend_to_instructions', 'resolve-auth');
      const unsupported = run();
      expect(unsupported.status).toBe(2);
      expect(unsupported.stderr).toContain("unsupported command 'resolve-auth'");
    },
  );
});
