import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import * as z from 'zod/v4';
import { describe, expect, it } from 'vitest';
import { esbuildOptions, root } from '../../scripts/bundle/esbuild-options.mjs';
import { companionFile } from '../../scripts/bundle/tool-family.mjs';
import { computeToolHeads, toolFamilies } from '../../scripts/bundle/tool-heads.mjs';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { toolServices, type ToolServices } from '../../src/tools/framework/services.ts';
import type { AnyTool } from '../../src/tools/framework/tool.ts';
import { argsJsonSchema, lazyTool, toolHead, type ToolHead } from '../../src/tools/framework/tool-head.ts';

// The product bundle registers the built-in tools from heads computed at build time
// (src/tools/tool-head.ts); vitest runs the definitions themselves. These tests hold the two
// equal: a head is exactly its definition's registration data, a lazy tool reads as its
// definition, and a catalog of lazy tools lists what one of definitions lists while
// evaluating only the tools whose registration needs their code.

// Each tool's `<name>.head.ts`, where it has one, by tool name (the bundle imports them as they are).
const headModules = new Map<string, { file: string; exports: Record<string, unknown> }>();
for (const { files } of toolFamilies(root)) {
  for (const file of files) {
    const head = companionFile(file);
    if (head === undefined) continue;
    const exported = Object.values((await import(file)) as object);
    const def = BUILTIN_TOOLS.find((d) => exported.includes(d))!;
    headModules.set(def.name, { file: head, exports: (await import(head)) as Record<string, unknown> });
  }
}

/** A head as the bundle carries it: through JSON. */
const shipped = (def: AnyTool): ToolHead => JSON.parse(JSON.stringify(toolHead(def, headModules.get(def.name)?.exports))) as ToolHead;

const lazy = (def: AnyTool, loads: string[]) =>
  lazyTool(shipped(def), () => def, { onLoad: (name) => loads.push(name), companion: headModules.get(def.name)?.exports });

function lazyCatalog(loads: string[]) {
  return BUILTIN_TOOLS.map((def) => lazy(def, loads));
}

const fake = { kube: {}, network: {}, plans: {}, asker: {}, checkpointer: {}, scheduler: {}, digests: {}, peers: {} } as const;

// The service sets a run can have: none, a developer's machine, an incident pod, everything.
const SERVICES: ReadonlyArray<[string, ToolServices]> = [
  ['nothing configured', toolServices()],
  ['a shell and git', toolServices({ shell: true, git: '/usr/bin/git' })],
  [
    'search gate off, plan mode required',
    toolServices({ shell: true, searchGate: 'off', planMode: 'required', plans: fake.plans } as unknown as Partial<ToolServices>),
  ],
  [
    'a cluster, an asker, checkpoints, a scheduler, digests',
    toolServices({
      kube: fake.kube,
      asker: fake.asker,
      checkpointer: fake.checkpointer,
      scheduler: fake.scheduler,
      digests: fake.digests,
    } as unknown as Partial<ToolServices>),
  ],
  ['ask mode plan', toolServices({ shell: true, permissionMode: 'plan' })],
];

const listing = (c: Catalog) =>
  c.list().map((t) => ({ name: t.name, description: t.description, readOnly: t.readOnly, kind: t.kind, inputSchema: t.inputSchema }));

describe('tool heads', () => {
  it.each(BUILTIN_TOOLS.map((d) => [d.name, d] as const))('%s: the lazy tool reads as its definition', (_name, def) => {
    const loads: string[] = [];
    const lazyDef = lazy(def, loads);
    const keys = Object.keys(def).filter((k) => (def as unknown as Record<string, unknown>)[k] !== undefined);
    expect(new Set(Object.keys(lazyDef))).toEqual(new Set(keys));
    // The registration fields answer from the head, without evaluating the module.
    for (const key of ['name', 'kind', 'needs', 'requires', 'digest', 'narrowHint', 'aliases', 'caps'] as const) {
      expect(lazyDef[key]).toEqual(def[key]);
      expect(key in lazyDef).toBe(def[key] !== undefined);
    }
    // A description or `available` that depends on the run comes from the tool's .head.ts, where it has one.
    if (typeof def.description === 'string' || headModules.has(def.name)) expect(lazyDef.description).toBe(def.description);
    if (headModules.has(def.name) && def.available) expect(lazyDef.available).toBe(def.available);
    expect(argsJsonSchema(lazyDef)).toEqual(z.toJSONSchema(def.args, { target: 'draft-7', io: 'input' }));
    expect(loads).toEqual([]);
    // Everything else is the definition's own (once loaded, the same values).
    for (const key of shipped(def).present)
      expect((lazyDef as unknown as Record<string, unknown>)[key]).toBe((def as unknown as Record<string, unknown>)[key]);
    expect(loads).toEqual([def.name]);
    expect(lazyDef.inputSchema).toBeUndefined();
    expect('inputSchema' in lazyDef).toBe(false);
  });

  it("a definition's own schema method gives what z.toJSONSchema gives (catalog.ts uses the method: it imports no zod)", () => {
    for (const def of BUILTIN_TOOLS) {
      expect(def.args.toJSONSchema({ target: 'draft-7', io: 'input' })).toEqual(
        z.toJSONSchema(def.args, { target: 'draft-7', io: 'input' }),
      );
    }
  });

  it.each(SERVICES)('a catalog of lazy tools lists what the definitions list (%s)', (_what, services) => {
    const loads: string[] = [];
    const lazy = Catalog.build(lazyCatalog(loads), { services });
    const eager = Catalog.build(BUILTIN_TOOLS, { services });
    expect(listing(lazy)).toEqual(listing(eager));
    expect(lazy.skipped).toEqual(eager.skipped);
    // Only a tool whose registration runs its code was evaluated: a description that depends on
    // the run, `available`, `describeArgs` (only when registered) — unless its .head.ts has it.
    const needsCode = new Set(
      BUILTIN_TOOLS.filter((d) => {
        const head = headModules.get(d.name)?.exports ?? {};
        return (
          (typeof d.description === 'function' && head.description !== d.description) ||
          (d.available !== undefined && head.available !== d.available) ||
          (d.describeArgs !== undefined && eager.has(d.name))
        );
      }).map((d) => d.name),
    );
    const settled = loads.filter((n) => !needsCode.has(n));
    expect(settled).toEqual([]);
    for (const name of headModules.keys()) expect(loads).not.toContain(name);
    expect(loads).not.toContain('read_file');
    expect(loads.length).toBeLessThan(BUILTIN_TOOLS.length / 3);
  });

  it("a registered tool's settings are parsed when read: listing evaluates no tool for them", () => {
    const loads: string[] = [];
    const catalog = Catalog.build(lazyCatalog(loads), { services: toolServices({ shell: true }) });
    expect(loads).not.toContain('grep');
    expect(catalog.get('grep')!.settings).toEqual(Catalog.build(BUILTIN_TOOLS).get('grep')!.settings);
    expect(loads).toContain('grep');
  });

  it('settings the recipe gives are still checked when the catalog is built', () => {
    const loads: string[] = [];
    expect(() => Catalog.build(lazyCatalog(loads), { settings: { grep: { no_such_key: 1 } } })).toThrow(/tools\.grep/);
  });

  it('bash and update_plan register from their .head.ts (the tools every default run has)', () => {
    expect([...headModules.keys()].sort()).toEqual(expect.arrayContaining(['bash', 'update_plan']));
  });

  it.each([...headModules.entries()].map(([name, m]) => [name, m.file] as const))(
    "%s's .head.ts evaluates no zod (the bundle imports it eagerly)",
    async (_name, file) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'tool-head-'));
      try {
        const opts = await esbuildOptions(file, path.join(dir, 'head.mjs'));
        const result = await build({ ...opts, minify: false, write: false });
        const inputs = Object.keys(result.metafile.inputs);
        expect(inputs.filter((i) => i.includes('node_modules/zod'))).toEqual([]);
        expect(inputs.some((i) => i.endsWith('.head.ts'))).toBe(true);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('a .head.ts that gives the definition nothing is refused, naming the tool', () => {
    const bash = BUILTIN_TOOLS.find((d) => d.name === 'bash')!;
    expect(() => toolHead(bash, { description: () => 'another function' })).toThrow('tool bash: its .head.ts exports nothing');
  });

  it('a static field that is not plain JSON is refused, naming the tool', () => {
    const def = { ...BUILTIN_TOOLS[0]!, name: 'odd', caps: { max_bytes: Number.POSITIVE_INFINITY } } as AnyTool;
    expect(() => toolHead(def)).toThrow('tool odd: its head');
  });

  it('the heads the build computes (scripts/bundle/tool-heads.mjs) are the heads of these definitions', async () => {
    const built = await computeToolHeads(root, esbuildOptions);
    const byName = new Map(Object.values(built).map((e) => [String(e.head.fields.name), e.head]));
    expect([...byName.keys()].sort()).toEqual(BUILTIN_TOOLS.map((d) => d.name).sort());
    for (const def of BUILTIN_TOOLS) expect(byName.get(def.name), def.name).toEqual(shipped(def));
  }, 60_000);
});
