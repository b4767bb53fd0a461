import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tempDir } from '../helpers/workspace.ts';
import { RULE_FLAG_CASES } from './rule-flags.cases.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundle = path.join(root, 'dist/core-agent.mjs');

describe('--allow / --deny: permission rules from the command line (rule-flags.cases.ts)', () => {
  it.each(RULE_FLAG_CASES)('$name', async (c) => {
    const ws = await tempDir();
    const script = path.join(ws, 'script.jsonl');
    const call = c.call ?? { tool: 'bash', args: { command: 'true' } };
    await writeFile(
      script,
      [JSON.stringify({ tool_calls: [{ name: call.tool, args: call.args }] }), JSON.stringify({ text: 'done' })].join('\n'),
    );
    const args = [
      'run',
      '--model',
      `replay:${script}`,
      '--session-db',
      ':memory:',
      ...(c.expect instanceof RegExp ? [] : ['-o', 'json']),
      '--mode',
      c.mode ?? 'ask',
      ...c.flags,
    ];
    if (c.recipe) {
      await writeFile(path.join(ws, 'recipe.yaml'), stringify({ permissions: c.recipe }));
      args.push('-c', path.join(ws, 'recipe.yaml'));
    }
    // The prompt after "--", so that a flag missing its value cannot take it.
    const r = spawnSync(process.execPath, [bundle, ...args, '--', 'go'], {
      cwd: ws,
      input: '',
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: ws },
    });
    if (c.expect instanceof RegExp) {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(c.expect);
      expect(r.stderr.length).toBeLessThan(2_000);
      return;
    }
    expect(r.status, r.stderr).toBe(0);
    const ends = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; name?: string; ok?: boolean; error?: string })
      .filter((e) => e.type === 'tool_end' && e.name === call.tool);
    expect(ends, r.stdout).toHaveLength(1);
    expect(ends[0]!.ok, JSON.stringify(ends[0])).toBe(c.expect === 'ran');
    if (call.tool === 'write_file') expect(existsSync(path.join(ws, String(call.args.path)))).toBe(c.expect === 'ran');
  });
});
