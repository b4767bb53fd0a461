import { FAILURE_KINDS } from '../core/failure.ts';
import { TtyPrompter } from '../permissions/tty-prompter.ts';
import { buildToolsSystem } from '../runtime/tools-system.ts';
import { flagSettings, parse } from './common-options.ts';
import { TOOLS, TOOLS_CALL, TOOLS_LIST } from './command-table.ts';
import { commandHelp } from './help-text.ts';
import { EXIT, UsageError, type Io } from './usage.ts';

/** tools's --help: its subcommands, from the tree (command-table.ts TOOLS). */
export const toolsHelp = (): string => commandHelp(TOOLS);

export const toolsListHelp = (): string =>
  commandHelp(TOOLS_LIST, {
    about: `Lists the registered tools: name, whether it is read-only, and its description
exactly as the model sees it, then the dialect (whose tool names the model sees:
--dialect golem shows golem's ReadFile, TodoWrite, …). --json prints an array of
{name, model_name?, description, read_only, input_schema} (input_schema is JSON
Schema draft-7; model_name when the model calls the tool by another name).`,
  });

export const toolsCallHelp = (): string =>
  commandHelp(TOOLS_CALL, {
    about: `Runs one tool call through exactly the path a model's call takes: argument
validation, path_scope, the permission gate, the deadline and the output caps.
JSON is the arguments object (default {}); "-" reads it from stdin.
Prints the result JSON on stdout and exits 0; a refusal or tool error prints
{"error": "...", "kind": "..."} and exits 1; a usage or recipe error exits 2.
The kind is one of: ${FAILURE_KINDS.join(', ')}.
In ask mode a call that changes state asks on a terminal; without one it is refused.`,
    after: `Examples:
  core-agent tools call read_file '{"path": "README.md", "limit": 20}'
  core-agent tools call grep '{"pattern": "TODO", "include": "*.ts"}'
  echo '{"path": "notes.txt", "content": "hi"}' | core-agent tools call write_file - --yolo`,
  });

export async function toolsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(`${toolsHelp()}\n`);
    return sub === undefined ? EXIT.usage : EXIT.ok;
  }
  if (sub === 'list') return toolsList(rest, io);
  if (sub === 'call') return toolsCall(rest, io);
  throw new UsageError(`unknown command "tools ${sub}"`, 'tools');
}

async function toolsList(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, TOOLS_LIST);
  if (values.help) {
    io.out(`${toolsListHelp()}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, 'tools list');
  const sys = await buildToolsSystem({
    until: 'dispatcher',
    flags: flagSettings(values),
    env: io.env,
    command: 'tools list',
    logLevel: 'warn',
    say: (text) => io.err(text),
  });
  const rt = sys.runtime;
  // MCP servers started for the listing stop with it.
  await sys.close();
  const tools = rt.catalog.list();
  if (values.json) {
    const out = tools.map((t) => ({
      name: t.name,
      ...(t.modelName !== t.name ? { model_name: t.modelName } : {}),
      description: t.description,
      read_only: t.readOnly,
      input_schema: t.inputSchema,
    }));
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return EXIT.ok;
  }
  // MCP tools: the canonical name (rules, recipes) and, in brackets, the name the model calls.
  // A dialect's face (golem's ReadFile): the name the model calls, and in brackets the engine's.
  const label = (t: (typeof tools)[number]) =>
    t.modelName === t.name ? t.name : t.face ? `${t.modelName} (${t.name})` : `${t.name} (${t.modelName})`;
  const width = Math.max(...tools.map((t) => label(t).length), 4);
  const lines = [`${'NAME'.padEnd(width)}  READ-ONLY  DESCRIPTION`];
  for (const t of tools) {
    const firstSentence = t.description.split(/(?<=\.)\s/)[0] ?? t.description;
    lines.push(`${label(t).padEnd(width)}  ${(t.readOnly ? 'yes' : 'no').padEnd(9)}  ${firstSentence}`);
  }
  lines.push('', `dialect: ${rt.catalog.dialect} (one tool per job; --dialect, CORE_AGENT_DIALECT or tools.dialect picks another)`);
  io.out(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

async function toolsCall(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, TOOLS_CALL);
  if (values.help) {
    io.out(`${toolsCallHelp()}\n`);
    return EXIT.ok;
  }
  const [name, json, extra] = positionals;
  if (name === undefined) throw new UsageError('tools call needs a tool name', 'tools call');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (quote the JSON arguments as one word)`, 'tools call');
  const text = json === '-' ? await io.readStdin() : (json ?? '{}');
  let args: unknown;
  try {
    args = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the arguments are not valid JSON: ${(err as Error).message}`, 'tools call');
  }
  const sys = await buildToolsSystem({
    until: 'dispatcher',
    flags: { ...flagSettings(values), sessionDb: values['session-db'] },
    env: io.env,
    command: 'tools call',
    logLevel: 'warn',
    say: (text) => io.err(text),
    prompter: io.isTty && TtyPrompter.available() ? new TtyPrompter() : undefined,
    stateDir: true,
    recordAs: `tools call ${name}`,
    fresh: values['fresh-session-db'] === true,
  });
  // A terminal started by this one call (bash wait: false) ends with it.
  const outcome = await sys.runtime.dispatcher.call(name, args).finally(() => sys.close());
  if (!outcome.ok) {
    io.out(`${JSON.stringify({ error: outcome.error, kind: outcome.kind }, null, 2)}\n`);
    return EXIT.failure;
  }
  io.out(`${JSON.stringify(outcome.result, null, 2)}\n`);
  return EXIT.ok;
}
