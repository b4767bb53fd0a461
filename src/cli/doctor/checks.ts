import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, loadConfigLayers, projectConfigPath, userConfigPath } from '../../config/config-layers.ts';
import { loadRecipe } from '../../config/load-recipe.ts';
import { parseConfigText, RecipeError } from '../../config/parse-config.ts';
import { ConfigFileError, readConfigFile } from '../../config/read-config-file.ts';
import { recipeSchema, type Recipe } from '../../config/recipe-schema.ts';
import { findCluster, Kube } from '../../k8s/cluster.ts';
import { loadMcpConfig } from '../../mcp/load-config.ts';
import { liveTargets } from '../../net/alert-targets.ts';
import { McpManager } from '../../mcp/manager.ts';
import { modelCredentialProblem, modelSpecProblem, PROVIDER_ENV } from '../../model/providers.ts';
import { Catalog } from '../../tools/framework/catalog.ts';
import { BUILTIN_TOOL_SPECS } from '../../tools/index.ts';
import { locateRipgrep } from '../../tools/shared/ripgrep.ts';
import { capErrorText } from '../../util/error-text.ts';
import { describeFailure } from '../../util/failure-sentences.ts';
import { MIN_NODE_MAJOR } from '../main-help.ts';
import { processGuardFor } from '../../runtime/exec-only-launch.ts';

// One function a check: each answers ok / warn / fail with a line of detail and, unless ok,
// a one-line fix. None prints a credential's value: a check names the variable and says
// whether it is set (test/cli/doctor.test.ts plants a secret and looks for it everywhere).

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  check: string;
  status: CheckStatus;
  detail: string;
  fix?: string | undefined;
}

/** An error as one bounded line: the known sentence for its code when there is one. */
function boundedMessage(err: unknown): string {
  const text = describeFailure(err) ?? (err instanceof Error ? err.message : String(err));
  return capErrorText(text.replace(/\s+/g, ' ').trim(), 300);
}

const ok = (check: string, detail: string): Check => ({ check, status: 'ok', detail });
const warn = (check: string, detail: string, fix: string): Check => ({ check, status: 'warn', detail, fix });
const fail = (check: string, detail: string, fix: string): Check => ({ check, status: 'fail', detail, fix });

export function nodeCheck(version: string): Check {
  const major = Number.parseInt(version, 10);
  return major >= MIN_NODE_MAJOR
    ? ok('node', `Node ${version}`)
    : fail('node', `Node ${version} is older than ${MIN_NODE_MAJOR}`, `install Node ${MIN_NODE_MAJOR} or newer`);
}

/** rg as grep and glob find it (CORE_AGENT_RIPGREP, then beside the bundle); else one on PATH they would not use. */
export function ripgrepCheck(configured: string | undefined, env: NodeJS.ProcessEnv): Check {
  const found = locateRipgrep(undefined, configured);
  if (found) return ok('ripgrep', found);
  const onPath = (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'rg'))
    .find(isExecutable);
  if (onPath)
    return warn(
      'ripgrep',
      `no bundled rg; ${onPath} is on PATH`,
      `set CORE_AGENT_RIPGREP=${onPath} (grep and glob use the slower RE2 engine)`,
    );
  return warn('ripgrep', 'no rg found: grep and glob use the in-process RE2 engine', 'install ripgrep and set CORE_AGENT_RIPGREP to it');
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** One configuration file (user or project): absent is fine; present, it must parse (errors at FILE:LINE:COL). */
export async function configFileCheck(which: 'user' | 'project', file: string): Promise<Check> {
  const name = `${which} config`;
  let text: string;
  try {
    text = await readConfigFile(file, CONFIG_FILE);
  } catch (err) {
    if (err instanceof ConfigFileError && err.code === 'ENOENT') return ok(name, `none (${file})`);
    return fail(name, boundedMessage(err), `fix or remove ${file}`);
  }
  try {
    await parseConfigText(
      text,
      file,
      recipeSchema(BUILTIN_TOOL_SPECS),
      'a configuration file is a mapping of keys (model, tools, permissions, …)',
    );
    return ok(name, file);
  } catch (err) {
    if (err instanceof RecipeError) return fail(name, firstProblems(err), `fix ${file} at the line:column shown`);
    throw err;
  }
}

export async function recipeCheck(file: string): Promise<Check> {
  try {
    await loadRecipe(file, BUILTIN_TOOL_SPECS);
    return ok('recipe', file);
  } catch (err) {
    if (err instanceof RecipeError) return fail('recipe', firstProblems(err), `fix ${file} (core-agent recipe validate ${file})`);
    throw err;
  }
}

const firstProblems = (err: RecipeError) =>
  err.problems.length > 3 ? `${err.problems.slice(0, 3).join('; ')}; … ${err.problems.length - 3} more` : err.problems.join('; ');

/** The files merged as a run merges them; undefined when one of them does not parse (its own check fails). */
export async function mergedConfig(o: {
  recipe: string | undefined;
  workspace: string;
  env: NodeJS.ProcessEnv;
  home: string;
  trustWorkspace: boolean;
}): Promise<Recipe | undefined> {
  try {
    const layered = await loadConfigLayers({ recipeFile: o.recipe, ...o, tools: BUILTIN_TOOL_SPECS });
    return layered.recipe;
  } catch (err) {
    if (err instanceof RecipeError) return undefined;
    throw err;
  }
}

export const configPaths = (env: NodeJS.ProcessEnv, home: string, workspace: string) => ({
  user: userConfigPath(env, home),
  project: projectConfigPath(workspace),
});

/** The model a run would use, well formed, with its provider's variable set (named, never shown). */
export function modelCheck(spec: string | undefined, env: NodeJS.ProcessEnv): Check {
  if (!spec) return warn('model', 'no model configured', 'give --model PROVIDER:MODEL, set CORE_AGENT_MODEL, or model: in a config file');
  const problem = modelSpecProblem(spec);
  if (problem) return fail('model', problem, 'write the model as PROVIDER:MODEL');
  const provider = spec.slice(0, spec.indexOf(':'));
  if (provider === 'replay') {
    const file = spec.slice(spec.indexOf(':') + 1);
    return existsSync(file)
      ? ok('model', `${spec} (the script exists)`)
      : fail('model', `${spec}: no such replay script`, `create ${file} or fix the path`);
  }
  const names = PROVIDER_ENV[provider as keyof typeof PROVIDER_ENV].names;
  const state = names.map((n) => `${n} ${env[n] ? 'set' : 'not set'}`).join(', ');
  const missing = modelCredentialProblem(spec, env);
  return missing
    ? fail('model', `${spec}: ${state}`, `export ${names[0]}=… (${missing.slice(missing.indexOf('needs'))})`)
    : ok('model', `${spec}: ${state}`);
}

/**
 * One cheap authenticated call to the model's provider (src/model/probe.ts says which
 * call for each), bounded by `timeoutMs`: whether the key and the URL work, in the
 * sentence a run would print when they do not. Only after `modelCheck` passed; a
 * replay script has no provider to call.
 */
export async function modelApiCheck(spec: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Check> {
  // Imported here: the provider packages load only when a provider model is checked.
  const { probeModel } = await import('../../model/probe.ts');
  const r = await probeModel(spec, env, timeoutMs);
  return { check: 'model api', status: r.status, detail: r.detail, ...(r.fix ? { fix: r.fix } : {}) };
}

/** Each configured MCP server started, as a run starts it, within `timeoutMs`; its tool count, or why it did not come up. */
export async function mcpChecks(o: {
  recipe: Recipe;
  recipeFile: string | undefined;
  workspace: string;
  env: NodeJS.ProcessEnv;
  trustWorkspace: boolean;
  timeoutMs: number;
}): Promise<Check[]> {
  const config = await loadMcpConfig(o.workspace, o.recipe.mcp, o.trustWorkspace, o.env);
  // Each server gets the doctor's deadline for its start (a connection that gives up stops its process too).
  const seconds = o.timeoutMs / 1000;
  const servers = Object.fromEntries(
    Object.entries(config.servers ?? {})
      .filter(([, c]) => !c.disabled)
      .map(([name, c]) => [name, { ...c, startup_timeout_seconds: Math.min(c.startup_timeout_seconds ?? seconds, seconds) }]),
  );
  const untrusted = (config.untrusted ?? []).map((name) =>
    warn(
      `mcp ${name}`,
      'declared in .agents/mcp.json or .mcp.json, not started: the workspace is not trusted',
      'pass --trust-workspace if you trust it',
    ),
  );
  // A server of .mcp.json core-agent cannot take (SSE, an unset variable), or keys it ignores.
  untrusted.push(...(config.notices ?? []).map((n) => warn('mcp .mcp.json', n, 'declare the server for core-agent in .agents/mcp.json')));
  if (Object.keys(servers).length === 0) return untrusted.length > 0 ? untrusted : [ok('mcp', 'no MCP servers configured')];
  const catalog = Catalog.build([]);
  // As a run starts them: ${CORE_AGENT_RECIPE_DIR} finds files shipped beside the recipe (runtime/mcp-step.ts).
  const env = o.recipeFile ? { ...o.env, CORE_AGENT_RECIPE_DIR: path.dirname(path.resolve(o.recipeFile)) } : o.env;
  // Started as a run starts them: from execute-only copies where a run would (exec-only-launch.ts).
  const manager = new McpManager({ servers, catalog, workspace: o.workspace, env, processGuard: processGuardFor(env) });
  let timer: NodeJS.Timeout | undefined;
  try {
    const failures = await Promise.race([
      manager.start(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), o.timeoutMs + 2000))),
    ]);
    const failed = new Map((failures ?? []).map((f) => [f.server, f.error]));
    const tools = catalog.list();
    return [
      ...manager.status().map(({ server, status }) => {
        const name = `mcp ${server}`;
        const error = failed.get(server);
        if (error !== undefined && /timed? ?out/i.test(error))
          return fail(
            name,
            `no answer within ${seconds}s: ${boundedMessage(error)}`,
            `check that mcp.servers.${server} starts, or raise --timeout`,
          );
        if (error !== undefined) return fail(name, boundedMessage(error), `check mcp.servers.${server} (command, url, env)`);
        if (status !== 'up')
          return fail(
            name,
            `no answer within ${o.timeoutMs / 1000}s (${status})`,
            `check that mcp.servers.${server} starts, or raise --timeout`,
          );
        const count = tools.filter((t) => t.name.startsWith(`mcp.${server}.`)).length;
        return ok(name, `connected, ${count} tool${count === 1 ? '' : 's'}`);
      }),
      ...untrusted,
    ];
  } finally {
    clearTimeout(timer);
    await manager.close();
  }
}

/** Each alert target: live when its variables are set; else dropped at start-up (warn), or the start refused when it is required (fail). */
export function alertChecks(recipe: Recipe, env: NodeJS.ProcessEnv): Check[] {
  const targets = recipe.alerts?.targets ?? {};
  const { dropped } = liveTargets(targets, env);
  return Object.entries(targets).map(([name, t]) => {
    const why = dropped.find((d) => d.target === name)?.reason;
    if (why === undefined) return ok(`alert ${name}`, `${t.url_env}${t.token_env ? ` and ${t.token_env}` : ''} set`);
    const fix = `export ${why.split(' ')[0]}=… (alerts.targets.${name})`;
    return t.required
      ? fail(`alert ${name}`, `${why}: a run refuses to start (required)`, fix)
      : warn(`alert ${name}`, `${why}: dropped at start-up`, fix);
  });
}

/** The cluster the settings resolve, asked for /version within `timeoutMs`; none configured is a warning (the k8s tools are left out). */
export async function clusterCheck(recipe: Recipe, env: NodeJS.ProcessEnv, home: string, timeoutMs: number): Promise<Check> {
  if (recipe.kubernetes?.enabled === false) return ok('cluster', 'kubernetes.enabled is false');
  const found = findCluster(env, recipe.kubernetes, home);
  if ('unavailable' in found) {
    const fix = 'set kubernetes.kubeconfig in the recipe, or KUBECONFIG';
    return recipe.kubernetes?.required ? fail('cluster', found.unavailable, fix) : warn('cluster', found.unavailable, fix);
  }
  const where = 'kubeconfig' in found ? found.kubeconfig : 'in-cluster service account';
  try {
    const version = await new Kube(found, recipe.kubernetes).get('/version', {}, 'json', AbortSignal.timeout(timeoutMs));
    return ok('cluster', `${where}: Kubernetes ${String(version.gitVersion ?? '?')}`);
  } catch (err) {
    return fail(
      'cluster',
      `${where}: ${boundedMessage(err)}`,
      'check the kubeconfig server, its credentials, and that the API server is up',
    );
  }
}
