import { Agent, DEFAULT_MAX_STEPS, type TurnResult } from '../agent/agent.ts';
import { assembleInstructions } from '../agent/instructions.ts';
import { rebuildSession } from '../agent/resume.ts';
import { createLogger } from '../log.ts';
import { ModelConfigError } from '../model/model.ts';
import { resolveModel } from '../model/providers.ts';
import { ReplayModel } from '../model/replay.ts';
import { TtyPrompter } from '../permissions/tty-prompter.ts';
import { createRuntime } from '../runtime/runtime.ts';
import { splitList } from '../runtime/settings.ts';
import { defaultSessionDb, EventLog } from '../store/event-log.ts';
import { commonOptions, flagSettings, modeOptions, parse } from './common-options.ts';
import { JsonRenderer, TextRenderer } from './render.ts';
import { COMMON_OPTIONS_HELP, EXIT, UsageError, type Io } from './usage.ts';

export const RUN_HELP = `Usage: core-agent run [PROMPT | -] [options]

Runs one turn headless: the prompt, then model calls and tool calls until the
model answers without calling a tool. "-" reads the prompt from stdin.

  -m, --model PROVIDER:MODEL  replay:FILE, google:…, vertex:…, openai:…,
                              openai-compatible:…, anthropic:…       [env CORE_AGENT_MODEL]
  -o, --output text|json      text (default): the answer on stdout, tool calls on
                              stderr; json: JSON Lines events on stdout, the last
                              one {"type":"exit","status":N}
      --session-db PATH       SQLite event log (default ~/.local/state/core-agent/
                              sessions.db; ":memory:" keeps nothing)  [env CORE_AGENT_SESSION_DB]
      --resume ID             continue a session; without a PROMPT, finish its
                              interrupted turn
      --max-steps N           model calls with tools per turn (default ${DEFAULT_MAX_STEPS})
      --allow-tool a,b        register only these tools (repeatable)
      --deny-tool a,b         never register these (repeatable; wins)
      --mode MODE | --yolo    permission mode (default ask)

Exit status: 0 the turn finished, 1 a runtime or model-provider failure,
2 a usage, recipe or model-configuration error.

${COMMON_OPTIONS_HELP}`;

export async function runCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      ...commonOptions,
      ...modeOptions,
      model: { type: 'string', short: 'm' },
      output: { type: 'string', short: 'o' },
      'session-db': { type: 'string' },
      resume: { type: 'string' },
      'max-steps': { type: 'string' },
      'allow-tool': { type: 'string', multiple: true },
      'deny-tool': { type: 'string', multiple: true },
    },
    'run',
  );
  if (values.help) {
    io.out(`${RUN_HELP}\n`);
    return EXIT.ok;
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`--output must be text or json, not "${output}"`, 'run');
  let maxSteps: number | undefined;
  if (values['max-steps'] !== undefined) {
    maxSteps = Number(values['max-steps']);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UsageError('--max-steps must be a positive integer', 'run');
  }
  let prompt = positionals.join(' ').trim();
  if (prompt === '-') prompt = (await io.readStdin()).trim();
  if (!prompt && values.resume === undefined) throw new UsageError('run needs a PROMPT (or --resume ID)', 'run');

  const flags = {
    ...flagSettings(values),
    allowTools: (values['allow-tool'] ?? []).flatMap(splitList),
    denyTools: (values['deny-tool'] ?? []).flatMap(splitList),
  };
  const logger = createLogger(flags.logLevel ?? 'warn');
  const rt = await createRuntime({
    flags,
    env: io.env,
    logger,
    prompter: io.isTty && TtyPrompter.available() ? new TtyPrompter() : undefined,
  });

  const modelSpec = values.model ?? io.env.CORE_AGENT_MODEL ?? rt.recipe.model;
  if (!modelSpec)
    throw new UsageError(
      'no model: give --model (e.g. replay:script.jsonl or google:gemini-2.5-flash), CORE_AGENT_MODEL, or model: in the recipe',
      'run',
    );
  let model;
  try {
    model = await resolveModel(modelSpec, io.env);
  } catch (err) {
    if (err instanceof ModelConfigError) throw new UsageError(err.message, 'run');
    throw err;
  }

  const log = EventLog.open(values['session-db'] ?? io.env.CORE_AGENT_SESSION_DB ?? defaultSessionDb(io.env));
  const json = output === 'json' ? new JsonRenderer(io) : null;
  const text = output === 'text' ? new TextRenderer(io, io.isTty && Boolean(process.stderr.isTTY)) : null;
  try {
    const instructions = await assembleInstructions(rt.workspace, rt.recipe.instructions);
    let sessionId: string;
    let resumed: ReturnType<typeof rebuildSession> | null = null;
    if (values.resume !== undefined) {
      sessionId = values.resume;
      if (!log.session(sessionId)) throw new UsageError(`no session "${sessionId}" in ${log.location} (core-agent sessions list)`, 'run');
      resumed = rebuildSession(log.events(sessionId));
      if (!prompt && !resumed.openTurn)
        throw new UsageError(`session ${sessionId} has no interrupted turn; give a PROMPT to continue it`, 'run');
    } else {
      sessionId = log.createSession({ model: modelSpec, workspace: rt.workspace, title: prompt.slice(0, 80) });
      log.append(sessionId, 0, 'session_start', { model: modelSpec, workspace: rt.workspace, instructions, tools: rt.catalog.names() });
    }
    json?.line({ type: 'session', id: sessionId, model: modelSpec, resumed: resumed !== null });
    const agent = new Agent({
      model,
      dispatcher: rt.dispatcher,
      catalog: rt.catalog,
      instructions,
      log,
      sessionId,
      maxSteps: maxSteps ?? rt.recipe.max_steps,
      onEvent: (e) => (json ? json.onEvent(e) : text!.onEvent(e)),
    });
    if (resumed) {
      agent.restore(resumed.messages, resumed.turn, resumed.usage);
      if (model instanceof ReplayModel) model.position = resumed.replayPosition;
      agent.settleInterrupted(resumed.unanswered);
    }

    let result: TurnResult;
    try {
      // An interrupted turn is finished first; a new prompt then starts the next one.
      if (resumed?.openTurn) {
        result = await agent.continueTurn();
        if (prompt) result = await agent.runTurn(prompt);
      } else {
        result = await agent.runTurn(prompt);
      }
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      log.append(sessionId, agent.turn, 'error', { message });
      text?.stopSpinner();
      if (json) json.line({ type: 'error', message });
      else io.err(`core-agent: model call failed: ${message}\n`);
      json?.line({ type: 'exit', status: EXIT.failure, session: sessionId });
      return EXIT.failure;
    }
    if (json) {
      json.line({
        type: 'turn_end',
        status: result.status,
        text: result.text,
        steps: result.steps,
        usage: result.usage,
        session_usage: agent.usage,
      });
      json.line({ type: 'exit', status: EXIT.ok, session: sessionId });
    } else {
      text!.finish(result);
      io.err(`session ${sessionId}\n`);
    }
    return EXIT.ok;
  } finally {
    text?.stopSpinner();
    log.close();
  }
}
