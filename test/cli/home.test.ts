import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { HOME_CASES } from './home.cases.ts';

describe('~ is the HOME the root hands down', () => {
  it.each(HOME_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const ws = await tempDir();
    const home = await tempDir('core-agent-home-');
    await writeTree(home, { 'notes.txt': 'hello from home\n', 'secret/key.pem': 'PRIVATE\n' });
    await writeTree(ws, { 'here.txt': 'in the workspace\n', 'recipe.yaml': `permissions: ${c.permissions}\n` });
    const args = JSON.parse(JSON.stringify(c.args).replaceAll('HOME', home));
    const r = await runCli(
      ['tools', 'call', c.tool, JSON.stringify(args), '-w', ws, '-c', path.join(ws, 'recipe.yaml'), ...(c.yolo ? ['--yolo'] : [])],
      ws,
      { HOME: home },
    );
    expect(r.stderr, 'no stack frames').not.toMatch(/^\s+at /m);
    expect(r.code, r.stdout + r.stderr).toBe(c.code);
    expect(r.stdout).toContain(c.stdout.replaceAll('HOME', home));
    if (c.wrote) expect(await readFile(path.join(home, c.wrote.file), 'utf8')).toBe(c.wrote.content);
  });
});
