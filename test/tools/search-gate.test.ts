import { describe, expect, it } from 'vitest';
import { searchGateMessage, searchShaped } from '../../src/tools/shell/search-gate.ts';
import { setup } from '../helpers/workspace.ts';
import { SEARCH_GATE_CASES } from './search-gate.cases.ts';

const both = new Set(['grep', 'glob'] as const);

describe('the bash search gate: which commands are search-shaped', () => {
  it.each(SEARCH_GATE_CASES)('%s → %j', async (cmd, refused) => {
    expect(await searchShaped(cmd, both)).toEqual(refused === null ? null : { verb: refused[0], tool: refused[1] });
  });

  it('refuses only what it can redirect: grep verbs need the grep tool, find verbs the glob tool', async () => {
    expect(await searchShaped('grep -r x .', new Set(['glob'] as const))).toBeNull();
    expect(await searchShaped('find . -name x', new Set(['glob'] as const))).toEqual({ verb: 'find', tool: 'glob' });
    expect(await searchShaped('grep -r x .', new Set())).toBeNull();
  });

  it('never throws on a few hundred generated command lines', async () => {
    const pieces = [
      'grep',
      'rg',
      'find',
      'fd',
      'echo',
      'make',
      '$X',
      '"a b"',
      "'c'",
      '-rn',
      '.',
      '|',
      '||',
      '&&',
      ';',
      '(',
      ')',
      '{',
      '}',
      '>',
      '2>&1',
      '<(',
      '$(',
      '`',
      '\\',
      '#',
      '*',
      '"',
      "'",
      '\n',
      'if',
      'then',
      'fi',
      'for',
      'do',
      'done',
      '<<EOF',
      'EOF',
    ];
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let i = 0; i < 400; i++) {
      const line = Array.from({ length: 1 + rand(12) }, () => pieces[rand(pieces.length)]).join(' ');
      const r = await searchShaped(line, both);
      expect(r === null || typeof r.verb === 'string').toBe(true);
    }
  });

  it('words the refusal as the seed does', () => {
    expect(searchGateMessage({ verb: 'grep', tool: 'grep' })).toBe(
      'bash refused: `grep` is a search-shaped command; use the native `grep` tool\n' +
        'instead. It returns structured {path, line, text} matches, honors the\n' +
        'permission gate and the path scope, and applies per-tool output caps. Piping\n' +
        'into a search binary is unaffected — `go test ./... | grep -v ok` filters a\n' +
        'stream, which the native tool does not do. Operator override:\n' +
        'safety.bash_search_gate = "warn" or "allow" (CLI: --bash-search-gate).',
    );
  });
});

describe('the bash search gate in a runtime', () => {
  it('enforce (default) refuses before the permission mode — yolo does not wave it through', async () => {
    const rt = await setup({ flags: { mode: 'yolo' } });
    expect(await rt.refused('bash', { command: 'make build && grep -rn TODO .' })).toMatch(
      /^bash refused: `grep` is a search-shaped command/,
    );
    expect((await rt.ok('bash', { command: 'echo x | grep -v ok' })).output).toBe('x\n');
  });

  it('warn runs the command and attaches the advice; allow does nothing', async () => {
    const warn = await setup({ flags: { mode: 'yolo' }, recipe: 'safety:\n  bash_search_gate: warn\n', tree: { 'a.txt': 'needle\n' } });
    const r = await warn.ok('bash', { command: 'grep -rn needle .' });
    expect(r.output).toBe('./a.txt:1:needle\n');
    expect(String(r.notice)).toMatch(/^bash search gate \(warn\): `grep` is a search-shaped command/);
    const allow = await setup({ flags: { mode: 'yolo', bashSearchGate: 'allow' }, tree: { 'a.txt': 'needle\n' } });
    expect((await allow.ok('bash', { command: 'grep -rn needle .' })).notice).toBeUndefined();
  });

  it('is inert with neither grep nor glob registered, and the bash description says REFUSED only when armed', async () => {
    const inert = await setup({ flags: { mode: 'yolo', disableTools: ['grep', 'glob'] }, tree: { 'a.txt': 'x' } });
    expect((await inert.ok('bash', { command: 'grep -rn x .' })).exit_code).toBe(0);
    expect(inert.catalog.get('bash')!.description).not.toMatch(/REFUSED/);
    const armed = await setup();
    expect(armed.catalog.get('bash')!.description).toMatch(
      /Search-shaped commands are REFUSED \(`grep`, `egrep`.*→ use the `grep` tool; `find`, `fd` → use the `glob` tool\)/,
    );
    const warn = await setup({ flags: { bashSearchGate: 'warn' } });
    expect(warn.catalog.get('bash')!.description).not.toMatch(/REFUSED/);
  });

  it('--task drops bash; --enable-tools bash puts it back and the gate still applies', async () => {
    expect((await setup({ flags: { task: 'debug' } })).catalog.has('bash')).toBe(false);
    const back = await setup({ flags: { task: 'research', enableTools: ['bash'], mode: 'yolo' } });
    expect(back.catalog.has('bash')).toBe(true);
    expect(await back.refused('bash', { command: 'rg foo' })).toMatch(/^bash refused: `rg`/);
  });
});
