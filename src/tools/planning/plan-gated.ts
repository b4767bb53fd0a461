import { kindTraits, type ToolKind } from '../framework/kinds.ts';

// Apart from record_plan's module, so the catalog and the gate ask it without evaluating the tool.
/**
 * What plan-first holds back until a plan is recorded: every tool that changes
 * state (session bookkeeping aside), every tool that reaches outside the machine
 * — fetch_url, web_fetch, web_search, the k8s_* tools, read-only or not — and
 * every MCP tool: an MCP namespace is a reach into another system and is
 * deliberately not plan-exempt. Read-only local tools run before the plan.
 */
export function planGated(
  t:
    | { readonly name: string; readonly kind: ToolKind }
    | {
        readonly name: string;
        readonly readOnly: boolean;
        readonly lifecycle?: boolean | undefined;
        readonly openWorld?: boolean | undefined;
      },
): boolean {
  const traits = 'kind' in t ? kindTraits(t.kind) : t;
  return t.name.startsWith('mcp.') || traits.openWorld === true || (!traits.readOnly && traits.lifecycle !== true);
}
