import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkArchitecture, parseLayerTable, type ArchitectureReport } from './import-graph.ts';
import { ARCHITECTURE_CASES, BASE_DOC, BASE_TREE } from './import-graph.cases.ts';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function plant(add: Record<string, string> = {}, doc: [string, string] | undefined = undefined): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'core-agent-layers-'));
  made.push(root);
  const files = { ...BASE_TREE };
  for (const [file, text] of Object.entries(add)) files[file] = file in files ? `${files[file]}\n${text}` : text;
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), `${text}\n`);
  }
  if (doc && !BASE_DOC.includes(doc[0])) throw new Error(`the case edits a table line that is not there: ${doc[0]}`);
  await mkdir(path.join(root, 'docs'));
  await writeFile(path.join(root, 'docs/architecture.md'), doc ? BASE_DOC.replace(doc[0], doc[1]) : BASE_DOC);
  return root;
}

describe('the layer checker, on planted trees', () => {
  it.each(ARCHITECTURE_CASES)('$what', async (c) => {
    const report = checkArchitecture(await plant(c.add, c.doc));
    for (const part of ['table', 'imports', 'cycles', 'fileCycles', 'env'] as const satisfies ReadonlyArray<keyof ArchitectureReport>) {
      const wanted = c.expect[part] ?? [];
      const got = report[part];
      expect(got, `${part}:\n${got.join('\n')}`).toHaveLength(wanted.length);
      wanted.forEach((pattern, i) => expect(got[i], `${part}[${i}]`).toMatch(pattern));
    }
  });

  it('reads the real table: every row, the root and the CLI by exclusion, the env readers', async () => {
    const table = parseLayerTable(await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8'));
    expect(table.allowed.get('core')).toEqual(new Set());
    expect(table.allowed.get('net')).toEqual(new Set(['core', 'startup', 'util', 'log']));
    // The start-up machinery sits at the bottom: the entry hands it the CLI it loads.
    expect(table.allowed.get('startup')).toEqual(new Set());
    expect(table.allowed.get('main')?.has('startup')).toBe(true);
    expect(table.allowed.get('runtime')?.has('cli')).toBe(false);
    expect(table.allowed.get('runtime')?.has('watch')).toBe(true);
    expect(table.allowed.get('cli')?.has('runtime')).toBe(true);
    expect(table.allowed.get('cli')?.has('main')).toBe(false);
    expect(table.envReaders).toEqual(new Set(['main', 'runtime', 'config']));
    // The framework is a leaf inside tools: it names no family, nor the shared helpers.
    expect([...table.allowed.get('tools/framework')!].filter((f) => f.startsWith('tools'))).toEqual([]);
    expect(table.allowed.get('tools/*')?.has('tools/*')).toBe(false);
    expect(table.allowed.get('tools')).toEqual(new Set(['tools/framework', 'tools/*']));
  });

  it('refuses a document without a table rather than passing every import', () => {
    expect(() => parseLayerTable('# Architecture\n\nno table here\n')).toThrow(/no layer table/);
  });
});
