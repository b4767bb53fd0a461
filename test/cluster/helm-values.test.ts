// The chart's values matrix (test/helm/values.cases.ts): each case is rendered by the
// real helm (`helm template`, no cluster needed) and its fragments, absences or render
// failure are checked. It sits in the k8s project only because helm comes from the
// same Go-module build as the cluster binaries (test/cluster/build.sh).
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { isExact, VALUES_CASES, type ValuesCase } from '../helm/values.cases.ts';
import { chartDir, GOLDEN_NAMESPACE, GOLDEN_RELEASE, parseManifests, runHelm, type Manifest } from './helm-chart.ts';

/** --set / --set-json arguments: "key=value" and "key:=JSON". */
function helmArgs(values: string[]): string[] {
  return values.flatMap((v) => {
    const json = /^([^=:]+):=(.*)$/s.exec(v);
    return json ? ['--set-json', `${json[1]}=${json[2]}`] : ['--set', v];
  });
}

/** a.b[0].c[name=x], with "\." for a dot inside a key. */
function resolve(root: unknown, path: string): unknown {
  const segments = path.split(/(?<!\\)\./).map((s) => s.replace(/\\\./g, '.'));
  let at: unknown = root;
  for (const segment of segments) {
    const [, key, ...selectors] = /^([^[]*)((?:\[[^\]]*\])*)$/.exec(segment)!;
    if (key) at = (at as Record<string, unknown> | undefined)?.[key];
    for (const sel of selectors.join('').match(/\[[^\]]*\]/g) ?? []) {
      const inner = sel.slice(1, -1);
      const eq = inner.indexOf('=');
      if (!Array.isArray(at)) return undefined;
      at = eq < 0 ? at[Number(inner)] : at.find((e: Record<string, unknown>) => String(e?.[inner.slice(0, eq)]) === inner.slice(eq + 1));
    }
    if (at === undefined) return undefined;
  }
  return at;
}

/** "Kind[/name][:path]" → the value; "Recipe:" is the recipe.yaml of the recipe ConfigMap, parsed. */
function locate(ms: Manifest[], where: string): { found: boolean; value: unknown } {
  const colon = where.indexOf(':');
  const [target, path] = colon < 0 ? [where, ''] : [where.slice(0, colon), where.slice(colon + 1)];
  const [kind, name] = target.split('/');
  let root: unknown;
  if (kind === 'Recipe') {
    const cm = ms.find((m) => m.kind === 'ConfigMap' && m.metadata.name.endsWith('-recipe')) as Manifest & { data: Record<string, string> };
    root = parseYaml(cm.data['recipe.yaml']!);
  } else {
    const matches = ms.filter((m) => m.kind === kind && (!name || m.metadata.name === name));
    if (matches.length > 1) throw new Error(`${where}: ${matches.length} ${kind} objects; name one as ${kind}/NAME`);
    root = matches[0];
  }
  const value = root === undefined ? undefined : path ? resolve(root, path) : root;
  return { found: value !== undefined, value };
}

async function render(c: ValuesCase) {
  return runHelm(['template', GOLDEN_RELEASE, chartDir, '--namespace', GOLDEN_NAMESPACE, ...helmArgs(c.values)]);
}

describe('helm/core-agent values matrix (test/helm/values.cases.ts)', () => {
  it('holds cases of every kind', () => {
    expect(VALUES_CASES.filter((c) => c.fails).length).toBeGreaterThan(20);
    expect(VALUES_CASES.filter((c) => c.has).length).toBeGreaterThan(20);
    expect(new Set(VALUES_CASES.map((c) => c.name)).size, 'case names are unique').toBe(VALUES_CASES.length);
  });

  it.each(VALUES_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const r = await render(c);
    if (c.fails) {
      expect(r.code, `must fail; rendered:\n${r.stdout.slice(0, 400)}`).not.toBe(0);
      expect(r.stderr).toMatch(c.fails);
      // A user's mistake gets a message, not a template dump.
      expect(r.stderr.length).toBeLessThan(2000);
      return;
    }
    expect(r.code, r.stderr).toBe(0);
    const ms = parseManifests(r.stdout);
    for (const [where, want] of c.has ?? []) {
      const { found, value } = locate(ms, where);
      expect(found, `${where} is rendered`).toBe(true);
      if (isExact(want)) expect(value, where).toEqual(want.exact);
      else if (want !== null && typeof want === 'object' && !('asymmetricMatch' in want)) expect(value, where).toMatchObject(want);
      else expect(value, where).toEqual(want);
    }
    for (const where of c.lacks ?? []) expect(locate(ms, where).found, `${where} must not be rendered`).toBe(false);
  });
});
