// Every command README.md shows is run by CI: .ci/readme-commands.sh has a line for each
// command of the README's ```sh blocks and its Make-target table (`readme`, or `covered` when
// another command runs it), and for each line of its CLI synopsis (`synopsis`). A command added
// to the README without a line there — or a line there whose command left the README — fails
// here, before CI would pass without running it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** What a README holds to run: shell lines (code blocks and the target table) and the synopsis lines. */
export function readmeCommands(text: string): { commands: string[]; synopsis: string[] } {
  const commands: string[] = [];
  const synopsis: string[] = [];
  // Inside a fenced block: its language ('' for none); null outside.
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^```(\w*)\s*$/.exec(line);
    if (marker) {
      fence = fence === null ? marker[1]! : null;
      continue;
    }
    if (fence === 'sh' || fence === 'bash') {
      const command = line.split(/\s+#\s/)[0]!.trim();
      if (command && !command.startsWith('#')) commands.push(command);
    } else if (fence === '') {
      if (line.trim().startsWith('core-agent')) synopsis.push(line.trim());
    } else if (fence === null) {
      // The table of targets: a row whose first cell is `make …` or `npm …` items joined by " / ".
      const cell = /^\| (`(?:make|npm) [^`]+`(?: \/ `[^`]+`)*) \|/.exec(line)?.[1];
      if (!cell) continue;
      const items = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const tool = items[0]!.split(' ')[0]!;
      for (const item of items) commands.push(item.startsWith(`${tool} `) ? item : `${tool} ${item}`);
    }
  }
  return { commands: [...new Set(commands)], synopsis };
}

/** The lines of .ci/readme-commands.sh: what it runs, what it says another command runs, and the synopsis it checks. */
export function runnerLines(script: string) {
  const all = (re: RegExp) => [...script.matchAll(re)].map((m) => [m[1]!, m[2] ?? ''] as const);
  return {
    run: all(/^readme '([^']*)'/gm).map(([t]) => t),
    covered: all(/^covered '([^']*)' '([^']*)'/gm),
    synopsis: all(/^synopsis '([^']*)'/gm).map(([t]) => t),
  };
}

describe('every README command runs in CI (.ci/readme-commands.sh)', () => {
  const readme = readmeCommands(read('README.md'));
  const runner = runnerLines(read('.ci/readme-commands.sh'));

  it('has a line for each command of the code blocks and the target table, and none the README lost', () => {
    expect(readme.commands.length).toBeGreaterThan(20);
    const inRunner = [...runner.run, ...runner.covered.map(([t]) => t)];
    expect(
      readme.commands.filter((c) => !inRunner.includes(c)),
      'add a `readme` line to .ci/readme-commands.sh',
    ).toEqual([]);
    expect(
      inRunner.filter((c) => !readme.commands.includes(c)),
      'the README no longer shows these',
    ).toEqual([]);
  });

  it('checks each line of the CLI synopsis', () => {
    expect(readme.synopsis.length).toBeGreaterThan(5);
    expect(runner.synopsis).toEqual(readme.synopsis);
  });

  it('a command said to run inside another does: make test runs make test-unit, .ci/run runs lint and the runner', () => {
    expect(runner.covered).toEqual([
      ['make test-unit', 'make test'],
      ['npm run lint', '.ci/run'],
    ]);
    expect(read('Makefile')).toMatch(/^test: test-unit$/m);
    const ci = read('.ci/run');
    expect(ci).toMatch(/^\s*npm run lint$/m);
    expect(ci).toMatch(/^bash \.ci\/readme-commands\.sh$/m);
  });

  it('the parser finds a command planted in a code block and in the table, and skips comments and other languages', () => {
    const planted = [
      '```sh',
      'make bundle        # builds',
      '# a comment line',
      'core-agent new-thing --flag',
      '```',
      '```yaml',
      'model: x',
      '```',
      '| command | what |',
      '|---|---|',
      '| `make a` / `b` | two targets |',
      '```',
      'core-agent run "PROMPT"',
      '```',
    ].join('\n');
    expect(readmeCommands(planted)).toEqual({
      commands: ['make bundle', 'core-agent new-thing --flag', 'make a', 'make b'],
      synopsis: ['core-agent run "PROMPT"'],
    });
  });
});
