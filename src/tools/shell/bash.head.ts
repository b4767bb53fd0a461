// What registering bash runs of its code: the description, which depends on the run (the search
// gate's mode, the search tools registered). Apart from bash.ts so that the bundle renders it
// without evaluating the tool's module and its zod schemas (a `<tool>.head.ts` beside a tool:
// scripts/bundle/tool-family.mjs; it must not import zod, test/tools/tool-head.test.ts holds that).
import { fillDescription } from '../framework/describe.ts';
import type { DescribeEnv } from '../framework/tool.ts';
import template from './bash.md';
import { SEARCH_VERBS, type SearchGateMode } from './search-gate.ts';

export const BASH_DEFAULTS = { default_timeout_seconds: 120, max_timeout_seconds: 600 } as const;

/** The native tools the search gate can point to, among those registered. */
export function searchTargets(has: (name: string) => boolean): Set<'grep' | 'glob'> {
  return new Set((['grep', 'glob'] as const).filter((t) => has(t)));
}

/** bash.md, with the search gate's sentence for this run's mode and the search tools registered. */
export function description({ services, registered }: DescribeEnv): string {
  return describe(
    services.searchGate ?? 'enforce',
    registered.map((t) => t.name),
  );
}

function describe(mode: SearchGateMode, registered: readonly string[]): string {
  const has = (n: string) => registered.includes(n);
  const targets = searchTargets(has);
  let searchGate: string;
  if (mode === 'enforce' && targets.size > 0) {
    const which = (t: 'grep' | 'glob') =>
      Object.entries(SEARCH_VERBS)
        .filter(([, tool]) => tool === t)
        .map(([v]) => `\`${v}\``)
        .join(', ');
    const rules = [...targets].map((t) => `${which(t)} → use the \`{{@${t}}}\` tool`).join('; ');
    const fine = targets.has('grep')
      ? 'piping into them (`make test | grep FAIL`) is fine'
      : 'a find that acts on files (-exec, -delete) is fine';
    searchGate = `Search-shaped commands are REFUSED (${rules}); ${fine}.`;
  } else {
    searchGate =
      '{{#grep}}Search file contents with the `{{@grep}}` tool rather than grep or rg here. {{/grep}}{{#glob}}Find files by name with `{{@glob}}` rather than find here.{{/glob}}';
  }
  return fillDescription(template, { default_timeout: BASH_DEFAULTS.default_timeout_seconds, search_gate: searchGate });
}
