import { ModelConfigError } from '../model/model.ts';
import { modelCredentialProblem, modelSpecProblem, resolveModel } from '../model/providers.ts';
import { modelInfo } from '../model/registry.ts';
import type { AgentSystem } from '../runtime/system.ts';
import { capErrorText } from '../util/error-text.ts';
import { didYouMean, unknownName } from '../config/did-you-mean.ts';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/gate.ts';
import type { ToolCallResult } from '../tools/framework/dispatch.ts';
import { fenced } from './prompt-input.ts';
import { SLASH_COMMANDS } from './repl-completion.ts';

/**
 * The REPL's slash commands that describe the session: what the
 * model can call and why the rest is missing (/tools), the MCP servers and
 * their state (/mcp), the model (/model, which also switches it). Each returns the text to print.
 */
export function toolsReport(s: AgentSystem): string {
  const catalog = s.runtime.catalog;
  const listed = catalog.list();
  const width = Math.max(...listed.map((t) => t.modelName.length), 4);
  const lines = [`${listed.length} tools registered:`];
  for (const t of listed) lines.push(`  ${t.modelName.padEnd(width)}  ${t.kind}${t.name !== t.modelName ? `  (${t.name})` : ''}`);
  if (catalog.skipped.length > 0) {
    lines.push(`not registered (${catalog.skipped.length}):`);
    for (const skipped of catalog.skipped) lines.push(`  ${skipped.name.padEnd(width)}  ${skipped.reason}`);
  }
  return `${lines.join('\n')}\n`;
}

export function mcpReport(s: AgentSystem): string {
  const mcp = s.runtime.mcp;
  const servers = mcp?.status() ?? [];
  if (servers.length === 0) return 'no MCP servers (mcp.servers in the recipe, or .agents/mcp.json with --trust-workspace)\n';
  const tools = s.runtime.catalog.list();
  const lines = servers.map(({ server, status }) => {
    const count = tools.filter((t) => t.name.startsWith(`mcp.${server}.`)).length;
    return `  ${server}  ${status}  ${count} tool${count === 1 ? '' : 's'}`;
  });
  return `${servers.length} MCP server${servers.length === 1 ? '' : 's'}:\n${lines.join('\n')}\n`;
}

/**
 * `/model` shows the model; `/model PROVIDER:MODEL` switches to it for the rest of the
 * session, checked as --model is (the spec, then the provider's variable, then the
 * provider itself): a refusal leaves the session on the model it had.
 */
export async function modelCommand(s: AgentSystem, arg: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (arg === '') return `model ${s.modelSpec}\n`;
  const refused = (why: string) => `core-agent: ${why}; still on ${s.modelSpec}\n`;
  const problem = modelSpecProblem(arg) ?? modelCredentialProblem(arg, env);
  if (problem) return refused(problem);
  let model;
  try {
    model = await resolveModel(arg, env);
  } catch (err) {
    if (err instanceof ModelConfigError) return refused(err.message);
    return refused(`model ${arg.slice(0, 80)} could not be loaded: ${capErrorText((err as Error).message ?? String(err), 300)}`);
  }
  const was = s.modelSpec;
  // The registry's window and price for the new model, under the recipe's context: as at start-up.
  const info = modelInfo(arg, s.runtime.recipe.context ?? {});
  s.agent.useModel(model, arg, { price: info.price, window: info.contextWindow });
  s.modelSpec = arg;
  return `model ${arg} (was ${was}); the conversation carries on\n`;
}

/**
 * `/mode` shows the permission mode; `/mode MODE` switches the gate to it for the rest of the
 * session (recorded as the operator's action; a resumed session starts in the mode its flags,
 * environment and files give).
 */
export function modeCommand(s: AgentSystem, arg: string): string {
  const gate = s.runtime.gate;
  if (arg === '') return `mode ${gate.mode} (/mode ${PERMISSION_MODES.join('|')} switches)\n`;
  if (!(PERMISSION_MODES as readonly string[]).includes(arg))
    return `core-agent: ${unknownName('permission mode', arg.slice(0, 40), PERMISSION_MODES)}; still ${gate.mode}\n`;
  const was = gate.mode;
  gate.setMode(arg as PermissionMode);
  s.log.append(s.sessionId, s.agent.turn, 'operator', { action: 'mode', from: was, to: arg, principal: 'repl' });
  return `mode ${arg} (was ${was})\n`;
}

/** What the model reads of an operator's `!COMMAND`, before their next message (Claude Code's bash mode does the same). */
export function operatorShellBlock(command: string, r: ToolCallResult): string {
  const shown = command.length > 500 ? `${command.slice(0, 497)}...` : command;
  if (!r.ok) return `The operator ran \`${shown}\` in the shell; it did not run: ${capErrorText(r.error, 500)}`;
  const exit = r.result.exit_code === 0 ? 'exit 0' : `exit ${String(r.result.exit_code)}`;
  return fenced(`The operator ran \`${shown}\` in the shell (${exit}), output:`, String(r.result.output ?? ''));
}

/**
 * A line that starts with `/` and is no command: the closest command when it is likely a typo
 * (`/stast` → `/stats`, `/quit` is /exit's other name and never reaches here), else the list.
 * Nothing is sent to the model: a mistyped command is not a message.
 */
export function unknownSlashCommand(line: string, commands: string): string {
  const word = line.split(/\s/, 1)[0]!.slice(0, 40);
  // A word of a letter or two is close to every command: no guess.
  const meant = word.length >= 3 ? didYouMean(word, SLASH_COMMANDS) : undefined;
  return meant
    ? `unknown command ${word} — did you mean ${meant}? (nothing was sent to the model)\n`
    : `unknown command ${word}; ${commands}\n`;
}

/**
 * /agents: this session's child agents (spawn_agent and its kin), each with its profile, state,
 * turns and cost, a child's own children indented under it; `/agents stop NAME` stops one and
 * its children (a background child otherwise runs on between turns until it ends).
 */
export async function agentsCommand(s: Pick<AgentSystem, 'children' | 'sessionId'>, arg: string): Promise<string> {
  const [verb = '', name = '', ...rest] = arg.split(/\s+/).filter(Boolean);
  if (verb === 'stop' && name !== '' && rest.length === 0) {
    const report = await s.children.stop(name, s.sessionId);
    if (!report) return `no agent "${name.slice(0, 60)}" in this session; /agents lists them\n`;
    return `stopped ${report.name}: ${report.status}${report.stopReason ? ` (${report.stopReason})` : ''}\n`;
  }
  if (verb !== '') return "/agents lists this session's child agents; /agents stop NAME stops one (and its own children)\n";
  const mine = s.children.list().filter((r) => r.sessionId.startsWith(`${s.sessionId}:sub:`));
  if (mine.length === 0) return 'no child agents in this session (the model starts them with spawn_agent)\n';
  const width = Math.max(...mine.map((r) => r.name.length + 2 * depthOf(r.sessionId)));
  const lines = mine.map((r) => {
    const name = `${'  '.repeat(depthOf(r.sessionId))}${r.name}`.padEnd(width);
    const state = r.status === 'running' ? 'running' : `${r.status}${r.stopReason ? ` (${r.stopReason})` : ''}`;
    const cost = r.costUsd === null ? 'cost unknown' : `$${r.costUsd.toFixed(4)}`;
    return `  ${name}  ${r.profile}  ${state}, ${r.turns} turn(s), ${cost}`;
  });
  return `${lines.join('\n')}\n`;
}

/** 0 for the session's own children, 1 for theirs, … */
function depthOf(sessionId: string): number {
  return sessionId.split(':sub:').length - 2;
}
