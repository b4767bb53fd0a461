import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../helpers/workspace.ts';
import { BASH_RULE_CASES } from './bash-rules.cases.ts';

describe('permission rules on bash command lines (ask mode, headless)', () => {
  it.each(BASH_RULE_CASES)('allow $allow deny $deny: $command → $outcome', async ({ allow, deny, command, outcome }) => {
    const rt = await setup({
      tree: { 'a.txt': 'alpha\n' },
      // The search gate is another check (search-gate.test.ts); here only the rules decide.
      flags: { bashSearchGate: 'allow' },
      recipe: `permissions:\n  allow: ${JSON.stringify(allow ?? [])}\n  deny: ${JSON.stringify(deny ?? [])}\n`,
    });
    const r = await rt.dispatcher.call('bash', { command });
    if (outcome === 'allowed') expect(r.ok, r.ok ? '' : r.error).toBe(true);
    else
      expect(r.ok ? JSON.stringify(r.result) : r.error).toMatch(
        outcome === 'denied' ? /is denied by permissions\.deny rule/ : /needs approval/,
      );
  });

  it('says which wildcard rule was withheld and why, and suggests only the exact rule', async () => {
    const rt = await setup({ recipe: 'permissions:\n  allow: ["tool.bash:find *"]\n' });
    expect(await rt.refused('bash', { command: "find . -name '*.tmp' -delete" })).toBe(
      'bash: permission denied: bash needs approval: permission mode "ask" asks before a call that changes state, and there is no terminal to ask on (rule: mode ask, headless). ' +
        'The allow rule "tool.bash:find *" does not cover it: find -delete runs commands, deletes or writes files (a wildcard rule allows only one literal simple command whose verb does not act). ' +
        'To allow it, add "tool.bash:find . -name \'\\\\*.tmp\' -delete" to permissions.allow, or use --mode accept-edits (file edits) or --yolo.',
    );
  });

  it('the suggested exact rule allows exactly that call', async () => {
    const command = "find . -name '*.tmp' -delete";
    const first = await setup({ tree: { 'x.tmp': '', 'keep.txt': '' } });
    const suggested = /add ("tool\.bash:[^"]*(?:\\.[^"]*)*")/.exec(await first.refused('bash', { command }))![1]!;
    const rt = await setup({ tree: { 'x.tmp': '', 'keep.txt': '' }, recipe: `permissions:\n  allow: [${suggested}]\n` });
    expect(await rt.refused('bash', { command: "find . -name '*.txt' -delete" })).toMatch(/needs approval/);
    expect(await rt.refused('bash', { command: "find . -name 'x.tmp' -delete" })).toMatch(/needs approval/);
    expect((await rt.ok('bash', { command })).exit_code).toBe(0);
    expect(existsSync(path.join(rt.dir, 'x.tmp'))).toBe(false);
    expect(existsSync(path.join(rt.dir, 'keep.txt'))).toBe(true);
  });
});
