/**
 * --allow RULE / --deny RULE on the command line: the recipe's permission rules,
 * added to its permissions.allow / deny. Each case is one run of the real CLI
 * with a replayed model that calls `tool` with `args`, in `mode`, and what must
 * come of the call: it ran, the gate refused it (deny wins in every mode), or the
 * command line was refused (exit 2, the sentence). A new case is one line.
 */
export interface RuleFlagCase {
  readonly name: string;
  readonly flags: readonly string[];
  readonly mode?: 'ask' | 'accept-edits' | 'yolo';
  /** The recipe's own permissions, when the case needs one. */
  readonly recipe?: { allow?: string[]; deny?: string[] };
  readonly call?: { tool: string; args: Record<string, unknown> };
  readonly expect: 'ran' | 'denied' | RegExp;
}

const write = (path: string) => ({ tool: 'write_file', args: { path, content: 'x\n' } });
const bash = (command: string) => ({ tool: 'bash', args: { command } });

export const RULE_FLAG_CASES: readonly RuleFlagCase[] = [
  { name: 'yolo runs a write with no rule', flags: [], mode: 'yolo', call: write('a.txt'), expect: 'ran' },
  { name: 'a bare deny stops it in yolo', flags: ['--deny', 'write_file'], mode: 'yolo', call: write('a.txt'), expect: 'denied' },
  {
    name: 'TOOL:PATTERN is tool.TOOL:PATTERN',
    flags: ['--deny', 'write_file:*.txt'],
    mode: 'yolo',
    call: write('a.txt'),
    expect: 'denied',
  },
  {
    name: 'a pattern that does not match lets it run',
    flags: ['--deny', 'write_file:*.md'],
    mode: 'yolo',
    call: write('a.txt'),
    expect: 'ran',
  },
  {
    name: 'the tool. prefix is accepted as written',
    flags: ['--deny', 'tool.write_file:a.*'],
    mode: 'yolo',
    call: write('a.txt'),
    expect: 'denied',
  },
  { name: 'a text pattern for bash', flags: ['--deny', 'bash:echo *'], mode: 'yolo', call: bash('echo hi'), expect: 'denied' },
  { name: 'another bash line is not caught', flags: ['--deny', 'bash:echo *'], mode: 'yolo', call: bash('true'), expect: 'ran' },
  { name: '"*" denies everything', flags: ['--deny', '*'], mode: 'yolo', call: bash('true'), expect: 'denied' },
  {
    name: 'repeated --deny flags all apply',
    flags: ['--deny', 'bash:true', '--deny', 'write_file'],
    mode: 'yolo',
    call: write('b.txt'),
    expect: 'denied',
  },
  {
    name: 'deny wins over allow',
    flags: ['--allow', 'write_file', '--deny', 'write_file:a.txt'],
    mode: 'ask',
    call: write('a.txt'),
    expect: 'denied',
  },
  {
    name: 'an allow runs a write in ask mode headless',
    flags: ['--allow', 'write_file:a.txt'],
    mode: 'ask',
    call: write('a.txt'),
    expect: 'ran',
  },
  { name: 'without the allow, ask mode headless refuses', flags: [], mode: 'ask', call: write('a.txt'), expect: 'denied' },
  {
    name: 'an allow for another path does not help',
    flags: ['--allow', 'write_file:b.txt'],
    mode: 'ask',
    call: write('a.txt'),
    expect: 'denied',
  },
  {
    name: 'a flag deny adds to the recipe allow',
    flags: ['--deny', 'write_file'],
    mode: 'ask',
    recipe: { allow: ['tool.write_file'] },
    call: write('a.txt'),
    expect: 'denied',
  },
  {
    name: 'a flag allow never lifts a recipe deny',
    flags: ['--allow', 'write_file'],
    mode: 'yolo',
    recipe: { deny: ['tool.write_file'] },
    call: write('a.txt'),
    expect: 'denied',
  },
  {
    name: 'an empty pattern is refused',
    flags: ['--deny', 'write_file:'],
    expect: /--deny "write_file:" is not a permission rule; expected tool\.<name>/,
  },
  {
    name: 'a rule with spaces in the name is refused',
    flags: ['--allow', 'write file'],
    expect: /--allow "write file" is not a permission rule/,
  },
  {
    name: 'a huge rule is shown cut',
    flags: ['--deny', `bad name ${'x'.repeat(100_000)}`],
    expect: /--deny "bad name x{71}…" is not a permission rule/,
  },
  { name: "the flag's value cannot be another flag", flags: ['--deny'], expect: /--deny: its value starts with "-"/ },
];
