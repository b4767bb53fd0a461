import picomatch from 'picomatch';

/**
 * A permission rule: `tool.<name>` matches every call of a tool, and
 * `tool.<name>:<glob>` only calls whose subject matches the glob — for file
 * tools the path (workspace-relative, or absolute), later the command verb for
 * `tool.bash.cmd:rm`. `*` in the namespace part matches anything (`tool.*`).
 */
export interface Rule {
  readonly source: string;
  readonly namespace: RegExp;
  readonly subject: ((s: string) => boolean) | null;
  /** The rule covers more than one exact call (a `*` anywhere, or no subject part at all). */
  readonly wildcard: boolean;
}

export const RULE_SYNTAX =
  'tool.<name> or tool.<name>:<glob> (e.g. "tool.write_file:docs/**"), mcp.<server> or mcp.<server>.<tool> (e.g. "mcp.gke.*"), or "*"';

/** What rules match a tool under: `tool.<name>` for built-ins, the canonical `mcp.<server>.<tool>` for MCP tools. */
export function gateNamespace(tool: string): string {
  return tool.startsWith('mcp.') ? tool : `tool.${tool}`;
}

export function parseRule(source: string): Rule {
  const trimmed = source.trim();
  if (trimmed === '*') return { source, namespace: /^.*$/, subject: null, wildcard: true };
  if (trimmed.startsWith('mcp.')) return parseMcpRule(source, trimmed);
  const colon = trimmed.indexOf(':');
  const ns = colon === -1 ? trimmed : trimmed.slice(0, colon);
  const glob = colon === -1 ? null : trimmed.slice(colon + 1);
  if (!/^tool\.[A-Za-z0-9_.*-]+$/.test(ns)) {
    throw new Error(`"${source}" is not a permission rule; expected ${RULE_SYNTAX}`);
  }
  if (glob !== null && glob.length === 0) throw new Error(`"${source}" has an empty pattern after ":"`);
  const namespace = new RegExp(`^${ns.split('*').map(escapeRegExp).join('.*')}$`);
  return {
    source,
    namespace,
    subject: glob === null ? null : picomatch(glob, { dot: true }),
    // An exact `tool.bash:make build && make test` allows exactly that line; a rule
    // with a glob, a whole-namespace rule, or a command-name rule (`tool.bash.cmd:git`:
    // every git command line) covers many.
    wildcard: ns.includes('*') || ns.endsWith('.cmd') || glob === null || /[*?[\]{}]/.test(glob),
  };
}

/**
 * `mcp.<server>` (every tool of the server), `mcp.<server>.<tool>`, with `*`
 * anywhere (`mcp.*`, `mcp.gke.get_*`). MCP calls have no subject, so no `:glob`.
 */
function parseMcpRule(source: string, trimmed: string): Rule {
  if (trimmed.includes(':')) throw new Error(`"${source}": MCP rules name a server or tool and take no ":pattern"`);
  const m = /^mcp\.([A-Za-z0-9_*-]+)(?:\.(\S+))?$/.exec(trimmed);
  if (!m) throw new Error(`"${source}" is not a permission rule; expected ${RULE_SYNTAX}`);
  const pattern = (part: string) => part.split('*').map(escapeRegExp).join('.*');
  const tool = m[2] === undefined ? '\\..+' : `\\.${pattern(m[2])}`;
  return { source, namespace: new RegExp(`^mcp\\.${pattern(m[1]!)}${tool}$`), subject: null, wildcard: true };
}

/** The tool names a rule refers to literally (no wildcard), for typo checks. */
export function ruleToolName(source: string): string | null {
  const ns = source.trim().split(':')[0] ?? '';
  const name = ns.split('.')[1];
  if (!ns.startsWith('tool.') || name === undefined || name.includes('*')) return null;
  return name;
}

/** One subject of a call, in every spelling a rule may use (relative and absolute path). */
export type Subject = readonly string[];

export function ruleMatches(rule: Rule, namespace: string, subjects: readonly Subject[], mode: 'any' | 'all'): boolean {
  if (!rule.namespace.test(namespace)) return false;
  const matchSubject = rule.subject;
  if (matchSubject === null) return true;
  if (subjects.length === 0) return false;
  const hit = (s: Subject) => s.some((form) => matchSubject(form));
  return mode === 'any' ? subjects.some(hit) : subjects.every(hit);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
