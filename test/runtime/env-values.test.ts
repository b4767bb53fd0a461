import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../src/runtime/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { ENV_CASES } from './env-values.cases.ts';

const src = fileURLToPath(new URL('../../src', import.meta.url));
const NAMES = Object.values(ENV).map((v) => v.name);

describe('CORE_AGENT_* values, through the built CLI', () => {
  it.each(ENV_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const ws = await tempDir();
    const r = await runCli(c.args ?? ['tools', 'list', '-w', ws], ws, c.env);
    expect(r.stderr, 'no stack frames').not.toMatch(/^\s+at /m);
    expect(r.code, r.stderr.slice(0, 600)).toBe(c.code);
    if (c.stderr !== undefined) {
      const lines = r.stderr.split('\n').map((l) => l.replace(/^core-agent: /, ''));
      expect(
        lines.some((l) => l.startsWith(c.stderr!)),
        r.stderr.slice(0, 600),
      ).toBe(true);
      // A value is never echoed whole.
      if (c.code === 2) expect(r.stderr.length).toBeLessThan(2000);
    }
    if (c.notListed !== undefined) expect(r.stdout.split('\n').map((l) => l.split(' ')[0])).not.toContain(c.notListed);
  });

  it('has a bad-value case for every variable in the ENV table', () => {
    for (const name of NAMES)
      expect(
        ENV_CASES.some((c) => c.code === 2 && name in c.env),
        name,
      ).toBe(true);
  });

  it('the ENV table holds every CORE_AGENT_* variable the source reads', async () => {
    // Not inputs: CORE_AGENT_RECIPE_DIR is written for MCP servers, CORE_AGENT_CALL_<random> is the tag
    // bash puts on each shell (escapees.ts), __CORE_AGENT_VERSION__, __CORE_AGENT_CHUNKS__,
    // __CORE_AGENT_CLI_SCRIPT__ and __CORE_AGENT_TOOLS_SCRIPT__ are build constants,
    // CORE_AGENT_EXEC_ONLY_NODE marks a process re-executed from an execute-only node (non-dumpable.ts).
    const notInputs = new Set([
      'CORE_AGENT_RECIPE_DIR',
      'CORE_AGENT_CALL_',
      'CORE_AGENT_VERSION__',
      'CORE_AGENT_CHUNKS__',
      'CORE_AGENT_CLI_SCRIPT__',
      'CORE_AGENT_TOOLS_SCRIPT__',
      'CORE_AGENT_EXEC_ONLY_NODE',
    ]);
    const found = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.name.endsWith('.ts')) for (const m of (await readFile(p, 'utf8')).matchAll(/CORE_AGENT_[A-Z_]+/g)) found.add(m[0]);
      }
    };
    await walk(src);
    const missing = [...found].filter((n) => !notInputs.has(n) && !NAMES.includes(n));
    expect(missing).toEqual([]);
    expect(found.size).toBeGreaterThan(10);
  });
});
