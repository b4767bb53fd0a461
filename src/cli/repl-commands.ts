import type { AgentSystem } from '../runtime/system.ts';

/**
 * The REPL's read-only slash commands that describe the session: what the
 * model can call and why the rest is missing (/tools), the MCP servers and
 * their state (/mcp), the model (/model). Each returns the text to print.
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

export function modelReport(s: AgentSystem, arg: string): string {
  const now = `model ${s.modelSpec}`;
  if (arg === '') return `${now}\n`;
  // Switching mid-session would need the new provider's key checked and the log to say so; not yet.
  return `${now}; switching models inside a session is not supported yet: leave (/exit) and resume it with --continue --model ${arg}\n`;
}
