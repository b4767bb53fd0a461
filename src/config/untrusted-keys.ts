/**
 * What a project file (`<workspace>/.agents/config.yaml`) may set when the
 * workspace is not trusted (no --trust-workspace). The workspace may be a
 * cloned repository: its file must not get to widen what the agent may do —
 * yolo mode, allow rules, MCP servers or hooks that start commands, a
 * kubeconfig (whose exec plugins run commands), an API key sent to a URL of its
 * choosing, a replayed "model" that issues the tool calls the file's author
 * wrote. So this is an allow list: a key is kept only when it can only narrow
 * the run or inform the model (as AGENTS.md already does); any other key, and
 * any key a later build adds, is ignored with a warning at its position.
 */
export interface SafeKey {
  /** The dotted path; the whole value under it is kept. */
  readonly path: string;
  /** When present, only these values are kept (others widen the run). */
  readonly when?: (value: unknown) => boolean;
  /** What the refusal says the value would do (when `when` refuses it). */
  readonly because?: string;
}

export const UNTRUSTED_SAFE_KEYS: readonly SafeKey[] = [
  {
    path: 'model',
    when: (v) => typeof v === 'string' && !v.startsWith('replay:'),
    because: 'a replayed model makes the tool calls its file holds',
  },
  { path: 'instructions' },
  { path: 'max_steps' },
  { path: 'tools.disable' },
  { path: 'tool_output' },
  { path: 'permissions.deny' },
  { path: 'permissions.mode', when: (v) => v === 'ask' || v === 'plan', because: 'it runs calls without asking' },
  { path: 'permissions.plan_mode', when: (v) => v !== 'off', because: 'it turns plan-first off' },
  { path: 'permissions.path_scope.deny' },
  { path: 'permissions.url_scope.deny' },
  { path: 'safety.bash_search_gate', when: (v) => v === 'enforce', because: 'it relaxes the search gate' },
  { path: 'kubernetes.enabled', when: (v) => v === false, because: 'it turns the Kubernetes tools on' },
  { path: 'kubernetes.required' },
  { path: 'kubernetes.denied_resources' },
];

/** One key an untrusted project file set and that is left out: its path and why. */
export interface UntrustedKey {
  path: readonly string[];
  why: string;
}

/** `value` with only the safe keys, and the keys left out. */
export function keepTrustedKeys(value: Record<string, unknown>): { kept: Record<string, unknown>; dropped: UntrustedKey[] } {
  const dropped: UntrustedKey[] = [];
  const walk = (node: Record<string, unknown>, path: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(node)) {
      const at = [...path, key];
      const dotted = at.join('.');
      const exact = UNTRUSTED_SAFE_KEYS.find((k) => k.path === dotted);
      if (exact) {
        if (!exact.when || exact.when(v)) out[key] = v;
        else dropped.push({ path: at, why: exact.because ?? 'it widens the run' });
        continue;
      }
      const under = UNTRUSTED_SAFE_KEYS.some((k) => k.path.startsWith(`${dotted}.`));
      if (under && typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const inner = walk(v as Record<string, unknown>, at);
        if (Object.keys(inner).length > 0) out[key] = inner;
      } else {
        dropped.push({ path: at, why: 'only keys that narrow the run are read from an untrusted workspace' });
      }
    }
    return out;
  };
  return { kept: walk(value, []), dropped };
}
