import { resolveWorkspace } from '../runtime/recipe-step.ts';
import { resolveSettings } from '../runtime/settings.ts';
import { homeOf } from '../runtime/state-dir.ts';
import { DOCTOR } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { flagSettings, parse } from './common-options.ts';
import {
  alertChecks,
  clusterCheck,
  configFileCheck,
  configPaths,
  mcpChecks,
  mergedConfig,
  modelApiCheck,
  modelCheck,
  nodeCheck,
  recipeCheck,
  ripgrepCheck,
  type Check,
} from './doctor/checks.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

/** doctor's --help: the prose around the options its table lists (command-table.ts DOCTOR). */
export const doctorHelp = (): string =>
  commandHelp(DOCTOR, {
    about: `Checks what a run needs, one line each (ok, warn or fail, with a fix): the Node
version, ripgrep, the configuration files (user and project) and the recipe,
the model's credentials (the variable's name and whether it is set, never its
value) and one cheap call with them (a provider's models list, or a 1-token
request on Vertex), each MCP server (started, its tool count), each alert target
(its variables set; a required one unset fails), and the cluster (GET /version).`,
    after: 'Exit status: 0 nothing failed (warnings allowed), 1 a check failed, 2 a usage error.',
  });

export async function doctorCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, DOCTOR);
  if (values.help) {
    io.out(`${doctorHelp()}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]!.slice(0, 60)}"`, 'doctor');
  const output = values.output;
  const timeoutMs = values.timeout * 1000;
  const settings = resolveSettings({ ...flagSettings(values), model: values.model }, io.env);
  const workspace = await resolveWorkspace(settings.workspace ?? process.cwd());
  const home = homeOf(io.env);
  const trustWorkspace = settings.trustWorkspace === true;

  const files = configPaths(io.env, home, workspace);
  const checks: Check[] = [
    nodeCheck(process.versions.node),
    ripgrepCheck(settings.ripgrep, io.env),
    await configFileCheck('user', files.user),
    ...(files.project === files.user ? [] : [await configFileCheck('project', files.project)]),
  ];
  if (settings.recipe) checks.push(await recipeCheck(settings.recipe));
  const recipe = await mergedConfig({ recipe: settings.recipe, workspace, env: io.env, home, trustWorkspace });
  const spec = settings.model ?? recipe?.model;
  const model = modelCheck(spec, io.env);
  checks.push(model);
  if (spec && model.status === 'ok' && !spec.startsWith('replay:')) checks.push(await modelApiCheck(spec, io.env, timeoutMs));
  // What the files say about MCP and the cluster is only known when they parse; each failure is already a line above.
  if (recipe) {
    checks.push(...(await mcpChecks({ recipe, recipeFile: settings.recipe, workspace, env: io.env, trustWorkspace, timeoutMs })));
    checks.push(...alertChecks(recipe, io.env));
    checks.push(await clusterCheck(recipe, io.env, home, timeoutMs));
  }
  const failed = checks.some((c) => c.status === 'fail');
  if (output === 'json') io.out(`${JSON.stringify({ ok: !failed, checks })}\n`);
  else io.out(renderChecks(checks));
  return failed ? EXIT.failure : EXIT.ok;
}

/** The table: status, check, detail; under each warning or failure its fix. */
export function renderChecks(checks: readonly Check[]): string {
  const width = Math.max(...checks.map((c) => c.check.length));
  const lines = checks.flatMap((c) => [
    `${c.status.padEnd(4)}  ${c.check.padEnd(width)}  ${c.detail}`,
    ...(c.fix ? [`${' '.repeat(6 + width)}  fix: ${c.fix}`] : []),
  ]);
  const counts = (['ok', 'warn', 'fail'] as const).map((s) => `${checks.filter((c) => c.status === s).length} ${s}`).join(', ');
  return `${lines.join('\n')}\n${counts}\n`;
}
