import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bundle } from '../helpers/cli.ts';
import { tempDir } from '../helpers/workspace.ts';
import { USAGE_ERROR_CASES } from './usage-errors.cases.ts';

describe('command-line mistakes: the flag at fault, the likely intent, the fix', () => {
  it.each(USAGE_ERROR_CASES.map((c) => ({ ...c, label: c.argv.join(' ').slice(0, 70) })))('$label', async (c) => {
    const home = await tempDir();
    // No KUBECONFIG and an empty HOME: no cluster, whatever the machine has.
    const r = spawnSync(process.execPath, [bundle, ...c.argv], {
      cwd: home,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: home },
    });
    expect(r.status, r.stderr).toBe(c.code ?? 2);
    expect(r.stderr).toMatch(c.stderr);
    if (c.stdout) expect(r.stdout).toMatch(c.stdout);
    expect(r.stderr).not.toMatch(/^\s+at |TypeError|ERR_PARSE_ARGS/m);
    expect(r.stderr.length).toBeLessThan(800);
  });
});
