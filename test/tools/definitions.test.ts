import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { recipeJsonSchema } from '../../src/config/recipe-schema.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { fillDescription } from '../../src/tools/framework/describe.ts';
import { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS, MISSING_REASONS } from '../../src/tools/index.ts';
import { kindFromHints, kindTraits } from '../../src/tools/framework/kinds.ts';
import { everyService } from '../helpers/services.ts';
import { HINT_CASES, NEED_CASES, TRAIT_CASES } from './definitions.cases.ts';

const traitsOf = (t: ReturnType<typeof kindTraits>) => [t.readOnly, t.fileEdit, t.lifecycle, t.destructive, t.openWorld];

describe('kinds', () => {
  it('name built-in tools (the tools that had traits before kinds; a newer tool states its kind in its file)', () => {
    expect(TRAIT_CASES.length).toBe(33);
    for (const c of TRAIT_CASES) expect(BUILTIN_TOOL_NAMES, c.tool).toContain(c.tool);
  });

  for (const c of TRAIT_CASES) {
    it(`${c.tool}: its kind gives the traits it always had`, () => {
      const def = BUILTIN_TOOLS.find((t) => t.name === c.tool)!;
      expect(traitsOf(kindTraits(def.kind))).toEqual(c.traits);
    });
  }

  for (const c of HINT_CASES) {
    it(`MCP hints readOnly=${c.hints[0]} destructive=${c.hints[1]} openWorld=${c.hints[2]}`, () => {
      const [readOnly, destructive, openWorld] = c.hints;
      expect(traitsOf(kindTraits(kindFromHints({ readOnly, destructive, openWorld })))).toEqual(c.traits);
    });
  }
});

describe('needs', () => {
  it('the matrix names only tools that need what it says (its reasons are pinned below)', () => {
    for (const c of NEED_CASES) expect(BUILTIN_TOOLS.find((t) => t.name === c.tool)?.needs ?? [], c.tool).toContain(c.missing);
  });

  // Every tool, the matrix's and a new one alike: each need it declares keeps it out, with a reason, when missing.
  for (const tool of BUILTIN_TOOLS.filter((t) => (t.needs ?? []).length > 0)) {
    for (const need of tool.needs!) {
      it(`${tool.name} is registered with ${need} and left out without it, with a reason`, () => {
        // Enabled by name: another dialect's tool (Cagent's web_fetch) is registered beside this one's.
        const every = { enable: [tool.name], allowOverlap: true };
        expect(Catalog.build(BUILTIN_TOOLS, { services: everyService(), ...every }).has(tool.name)).toBe(true);
        const without = Catalog.build(BUILTIN_TOOLS, {
          services: everyService({ [need]: need === 'shell' ? false : undefined }),
          reasons: MISSING_REASONS,
          ...every,
        });
        expect(without.has(tool.name)).toBe(false);
        // The providing family (or the framework) says why: never the generic sentence of a service nobody explains.
        expect(without.skipped.find((s) => s.name === tool.name)?.reason).toMatch(/\w/);
        expect(without.skipped.find((s) => s.name === tool.name)?.reason).not.toMatch(/service is not configured in this run/);
      });
    }
  }

  for (const c of NEED_CASES) {
    it(`${c.tool} is left out without ${c.missing}, saying why`, () => {
      const every = { enable: [c.tool], allowOverlap: true };
      const all = Catalog.build(BUILTIN_TOOLS, { services: everyService(), ...every });
      expect(all.has(c.tool)).toBe(true);
      const without = Catalog.build(BUILTIN_TOOLS, {
        services: everyService({ [c.missing]: c.missing === 'shell' ? false : undefined }),
        reasons: MISSING_REASONS,
        ...every,
      });
      expect(without.has(c.tool)).toBe(false);
      expect(without.skipped.find((s) => s.name === c.tool)?.reason).toEqual(c.reason);
    });
  }

  it('a cluster that is missing for a known reason says that reason', () => {
    const cat = Catalog.build(BUILTIN_TOOLS, {
      services: everyService({ kube: undefined, kubeUnavailable: 'kubernetes.enabled is false' }),
      reasons: MISSING_REASONS,
    });
    expect(cat.skipped.find((s) => s.name === 'k8s_get')?.reason).toBe('kubernetes.enabled is false');
  });

  it('the terminal tools go with bash', () => {
    const cat = Catalog.build(BUILTIN_TOOLS, { services: everyService({ shell: false }) });
    for (const t of ['terminal_output', 'terminal_write', 'terminal_kill', 'wait_join']) {
      expect(cat.skipped.find((s) => s.name === t)?.reason).toBe('it needs bash, which is not registered');
    }
  });
});

describe('settings', () => {
  it('are parsed once, with the defaults filled in (ctx.settings)', () => {
    const cat = Catalog.build(BUILTIN_TOOLS, { services: everyService(), settings: { bash: { max_timeout_seconds: 900 } } });
    expect(cat.get('bash')!.settings).toEqual({
      default_timeout_seconds: 120,
      max_timeout_seconds: 900,
      pass_env: [],
      max_terminals: 8,
      terminal_retain_bytes: 1048576,
    });
    expect(cat.get('wait_and_verify')!.settings).toMatchObject({ max_timeout_seconds: 300, poll_allow: [] });
    expect(cat.get('read_file')!.settings).toEqual({});
  });

  it('every settings schema is strict, and the recipe shows no default (the operator writes what they mean)', () => {
    const schema = recipeJsonSchema(BUILTIN_TOOLS) as { properties: { tools: { properties: Record<string, unknown> } } };
    const sections = schema.properties.tools.properties;
    for (const def of BUILTIN_TOOLS.filter((t) => t.settings)) {
      expect(def.settings).toBeInstanceOf(z.ZodObject);
      expect(sections[def.name], def.name).toMatchObject({ additionalProperties: false });
      expect(JSON.stringify(sections[def.name]), def.name).not.toMatch(/"default"/);
    }
    expect(
      Object.keys(sections)
        .filter((k) => !['disable', 'enable', 'dialect', 'allow_overlap', 'kinds'].includes(k))
        .sort(),
    ).toEqual(
      BUILTIN_TOOLS.filter((t) => t.settings)
        .map((t) => t.name)
        .sort(),
    );
  });
});

describe('fillDescription', () => {
  it('fills value and conditional slots, and refuses a missing value or a value without a slot', () => {
    expect(fillDescription('a {{=n}} b{{?on}} c{{/?on}}{{?off}} d{{/?off}}', { n: 3, on: true, off: false })).toBe('a 3 b c');
    expect(() => fillDescription('{{=n}}', {})).toThrow(/no value for "n"/);
    expect(() => fillDescription('x', { n: 1 })).toThrow(/no \{\{=n\}\} slot/);
  });
});
