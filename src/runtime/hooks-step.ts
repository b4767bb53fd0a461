import { HOOK_DEFAULT_TIMEOUT_SECONDS, HOOK_EVENTS, type HookEvent } from '../config/hook-events.ts';
import type { HookCommand } from '../config/hooks-schema.ts';
import type { Recipe } from '../config/recipe-schema.ts';
import type { Logger } from '../log.ts';
import { Gate, type Prompter } from '../permissions/gate.ts';
import { HookRunner, shellArgv, type ApprovedHook, type HookSink } from '../tools/framework/hooks.ts';
import type { Asker } from '../tools/framework/services.ts';
import { commandShape } from '../tools/shell/bash-parser.ts';
import { deniedCommand } from '../tools/shell/denylist.ts';
import type { Services } from './services.ts';
import { SettingsError, type Settings } from './settings.ts';

/**
 * The hooks step: the recipe's `hooks:` checked and approved once, at start-up,
 * or the run does not start.
 *
 * A hook command is judged as a bash call would be — the built-in denylist, the
 * deny rules (`tool.bash:<line>`, `tool.bash.cmd:<name>`), the mode, the allow
 * rules — because it is a command line from a file, as a bash call is one from
 * the model. It is decided once here rather than at every firing: the commands
 * are fixed for the process, they fire at every tool boundary where nobody could
 * answer a prompt (so the check never asks: in ask mode an allow rule must cover
 * each one), and an operator learns of a refused hook at start-up instead of
 * from a silent gap later. Plan-first does not hold hooks back: they observe the
 * agent, they are not the model acting.
 */
export async function buildHooks(o: {
  recipe: Recipe;
  /** The recipe file, for the errors. */
  recipeFile: string | undefined;
  settings: Settings;
  services: Services;
  logger: Logger;
}): Promise<HookRunner | undefined> {
  const config = o.recipe.hooks;
  if (!config) return undefined;
  const perms = o.recipe.permissions ?? {};
  const gate = new Gate({
    mode: o.settings.mode ?? perms.mode ?? 'ask',
    allow: perms.allow ?? [],
    deny: perms.deny ?? [],
    scope: o.services.scope,
    logger: o.logger,
  });
  const approved: Partial<Record<HookEvent, ApprovedHook[]>> = {};
  for (const event of HOOK_EVENTS) {
    const list = config[event] ?? [];
    for (const [i, hook] of list.entries()) {
      const where = `hooks.${event}[${i}]`;
      const refuse = (why: string) => new SettingsError(`${o.recipeFile ? `${o.recipeFile}: ` : ''}${where}: ${why}`);
      if (typeof hook.command === 'string' && !o.services.tools.shell) {
        throw refuse(
          'a command given as a string runs with /bin/sh -c, and this system has no /bin/sh (a distroless image?): give it as an argv list, [program, arg…]',
        );
      }
      const line = commandLine(hook);
      const denied = await deniedCommand(line);
      if (denied !== null) throw refuse(`refused by the built-in bash denylist: ${denied}`);
      const shape = await commandShape(line);
      const decision = await gate.check({
        tool: 'bash',
        readOnly: false,
        fileEdit: false,
        openWorld: true,
        commands: shape.verbs,
        wildcardRefusal: shape.wildcardRefusal,
        subjects: [{ kind: 'text', forms: [line] }],
      });
      if (!decision.allowed) {
        throw refuse(
          `the permission gate refuses it as it would the bash call "${line.slice(0, 200)}" (${decision.reason}). Hooks are gated like bash, once at start-up and without asking: in ask or accept-edits mode a permissions.allow rule such as "tool.bash:${line.slice(0, 200)}" covers it, yolo mode allows it, plan mode never does`,
        );
      }
      (approved[event] ??= []).push({
        argv: typeof hook.command === 'string' ? shellArgv(hook.command) : (hook.command as [string, ...string[]]),
        timeoutMs: (hook.timeout_seconds ?? HOOK_DEFAULT_TIMEOUT_SECONDS) * 1000,
        envelope: hook.envelope ?? 'core-agent',
        where,
      });
    }
  }
  o.logger.info({ hooks: Object.fromEntries(Object.entries(approved).map(([e, l]) => [e, l.length])) }, 'hooks approved');
  return new HookRunner({
    hooks: approved,
    sessionId: () => o.services.session.sessionId,
    // The operator's own commands, like MCP servers: the environment as given (sciontool needs the hub's credentials).
    env: o.services.tools.env,
    cwd: o.services.workspace,
    logger: o.logger,
  });
}

/** The command as the gate and the rules see it: the string itself, or the argv quoted as a shell would need it. */
function commandLine(hook: HookCommand): string {
  if (typeof hook.command === 'string') return hook.command.trim();
  return hook.command.map(shellQuote).join(' ');
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The operator is about to be asked something (ask_user, request_user_input, an
 * MCP form, a permission prompt): `notification` fires first, with the question,
 * so an orchestrator shows the agent as waiting for input (Scion's sticky
 * waiting_for_input, cleared when the next tool starts).
 */
export function notifyingAsker(asker: Asker, hooks: HookSink): Asker {
  const notify = (message: string) => hooks.fire('notification', { message: message.slice(0, 2000) });
  const { choose, elicit, askQuestions } = asker;
  const wrapped: Asker = {
    async ask(question) {
      await notify(question);
      return asker.ask(question);
    },
  };
  if (choose)
    wrapped.choose = async (questions) => {
      await notify(questions.map((q) => q.question).join('\n'));
      return choose.call(asker, questions);
    };
  if (elicit)
    wrapped.elicit = async (form) => {
      await notify(form.message);
      return elicit.call(asker, form);
    };
  if (askQuestions)
    wrapped.askQuestions = async (questions) => {
      await notify(questions.map((q) => q.question).join('\n'));
      return askQuestions.call(asker, questions);
    };
  return wrapped;
}

export function notifyingPrompter(prompter: Prompter, hooks: HookSink): Prompter {
  return {
    async ask(req) {
      await hooks.fire('notification', { message: `core-agent asks permission to run ${req.tool}` });
      return prompter.ask(req);
    },
  };
}
