import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/core/dialects.ts';
import { Catalog, CatalogError } from '../../src/tools/framework/catalog.ts';
import { jobsOf } from '../../src/tools/framework/dialect.ts';
import type { Asker } from '../../src/tools/framework/services.ts';
import { BUILTIN_FACE_NAMES, BUILTIN_TOOL_NAMES, BUILTIN_TOOLS, canonicalRule } from '../../src/tools/index.ts';
import { everyService } from '../helpers/services.ts';
import { setup, setupIn, tempDir } from '../helpers/workspace.ts';
import { DIALECT_CASES } from './dialects.cases.ts';

const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));
const catalogIn = (dialect: (typeof DIALECTS)[number]) => Catalog.build(BUILTIN_TOOLS, { services: everyService(), dialect });
const modelNames = (c: Catalog) => c.list().map((t) => t.modelName);

describe('catalog dialects: one tool per job, under that system names', () => {
  for (const c of DIALECT_CASES) {
    it(`${c.dialect}: ${c.job} is ${c.offers}${c.not.length ? `, never ${c.not.join(' or ')}` : ''}`, () => {
      const names = modelNames(catalogIn(c.dialect));
      expect(names).toContain(c.offers);
      for (const other of c.not) expect(names).not.toContain(other);
    });
  }

  for (const dialect of DIALECTS) {
    it(`${dialect}: no job has two tools, and every built-in is registered or said why not`, () => {
      const cat = catalogIn(dialect);
      const byJob = new Map<string, string[]>();
      for (const t of cat.list()) for (const job of jobsOf(t.def)) byJob.set(job, [...(byJob.get(job) ?? []), t.modelName]);
      expect([...byJob].filter(([, tools]) => tools.length > 1)).toEqual([]);
      for (const name of BUILTIN_TOOL_NAMES) if (!cat.has(name)) expect(cat.notRegistered(name), name).toMatch(/dialect/);
    });

    it(`${dialect}: a description names only tools registered here, by the name the model calls them`, () => {
      // Words that are a tool's name and something else: bash's shell command grep, sciontool's status type ask_user.
      const otherMeaning = new Set(['bash grep', 'sciontool_status ask_user']);
      const cat = catalogIn(dialect);
      const shown = new Set(modelNames(cat));
      const every = [...BUILTIN_TOOL_NAMES, ...BUILTIN_FACE_NAMES.keys()];
      for (const t of cat.list()) {
        // A tool named as code (`read_file`, `ReadFile`) is a tool the model may go and call.
        const named = [...t.description.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]!).filter((n) => every.includes(n));
        for (const n of named.filter((n) => !otherMeaning.has(`${t.name} ${n}`)))
          expect(shown.has(n), `${t.modelName} names ${n}`).toBe(true);
      }
    });
  }

  it('a face has its own argument schema, in that system names (camelCase, 0-based offset)', () => {
    const golem = catalogIn('golem');
    const readFile = golem.get('ReadFile')!;
    expect(readFile.name).toBe('read_file');
    expect(Object.keys(readFile.inputSchema.properties as object)).toEqual(['path', 'offset', 'limit']);
    const todo = golem.get('TodoWrite')!;
    expect(Object.keys(todo.inputSchema.properties as object)).toEqual(['todos']);
    expect(JSON.stringify(todo.inputSchema)).toContain('"content"');
  });

  it('two tools for one job are refused unless the recipe says so, naming both', () => {
    expect(() => Catalog.build(BUILTIN_TOOLS, { services: everyService(), enable: ['update_plan'] })).toThrow(CatalogError);
    expect(() => Catalog.build(BUILTIN_TOOLS, { services: everyService(), enable: ['update_plan'] })).toThrow(
      /todo and update_plan would both be offered for one job \(plan_checklist\).*tools\.allow_overlap: true/,
    );
    const both = Catalog.build(BUILTIN_TOOLS, { services: everyService(), enable: ['TodoWrite'], allowOverlap: true });
    // Enabled by either name: in core-agent's dialect it is registered under its own.
    expect(modelNames(both)).toEqual(expect.arrayContaining(['todo', 'update_plan']));
  });

  it('a permission rule may name a tool by its face', () => {
    expect(canonicalRule('tool.ReadFile:secret/**')).toBe('tool.read_file:secret/**');
    expect(canonicalRule('tool.WriteFile')).toBe('tool.write_file');
    expect(canonicalRule('tool.bash.cmd:git')).toBe('tool.bash.cmd:git');
    expect(canonicalRule('tool.ReadFileX')).toBe('tool.ReadFileX');
    expect(canonicalRule('mcp.gke.ReadFile')).toBe('mcp.gke.ReadFile');
  });
});

describe('golem faces run the same engine, gate and path', () => {
  const golem = setupIn('golem');
  const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

  it('ReadFile: 0-based offset, {content, totalLines, nextOffset}', async () => {
    const rt = await golem({ tree: { 'f.txt': lines } });
    expect(await rt.ok('ReadFile', { path: 'f.txt', offset: 2, limit: 2 })).toEqual({
      content: 'line 3\nline 4\n',
      totalLines: 10,
      nextOffset: 4,
    });
    expect((await rt.ok('ReadFile', { path: 'f.txt' })).content).toBe(lines);
  });

  it('a face argument mistake is said in the face words', async () => {
    const rt = await golem({ tree: { 'f.txt': lines } });
    expect(await rt.refused('ReadFile', { path: 'f.txt', start: 1 })).toBe(
      'ReadFile: invalid arguments: unknown argument "start" (valid: path, offset, limit)',
    );
    expect(await rt.refused('TodoWrite', { todos: [{ step: 'a', status: 'pending' }] })).toMatch(
      /^TodoWrite: invalid arguments: .*content/,
    );
    expect(await rt.refused('ReadFile', { path: 'missing.txt' })).toMatch(/file not found: missing\.txt/);
  });

  it('WriteFile is gated as write_file: path scope, deny rules by either name, ask mode without a prompter', async () => {
    const rt = await golem({ flags: { mode: 'yolo' }, recipe: 'permissions:\n  deny: ["tool.WriteFile:secret/**"]\n' });
    expect(await rt.ok('WriteFile', { path: 'a.txt', content: 'x' })).toMatchObject({ path: 'a.txt', created: true });
    expect(await rt.refused('WriteFile', { path: 'secret/k.txt', content: 'x' })).toMatch(/denied/);
    expect(await rt.refused('WriteFile', { path: '/etc/x.txt', content: 'x' })).toMatch(/outside path_scope/);
    const viaCanonical = await golem({ flags: { mode: 'yolo' }, recipe: 'permissions:\n  deny: ["tool.write_file:secret/**"]\n' });
    expect(await viaCanonical.refused('WriteFile', { path: 'secret/k.txt', content: 'x' })).toMatch(/denied/);
    const ask = await golem({ flags: { mode: 'ask' } });
    expect(await ask.refused('WriteFile', { path: 'b.txt', content: 'x' })).toMatch(/WriteFile/);
  });

  it('ListFiles and GrepFiles answer in golem shapes', async () => {
    const rt = await golem({ tree: { 'd/a.txt': 'needle\n', 'd/sub/b.txt': 'hay\nneedle here\n' } });
    expect(await rt.ok('ListFiles', { path: 'd' })).toEqual({
      entries: [
        { name: 'a.txt', dir: false, size: 7 },
        { name: 'sub', dir: true },
      ],
    });
    expect(await rt.ok('GrepFiles', { pattern: 'needle', path: 'd' })).toMatchObject({
      matches: [
        { file: 'd/a.txt', line: 1, text: 'needle' },
        { file: 'd/sub/b.txt', line: 2, text: 'needle here' },
      ],
    });
  });

  it('TodoWrite replaces the turn plan; two in progress is refused', async () => {
    const rt = await golem();
    await rt.ok('TodoWrite', {
      todos: [
        { content: 'look', status: 'in_progress' },
        { content: 'fix', status: 'pending' },
      ],
    });
    expect(rt.session.plan.steps).toEqual([
      { step: 'look', status: 'in_progress' },
      { step: 'fix', status: 'pending' },
    ]);
    expect(
      await rt.refused('TodoWrite', {
        todos: [
          { content: 'a', status: 'in_progress' },
          { content: 'b', status: 'in_progress' },
        ],
      }),
    ).toMatch(/at most one may be/);
  });

  it('AskUserQuestionTool asks through the asker; answers come back as golem words them', async () => {
    const asked: unknown[] = [];
    const asker: Asker = {
      ask: async () => ({ answer: 'x' }),
      askQuestions: async (qs) => {
        asked.push(...qs);
        return { answers: { [qs[0]!.question]: qs[0]!.options[1]! } };
      },
    };
    const rt = await golem({ services: { asker } });
    const q = { question: 'Which port?', options: ['8080', '443'] };
    expect(await rt.ok('AskUserQuestionTool', { questions: [q] })).toEqual({ result: 'The user answered:\n- Which port?: 443\n' });
    expect(asked).toEqual([q]);
  });

  it('CurrentDateTime takes no arguments and says the local time', async () => {
    const rt = await golem();
    const r = await rt.ok('CurrentDateTime', {});
    expect(r.dateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:Z|[+-]\d\d:\d\d)$/);
    expect(await rt.refused('CurrentDateTime', { timezone: 'UTC' })).toMatch(/unknown argument "timezone"/);
  });

  it("another dialect's name is explained, not just unknown", async () => {
    const rt = await setup();
    expect(await rt.refused('ReadFile', { path: 'x' })).toBe(
      "ReadFile is not registered: ReadFile is the golem dialect's name for read_file, and this run speaks core-agent: call read_file",
    );
    const cagent = await setupIn('cagent')();
    expect(await cagent.refused('todo', {})).toMatch(/the cagent dialect \(tools\.dialect\) does this job with update_plan/);
  });
});

describe('dialects through the built CLI', () => {
  const cli = (args: string[], cwd: string, env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [bundle, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd, ...env } });

  it('tools list --dialect golem shows golem names, and says the dialect', async () => {
    const dir = await tempDir();
    const r = cli(['tools', 'list', '--dialect', 'golem'], dir);
    expect(r.status, r.stderr).toBe(0);
    const firstWords = r.stdout.split('\n').map((l) => l.split(' ')[0]);
    expect(firstWords).toEqual(expect.arrayContaining(['ReadFile', 'WriteFile', 'ListFiles', 'GrepFiles', 'TodoWrite', 'CurrentDateTime']));
    expect(firstWords).not.toContain('read_file');
    expect(r.stdout).toMatch(/^dialect: golem /m);
    const cagent = cli(['tools', 'list', '--dialect', 'cagent'], dir);
    expect(cagent.stdout.split('\n').map((l) => l.split(' ')[0])).toEqual(expect.arrayContaining(['apply_patch', 'update_plan']));
    expect(cli(['tools', 'list', '--dialect', 'codex'], dir).stderr).toMatch(
      /--dialect: unknown value "codex"\. Valid: core-agent, cagent, golem/,
    );
  });

  it('--disable-tools (and --deny-tool) accept a face name', async () => {
    const dir = await tempDir();
    const r = cli(['tools', 'list', '--dialect', 'golem', '--disable-tools', 'ReadFile'], dir);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^ReadFile /m);
    expect(r.stdout).toMatch(/^WriteFile /m);
    const denied = await setupIn('golem')({ flags: { denyTools: ['ReadFile'] } });
    expect(denied.catalog.has('read_file')).toBe(false);
    expect(denied.catalog.has('write_file')).toBe(true);
  });

  it('recipe validate refuses two tools for one job unless tools.allow_overlap says so', async () => {
    const dir = await tempDir();
    const recipe = path.join(dir, 'r.yaml');
    await writeFile(recipe, 'tools:\n  dialect: golem\n  enable: [todo]\n');
    const r = cli(['recipe', 'validate', recipe], dir);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/todo and TodoWrite would both be offered for one job \(plan_checklist\)/);
    await writeFile(recipe, 'tools:\n  dialect: golem\n  enable: [todo]\n  allow_overlap: true\n');
    const ok = cli(['recipe', 'validate', recipe], dir);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/dialect golem\): .*ReadFile/);
    await writeFile(recipe, 'tools:\n  dialect: klingon\n');
    const bad = cli(['recipe', 'validate', recipe], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/tools\.dialect/);
  });
});
