import { recipeJsonSchema } from '../config/recipe-schema.ts';
import { buildSystem } from '../runtime/system.ts';
import { BUILTIN_TOOLS } from '../tools/index.ts';
import { parse } from './common-options.ts';
import { RECIPE_OPTIONS } from './command-table.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

export const RECIPE_HELP = `Usage: core-agent recipe <command>

Commands:
  validate FILE   Check a recipe: YAML, every key and value, the tools it selects.
                  Prints a summary and exits 0, or every problem as
                  FILE:LINE:COL: message on stderr and exits 2.
  schema          Print the recipe's JSON Schema (for editors: yaml-language-server).`;

export async function recipeCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${RECIPE_HELP}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  const { values, positionals } = parse(rest, RECIPE_OPTIONS, `recipe ${sub}`);
  if (values.help) {
    io.out(`${RECIPE_HELP}\n`);
    return EXIT.ok;
  }
  if (sub === 'schema') {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'recipe');
    io.out(`${JSON.stringify(recipeJsonSchema(BUILTIN_TOOLS), null, 2)}\n`);
    return EXIT.ok;
  }
  if (sub === 'validate') {
    const [file, extra] = positionals;
    if (file === undefined) throw new UsageError('recipe validate needs a FILE', 'recipe');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`, 'recipe');
    // The same construction a run does, so a recipe that validates is one that boots.
    // No MCP servers, no state directory, no store, and of the environment only where the
    // configuration files and the cluster are (kubernetes.required is checked as a run checks it).
    const { runtime: rt } = await buildSystem({
      until: 'dispatcher',
      flags: { recipe: file, workspace: values.workspace },
      env: pickEnv(io.env, VALIDATE_ENV),
      command: 'recipe validate',
      logLevel: 'silent',
      say: (text) => io.err(text),
      startMcp: false,
    });
    const scope = rt.gate.scope.describe();
    io.out(
      `${file}: ok\n` +
        `  tools (${rt.catalog.names().length}): ${rt.catalog.names().join(', ')}\n` +
        `  permission mode: ${rt.gate.mode}\n` +
        `  path_scope: allow ${scope.allow.join(', ')}${scope.deny.length ? `; deny ${scope.deny.join(', ')}` : ''}\n` +
        mcpLine(rt.recipe.mcp?.servers ?? {}),
    );
    return EXIT.ok;
  }
  throw new UsageError(`unknown command "recipe ${sub}"`, 'recipe');
}

/** The recipe's MCP servers (not started by validate: their tools are listed when a run connects). */
function mcpLine(servers: Record<string, { url?: string | undefined; disabled?: boolean | undefined }>): string {
  const names = Object.entries(servers).map(([n, c]) => `${n} (${c.url ? 'http' : 'stdio'}${c.disabled ? ', disabled' : ''})`);
  return names.length > 0 ? `  mcp servers: ${names.join(', ')}\n` : '';
}

/** What validate reads of the environment: the home and XDG dir (the configuration files), and where a cluster is. */
const VALIDATE_ENV = ['HOME', 'XDG_CONFIG_HOME', 'KUBECONFIG', 'KUBERNETES_SERVICE_HOST'] as const;

function pickEnv(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n]]])));
}
