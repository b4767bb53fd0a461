import { recipeJsonSchema, type Recipe } from '../config/recipe-schema.ts';
import { buildSystem } from '../runtime/system.ts';
import { BUILTIN_TOOL_SPECS } from '../tools/index.ts';
import { parse } from './common-options.ts';
import { RECIPE, RECIPE_OPTIONS, subcommand } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

/** recipe's --help: its subcommands, from the tree (command-table.ts RECIPE). */
export const recipeHelp = (): string => commandHelp(RECIPE);

export async function recipeCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${recipeHelp()}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  const leaf = subcommand(RECIPE, sub);
  if (leaf === undefined) throw new UsageError(`unknown command "recipe ${sub.slice(0, 60)}"`, 'recipe');
  const { values, positionals } = parse(rest, { name: leaf.name, options: RECIPE_OPTIONS });
  if (values.help) {
    io.out(`${commandHelp(leaf)}\n`);
    return EXIT.ok;
  }
  if (sub === 'schema') {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'recipe');
    io.out(`${JSON.stringify(recipeJsonSchema(BUILTIN_TOOL_SPECS), null, 2)}\n`);
    return EXIT.ok;
  }
  if (sub === 'validate') {
    const [file, extra] = positionals;
    if (file === undefined) throw new UsageError('recipe validate needs a FILE', 'recipe');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`, 'recipe');
    // The same construction a run does, so a recipe that validates is one whose file boots.
    // The file, never the world: no MCP servers started, no cluster looked for, no state
    // directory, no store, and of the environment only where the configuration files are. A CI
    // job validating recipes has no cluster and none of their secrets; what only the world can
    // answer (required services, the variables the recipe names) is start-up's and doctor's.
    const { runtime: rt } = await buildSystem({
      until: 'dispatcher',
      flags: { recipe: file, workspace: values.workspace },
      env: pickEnv(io.env, VALIDATE_ENV),
      command: 'recipe validate',
      logLevel: 'silent',
      say: (text) => io.err(text),
      startMcp: false,
      checkWorld: false,
    });
    const scope = rt.gate.scope.describe();
    io.out(
      `${file}: ok\n` +
        `  tools (${rt.catalog.names().length}, dialect ${rt.catalog.dialect}): ${rt.catalog
          .list()
          .map((t) => t.modelName)
          .join(', ')}\n` +
        `  permission mode: ${rt.gate.mode}\n` +
        `  path_scope: allow ${scope.allow.join(', ')}${scope.deny.length ? `; deny ${scope.deny.join(', ')}` : ''}\n` +
        mcpLine(rt.recipe.mcp?.servers ?? {}) +
        worldLine(rt.recipe),
    );
    return EXIT.ok;
  }
  throw new UsageError(`unknown command "recipe ${sub}"`, 'recipe');
}

/** The recipe's MCP servers (not started by validate: their tools are listed when a run connects). */
function mcpLine(
  servers: Record<string, { url?: string | undefined; disabled?: boolean | undefined; required?: boolean | undefined }>,
): string {
  const names = Object.entries(servers).map(
    ([n, c]) => `${n} (${c.url ? 'http' : 'stdio'}${c.disabled ? ', disabled' : ''}${c.required ? ', required' : ''})`,
  );
  return names.length > 0 ? `  mcp servers: ${names.join(', ')}\n` : '';
}

/** What the recipe needs from the world, which a run checks at start-up and doctor checks now (validate does not). */
function worldLine(recipe: Recipe): string {
  const needs = [
    ...(recipe.kubernetes && recipe.kubernetes.enabled !== false
      ? [`a Kubernetes cluster${recipe.kubernetes.required ? ' (required)' : ' (else no k8s_* tools)'}`]
      : []),
    ...Object.entries(recipe.alerts?.targets ?? {}).map(
      ([name, t]) =>
        `alert target ${name}: ${[t.url_env, t.token_env].filter(Boolean).join(', ')}${t.required ? ' (required)' : ' (else dropped)'}`,
    ),
  ];
  return needs.length > 0 ? `  needs at start-up (core-agent doctor checks them): ${needs.join('; ')}\n` : '';
}

/** What validate reads of the environment: the home and XDG dir (the configuration files); never where a cluster is. */
const VALIDATE_ENV = ['HOME', 'XDG_CONFIG_HOME'] as const;

function pickEnv(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]]])));
}
