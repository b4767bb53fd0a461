import picomatch from 'picomatch';

/**
 * A permission rule: `tool.<name>` matches every call of a tool, and
 * `tool.<name>:<pattern>` only calls whose subject matches the pattern. A
 * subject is a path (file tools: workspace-relative or absolute) or a text
 * (bash's command line, fetch_url's URL, web_search's query, alert's target,
 * and the command names under `tool.bash.cmd`), and the pattern is read the way
 * that kind of subject needs:
 *
 *   path  a glob: `*` stays inside one path segment, `**` crosses them
 *         (`tool.write_file:docs/**`).
 *   text  `*` matches any run of characters — `/` and spaces included — and
 *         `?` any one character; `\` makes the next character literal; nothing
 *         else is special. `tool.bash:find *` covers `find /tmp -type f`, as
 *         the Go original's open-prefix rules do: a command line is not a path.
 *
 * `*` in the namespace part matches anything (`tool.*`).
 */
export interface Rule {
  readonly source: string;
  readonly namespace: RegExp;
  readonly subject: { readonly path: (s: string) => boolean; readonly text: (s: string) => boolean } | null;
  /**
   * The rule covers more than one exact call: a `*` in the namespace, a command-name
   * rule (`tool.bash.cmd:git`: every git line), no subject part at all, or a `*`/`?`
   * in the pattern. Only wildcard rules are limited by `GateRequest.wildcardAllowable`.
   */
  readonly wildcard: boolean;
}

/** One subject of a call, in every spelling a rule may use (a path: relative and absolute). */
export interface Subject {
  readonly kind: 'path' | 'text';
  readonly forms: readonly string[];
}

export const RULE_SYNTAX =
  'tool.<name> or tool.<name>:<pattern> (e.g. "tool.write_file:docs/**", "tool.bash:git *"), mcp.<server> or mcp.<server>.<tool> (e.g. "mcp.gke.*"), or "*"';

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
  const pattern = colon === -1 ? null : trimmed.slice(colon + 1);
  if (!/^tool\.[A-Za-z0-9_.*-]+$/.test(ns)) {
    throw new Error(`"${source}" is not a permission rule; expected ${RULE_SYNTAX}`);
  }
  if (pattern !== null && pattern.length === 0) throw new Error(`"${source}" has an empty pattern after ":"`);
  const namespace = new RegExp(`^${ns.split('*').map(escapeRegExp).join('.*')}$`);
  if (pattern === null) return { source, namespace, subject: null, wildcard: true };
  const text = textPattern(pattern);
  return {
    source,
    namespace,
    subject: { path: picomatch(pattern, { dot: true }), text: (s) => text.regex.test(s) },
    // An exact `tool.bash:make build && make test` allows exactly that line.
    wildcard: ns.includes('*') || ns.endsWith('.cmd') || text.wildcard,
  };
}

/** A text pattern as an anchored regular expression (`*` → any run, `?` → one character, `\x` → x). */
function textPattern(pattern: string): { regex: RegExp; wildcard: boolean } {
  let out = '';
  let wildcard = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += escapeRegExp(pattern[++i]!);
    else if (c === '*') {
      out += '[\\s\\S]*';
      wildcard = true;
    } else if (c === '?') {
      out += '[\\s\\S]';
      wildcard = true;
    } else out += escapeRegExp(c);
  }
  return { regex: new RegExp(`^${out}$`), wildcard };
}

/**
 * `mcp.<server>` (every tool of the server), `mcp.<server>.<tool>`, with `*`
 * anywhere (`mcp.*`, `mcp.gke.get_*`). MCP calls have no subject, so no `:pattern`.
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

export function ruleMatches(rule: Rule, namespace: string, subjects: readonly Subject[], mode: 'any' | 'all'): boolean {
  if (!rule.namespace.test(namespace)) return false;
  const matcher = rule.subject;
  if (matcher === null) return true;
  if (subjects.length === 0) return false;
  const hit = (s: Subject) => s.forms.some((form) => matcher[s.kind](form));
  return mode === 'any' ? subjects.some(hit) : subjects.every(hit);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
