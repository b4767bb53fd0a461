import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import * as z from 'zod/v4';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, root } from '../../scripts/bundle/esbuild-options.mjs';
import { headModuleId } from '../../scripts/bundle/head-module.mjs';
import {
  computeToolHeads,
  headModuleKeys,
  headModulesReachingZod,
  toolFamilies,
  withHeadModule,
} from '../../scripts/bundle/tool-heads.mjs';
import { DIALECTS } from '../../src/core/dialects.ts';
import { Catalog } from '../../src/tools/framework/catalog.ts';
import { BUILTIN_TOOLS } from '../../src/tools/index.ts';
import { toolServices, type ToolServices } from '../../src/tools/framework/services.ts';
import type { AnyTool } from '../../src/tools/framework/tool.ts';
import { argsJsonSchema, lazyTool, listingDefinition, toolHead, type ToolHead } from '../../src/tools/framework/tool-head.ts';

// The product bundle registers the built-in tools from heads computed at build time
// (src/tools/framework/tool-head.ts) and, for a tool whose registration runs its code, from a
// head module the build cuts out of its file (scripts/bundle/head-module.mjs); vitest runs the
// definitions themselves. These tests hold the two equal: a head is exactly its definition's
// registration data, a lazy tool reads as its definition, and a catalog of lazy tools lists what
// one of definitions lists while evaluating no tool's module.

const scratch = await mkdtemp(path.join(tmpdir(), 'tool-head-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

// Each tool's file, by tool name.
const toolFiles = new Map<string, string>();
for (const { files } of toolFamilies(root)) {
  for (const file of files) {
    const exported = Object.values((await import(file)) as object);
    toolFiles.set(BUILTIN_TOOLS.find((d) => exported.includes(d))!.name, file);
  }
}

// Each head module the bundle has, by tool name: generated from the tool file, bundled with the
// product's options, imported.
const modules = BUILTIN_TOOLS.map((def) => ({
  name: def.name,
  file: toolFiles.get(def.name)!,
  keys: headModuleKeys(toolHead(def)),
})).filter((m) => m.keys.length > 0);
const built = await build({
  ...(await esbuildOptions(path.join(root, 'src/main.ts'), path.join(scratch, 'unused.mjs'))),
  outfile: undefined,
  entryPoints: modules.map((m) => ({ in: headModuleId(m.file, m.keys), out: m.name })),
  outdir: scratch,
  minify: false,
});
expect(built.errors).toEqual([]);
const headModules = new Map<string, Readonly<Record<string, unknown>>>();
for (const m of modules)
  headModules.set(
    m.name,
    ((await import(pathToFileURL(path.join(scratch, `${m.name}.js`)).href)) as { default: Record<string, unknown> }).default,
  );

/** A head as the bundle carries it: with its head module's keys, through JSON. */
const shipped = (def: AnyTool): ToolHead => {
  const head = toolHead(def);
  return JSON.parse(JSON.stringify(withHeadModule(head, headModuleKeys(head)))) as ToolHead;
};

const lazy = (def: AnyTool, loads: string[]) =>
  lazyTool(shipped(def), () => def, { onLoad: (name) => loads.push(name), companion: headModules.get(def.name) });

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
  [
    'the web, alerts and skills configured',
    toolServices({
      network: { scope: { describe: () => ({ allow: ['example.com'] }) } },
      searchProvider: { name: 'brave' },
      searchResults: 7,
      alertTargets: [{ name: 'ops', description: 'the on-call pager' }],
      skills: [{ name: 'k8s-triage', description: 'Triage a failing workload.' }],
    } as unknown as Partial<ToolServices>),
  ],
];

const listing = (c: Catalog) =>
  c.list().map((t) => ({ name: t.name, description: t.description, readOnly: t.readOnly, kind: t.kind, inputSchema: t.inputSchema }));

// The tools' listing script holds no tool module (scripts/bundle/tool-family.mjs, listingLoad):
// a tool's "module" there is its settings, from a head module of their own, and nothing else.
const withSettings = BUILTIN_TOOLS.filter((def) => def.settings !== undefined);
const settingsBuilt = await build({
  ...(await esbuildOptions(path.join(root, 'src/main.ts'), path.join(scratch, 'unused.mjs'))),
  outfile: undefined,
  entryPoints: withSettings.map((def) => ({ in: headModuleId(toolFiles.get(def.name)!, ['settings']), out: `${def.name}.settings` })),
  outdir: scratch,
  minify: false,
});
expect(settingsBuilt.errors).toEqual([]);
const settingsModules = new Map<string, Readonly<Record<string, unknown>>>();
for (const def of withSettings)
  settingsModules.set(
    def.name,
    ((await import(pathToFileURL(path.join(scratch, `${def.name}.settings.js`)).href)) as { default: Record<string, unknown> }).default,
  );

describe("the listing script's tools", () => {
  it('every tool with settings has them in a settings module, the same schema as its definition’s', () => {
    expect(withSettings.map((d) => d.name)).toEqual(expect.arrayContaining(['bash', 'grep', 'fetch_url', 'web_fetch', 'call_peer']));
    for (const def of withSettings) {
      const listed = lazyTool(shipped(def), () => listingDefinition(def.name, settingsModules.get(def.name)), {
        companion: headModules.get(def.name),
      });
      const settings = listed.settings as z.ZodType;
      expect(z.toJSONSchema(settings, { io: 'input' }), def.name).toEqual(z.toJSONSchema(def.settings!, { io: 'input' }));
      expect(settings.parse({}), def.name).toEqual(def.settings!.parse({}));
    }
  });

  it.each([
    ['run', 'bash'],
    ['args', 'bash'],
    ['paths', 'read_file'],
    ['settings', 'read_file'],
  ])('reading its %s (%s) throws, naming the tool and the key', (key, name) => {
    const def = BUILTIN_TOOLS.find((d) => d.name === name)!;
    const members = settingsModules.get(name) ?? {};
    const listed = lazyTool(shipped(def), () => listingDefinition(name, members), { companion: headModules.get(name) });
    // Registration reads answer from the head, as in the whole CLI.
    expect(listed.name).toBe(name);
    expect(argsJsonSchema(listed)).toEqual(z.toJSONSchema(def.args, { target: 'draft-7', io: 'input' }));
    if (key === 'settings' && def.settings === undefined) {
      // A tool without settings has none in the listing either: the head says so, no module is read.
      expect(listed.settings).toBeUndefined();
      return;
    }
    expect(() => (listed as unknown as Record<string, unknown>)[key]).toThrow(
      new RegExp(`^tool ${name}: its ${key} is not in the tools' listing script`),
    );
  });
});

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
    // A description that depends on the run, `available` and `describeArgs` come from the head
    // module (what they give is the catalog tests' below); a static description from the head.
    if (typeof def.description === 'string') expect(lazyDef.description).toBe(def.description);
    for (const key of headModuleKeys(toolHead(def))) expect(typeof (lazyDef as unknown as Record<string, unknown>)[key]).toBe('function');
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

  // Each dialect registers other tools (update_plan is Cagent's, the plan checklist core-agent's todo).
  it.each(SERVICES.flatMap(([what, services]) => DIALECTS.map((dialect) => [what, dialect, services] as const)))(
    'a catalog of lazy tools lists what the definitions list (%s, %s)',
    (_what, dialect, services) => {
      const loads: string[] = [];
      const lazy = Catalog.build(lazyCatalog(loads), { services, dialect });
      const eager = Catalog.build(BUILTIN_TOOLS, { services, dialect });
      expect(listing(lazy)).toEqual(listing(eager));
      expect(lazy.skipped).toEqual(eager.skipped);
      // No tool's module was evaluated: what registering runs of a tool's code is its head module.
      expect(loads).toEqual([]);
    },
  );

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

  it('bash and update_plan register from head modules the build generates; no tool has a hand-written one', async () => {
    expect([...headModules.keys()].sort()).toEqual(expect.arrayContaining(['bash', 'update_plan']));
    expect(Object.keys(headModules.get('bash')!)).toEqual(['description']);
    expect(Object.keys(headModules.get('update_plan')!)).toEqual(['available']);
    const files = (await readdir(path.join(root, 'src/tools'), { recursive: true })).filter((f) => f.endsWith('.head.ts'));
    expect(files).toEqual([]);
  });

  it('no head module reaches zod (the bundle evaluates them to register the catalog)', async () => {
    expect(await headModulesReachingZod(root, esbuildOptions, modules)).toEqual([]);
    for (const name of headModules.keys()) {
      const inputs = Object.keys(built.metafile.outputs[path.relative(root, path.join(scratch, `${name}.js`))]?.inputs ?? {});
      expect(inputs.length, name).toBeGreaterThan(0);
      expect(inputs.filter((i) => i.includes('node_modules/zod'))).toEqual([]);
    }
  });

  it('a head module that reaches zod is found, with the chain of imports', async () => {
    const dir = await mkdtemp(path.join(scratch, 'planted-'));
    const zod = JSON.stringify(path.join(root, 'node_modules/zod/v4/index.js'));
    await writeFile(
      path.join(dir, 'helper.ts'),
      `import * as z from ${zod};\nexport const line = () => String(z.string().max(3).safeParse('x').success);\n`,
    );
    await writeFile(
      path.join(dir, 'planted.ts'),
      "import { line } from './helper.ts';\nexport const plantedTool = defineTool({ name: 'planted', description: () => line(), run: () => ({}) });\n",
    );
    const found = await headModulesReachingZod(root, esbuildOptions, [{ file: path.join(dir, 'planted.ts'), keys: ['description'] }]);
    expect(found).toHaveLength(1);
    expect(found[0]!.reason).toMatch(/^it reaches zod \(its head module → \S*helper\.ts → \S*node_modules\/zod\//);
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
