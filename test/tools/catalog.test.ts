import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import type { NetworkAccess } from '../../src/net/network-access.ts';
import { UrlScope } from '../../src/net/url-scope.ts';
import { Catalog, CatalogError, type CatalogSelection } from '../../src/tools/framework/catalog.ts';
import { referencedTools, renderDescription } from '../../src/tools/framework/describe.ts';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS as DEFS } from '../../src/tools/index.ts';
import { defineTool, type AnyTool } from '../../src/tools/framework/tool.ts';
import { everyService } from '../helpers/services.ts';

/** Every built-in registered (plan_mode required): a catalog to read descriptions from. */
const BUILTIN_TOOLS = { defs: DEFS, services: everyService() };
const build = (tools: { defs: readonly AnyTool[]; services: CatalogSelection['services'] }, selection: CatalogSelection = {}) =>
  Catalog.build(tools.defs, { services: tools.services, ...selection });

/** Every way a description or schema could name a tool: `name` in backticks, or the bare word. */
/**
 * Words in a description that are a tool's name by coincidence: Scion's status type ask_user is not
 * the tool, nor is the skill writers' argument `skill` (golem's name for a skill's name).
 */
const NOT_A_TOOL: Readonly<Record<string, readonly string[]>> = {
  sciontool_status: ['ask_user'],
  write_skill_file: ['skill'],
  delete_skill: ['skill'],
};

function mentions(text: string, tool: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])${tool}([^A-Za-z0-9_]|$)`).test(text);
}

describe('the built-in catalog', () => {
  it("registers every implemented tool in canonical order by default, other dialects' tools for a job left out", () => {
    const otherDialects = [
      'apply_patch',
      'web_fetch',
      'request_user_input',
      'update_plan',
      // golem's Memory* engines: only their faces are offered, in golem's dialect.
      'memory_create',
      'memory_delete',
      'memory_insert',
      'memory_rename',
      'memory_str_replace',
      'memory_view',
      'memory_write',
      'delegate_agent',
      'ask_user_question',
    ];
    expect(build(BUILTIN_TOOLS).names()).toEqual(BUILTIN_TOOL_NAMES.filter((n) => !otherDialects.includes(n)));
    const all = build(BUILTIN_TOOLS, { enable: otherDialects, allowOverlap: true });
    expect(all.names()).toEqual([...BUILTIN_TOOL_NAMES]);
  });

  it('disables by canonical name, and an unknown name is an error listing the valid ones', () => {
    expect(build(BUILTIN_TOOLS, { disable: ['grep', 'write_file'] }).names()).not.toContain('grep');
    expect(() => build(BUILTIN_TOOLS, { disable: ['gerp'] })).toThrow(CatalogError);
    expect(() => build(BUILTIN_TOOLS, { disable: ['gerp'] })).toThrow(
      `unknown tool "gerp" — did you mean "grep"? Valid: ${BUILTIN_TOOL_NAMES.join(', ')}`,
    );
    expect(() => build(BUILTIN_TOOLS, { enable: ['agentic_summarize_file'] })).toThrow(/unknown tool "agentic_summarize_file"/);
  });

  it('enable puts back what disable removed', () => {
    expect(build(BUILTIN_TOOLS, { disable: ['grep'], enable: ['grep'] }).has('grep')).toBe(true);
  });

  it('leaves out a tool whose own registration condition (available) fails, and reports why', () => {
    const picky = defineTool({
      name: 'picky',
      description: 'needs a cluster with a name',
      kind: 'read',
      narrowHint: '',
      args: z.strictObject({}),
      available: (s) => (s.kube ? null : 'no cluster here'),
      run: async () => ({}),
    }) as AnyTool;
    const cat = Catalog.build([...DEFS, picky], { services: everyService({ kube: undefined }) });
    expect(cat.has('picky')).toBe(false);
    expect(cat.skipped).toContainEqual({ name: 'picky', reason: 'no cluster here' });
    expect(Catalog.build([...DEFS, picky], { services: everyService() }).has('picky')).toBe(true);
  });

  it('gives every tool a draft-7 JSON Schema with no extra properties allowed', () => {
    for (const t of build(BUILTIN_TOOLS).list()) {
      expect(t.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties).toBe(false);
    }
  });

  it('has descriptions that name only registered tools, for every single disabled tool', () => {
    for (const gone of BUILTIN_TOOL_NAMES) {
      const cat = build(BUILTIN_TOOLS, { disable: [gone] });
      for (const t of cat.list()) {
        const surface = JSON.stringify({ d: t.description, s: t.inputSchema });
        if (NOT_A_TOOL[t.name]?.includes(gone)) continue;
        expect(mentions(surface, gone), `${t.name} mentions disabled ${gone}: ${t.description}`).toBe(false);
      }
    }
  });

  it('has descriptions that keep their cross-references when the other tool is registered', () => {
    const all = build(BUILTIN_TOOLS);
    expect(all.get('read_file')!.description).toContain('`read_many_files`');
    expect(all.get('grep')!.description).toContain('`read_file` as `offset`');
    const alone = build(BUILTIN_TOOLS, { disable: BUILTIN_TOOL_NAMES.filter((n) => n !== 'grep') });
    expect(alone.get('grep')!.description).not.toMatch(/read_file/);
  });

  it('with bash left out (a distroless recipe), no description mentions it', () => {
    for (const t of build(BUILTIN_TOOLS, { disable: ['bash'] }).list()) expect(mentions(t.description, 'bash'), t.name).toBe(false);
    expect(build(BUILTIN_TOOLS).get('read_file')!.description).toMatch(/PREFERRED over `bash cat`/);
  });

  it("says what the code does: wait_and_verify over sleep and cite the evidence, fetch_url's scheme, host and body rules, replace_all", () => {
    const network = { scope: UrlScope.parse(['example.com', 'http://10.0.0.5'], []) } as unknown as NetworkAccess;
    const tools = { defs: DEFS, services: everyService({ network }) };
    const all = build(tools);
    const wait = all.get('wait_and_verify')!.description;
    expect(wait).toMatch(/Prefer it over polling across turns, and over `sleep` in bash followed by a re-check/);
    expect(wait).toMatch(/Cite this evidence/);
    expect(wait).toMatch(/The budget covers the polls and the `expect_jq` evaluations alike/);
    expect(build(tools, { disable: ['bash'] }).get('wait_and_verify')!.description).not.toMatch(/sleep/);
    const fetch = all.get('fetch_url')!.description;
    expect(fetch).toMatch(/Use https:\/\/ URLs: plain http:\/\/ works only for hosts the operator allowed with an http:\/\/ entry/);
    expect(fetch).toMatch(
      /Loopback and private addresses .* are reachable only when their exact host is allowed, never through a wildcard entry/,
    );
    expect(fetch).toMatch(/The body is cut at 1 MiB unless the operator set another limit/);
    expect(all.get('edit_file')!.description).toMatch(/`replace_all` is for a rename.*the wrong fix when you meant one place/);
  });

  it('only references tools by sections the renderer understands', () => {
    for (const def of DEFS) {
      const template =
        typeof def.description === 'string' ? def.description : def.description({ services: BUILTIN_TOOLS.services, registered: DEFS });
      for (const ref of referencedTools(template)) expect(ref).toMatch(/^[a-z0-9_]+$/);
      expect(() => renderDescription(template, () => true)).not.toThrow();
    }
  });
});

describe('renderDescription', () => {
  it('keeps {{#x}} passages when x is registered and {{^x}} passages when it is not', () => {
    const t = 'Base.{{#grep}} Use `grep`.{{/grep}}{{^grep}} No search.{{/grep}}';
    expect(renderDescription(t, (n) => n === 'grep')).toBe('Base. Use `grep`.');
    expect(renderDescription(t, () => false)).toBe('Base. No search.');
  });

  it('rejects an unbalanced section', () => {
    expect(() => renderDescription('A {{#grep}} oops', () => true)).toThrow(/unbalanced/);
  });
});

describe('a custom tool through the framework', () => {
  it('validates its arguments and renders its description against the catalog', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echo.{{#read_file}} See `read_file`.{{/read_file}}',
      kind: 'read',
      narrowHint: '',
      args: z.strictObject({ text: z.string() }),
      run: async (a) => ({ text: a.text }),
    }) as unknown as AnyTool;
    const cat = Catalog.build([echo]);
    expect(cat.get('echo')!.description).toBe('Echo.');
    expect(cat.get('echo')!.inputSchema.required).toEqual(['text']);
  });
});
