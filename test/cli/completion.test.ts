import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TREE, isRefused, type CommandNode } from '../../src/cli/command-table.ts';
import { completionNodes, completionScript } from '../../src/cli/completion-command.ts';
import { ALL_COMMANDS } from '../../src/cli/commands.ts';
import { COMMANDS, main } from '../../src/cli/main.ts';
import type { Io } from '../../src/cli/usage.ts';
import { COMPLETION_CASES } from './completion.cases.ts';

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'core-agent-completion-'));
  for (const f of ['r.yaml', 's.yml', 'notes.txt']) writeFileSync(path.join(dir, f), '');
  mkdirSync(path.join(dir, 'sub'));
  script = path.join(dir, 'core-agent.bash');
  writeFileSync(script, completionScript('bash'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** COMPREPLY after sourcing the script in a real bash with COMP_WORDS / COMP_CWORD set for `line`. */
function complete(line: string): string[] {
  const words = ['core-agent', ...line.split(' ')];
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const driver = `source '${script}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _core_agent; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', driver], { cwd: dir, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout.split('\n').filter((s) => s !== '');
}

describe('completion bash: a real bash completes from the generated script', () => {
  it.each(COMPLETION_CASES)('core-agent $line', ({ line, has, not, exactly }) => {
    const got = complete(line);
    if (exactly) expect(got.sort()).toEqual([...exactly].sort());
    for (const w of has ?? []) expect(got).toContain(w);
    for (const w of not ?? []) expect(got).not.toContain(w);
  });
});

function quietIo(): Io & { stdout: string[] } {
  const stdout: string[] = [];
  return { stdout, out: (t) => void stdout.push(t), err: () => {}, readStdin: async () => '', isTty: false, env: {} };
}

/** Every command path of the tree with its node ("sessions list" → its node). */
function paths(): [string, CommandNode][] {
  const out: [string, CommandNode][] = [];
  const walk = (p: string, n: CommandNode) => {
    out.push([p, n]);
    for (const [k, c] of Object.entries(n.subcommands ?? {})) walk(`${p} ${k}`, c);
  };
  for (const [k, n] of Object.entries(COMMAND_TREE)) walk(k, n);
  return out;
}
const leaves = () => paths().filter(([, n]) => !n.subcommands && Object.keys(n.options).length > 0);

describe('completion: the tables are the ones the CLI parses', () => {
  it('every command main.ts dispatches is in the tree the scripts come from', () => {
    expect(Object.keys(COMMAND_TREE).sort()).toEqual([...COMMANDS].sort());
    // And the whole CLI's script holds a module for each (version and help main.ts answers itself).
    expect([...Object.keys(ALL_COMMANDS), 'version', 'help'].sort()).toEqual([...COMMANDS].sort());
  });

  // A flag in the tree that the command's own parse refused would be a completion that lies.
  it.each(leaves())('%s parses every flag the completion offers', async (p, node) => {
    for (const [name, spec] of Object.entries(node.options)) {
      if (name === 'help' || isRefused(spec)) continue;
      for (const flag of [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]) {
        const argv = [...p.split(' '), flag, ...(spec.type === 'string' ? ['x'] : []), '--help'];
        expect([flag, await main(argv, quietIo(), ALL_COMMANDS)]).toEqual([flag, 0]);
      }
    }
  });

  // A flag a command's help documents but the tree lacks would be one the completion misses.
  // (A subcommand that prints its parent's help, like `mcp login`, is held to its siblings' flags together.)
  it.each(leaves())('%s: every flag its --help names completes', async (p) => {
    const help = async (words: string[]) => {
      const io = quietIo();
      expect(await main([...words, '--help'], io, ALL_COMMANDS)).toBe(0);
      return io.stdout.join('');
    };
    const words = p.split(' ');
    const text = await help(words);
    const nodes = completionNodes();
    const parent = words.slice(0, -1).join(' ');
    const shared = words.length > 1 && text === (await help(words.slice(0, -1)));
    const offered = nodes.filter((n) => n.path === p || (shared && n.path.startsWith(`${parent} `))).flatMap((n) => n.flags);
    const documented = new Set(text.match(/(?<![\w-])--[a-z][\w-]*/g) ?? []);
    expect([...documented].filter((f) => !offered.includes(f))).toEqual([]);
  });

  it('every flag of every table is in the bash script, on its command line', () => {
    const text = completionScript('bash');
    for (const [p, node] of paths()) {
      const line = text.split('\n').find((l) => l.startsWith(`    '${p}')`));
      expect(line, p).toBeDefined();
      const flags = (/flags='([^']*)'/.exec(line!)?.[1] ?? '').split(' ');
      // A flag the command refuses is not offered (test/cli/flag-drift.test.ts holds the rest).
      for (const [name, spec] of Object.entries(node.options).filter(([, s]) => !isRefused(s))) {
        expect(flags, p).toContain(`--${name}`);
        if (spec.short) expect(flags, p).toContain(`-${spec.short}`);
      }
    }
  });
});

describe('completion zsh and fish', () => {
  const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
  it('bash -n accepts the bash script, and the zsh script keeps the same function', () => {
    expect(spawnSync('bash', ['-n', script]).status).toBe(0);
    expect(completionScript('zsh')).toContain('bashcompinit');
    expect(completionScript('zsh')).toContain('complete -F _core_agent core-agent');
  });
  it.skipIf(!has('zsh'))('zsh -n accepts the zsh script', () => {
    const f = path.join(dir, 'core-agent.zsh');
    writeFileSync(f, completionScript('zsh'));
    expect(spawnSync('zsh', ['-n', f]).status).toBe(0);
  });
  it.skipIf(!has('fish'))('fish -n accepts the fish script', () => {
    const f = path.join(dir, 'core-agent.fish');
    writeFileSync(f, completionScript('fish'));
    expect(spawnSync('fish', ['-n', f]).status).toBe(0);
  });
  it('the fish script declares every flag of every command with its condition', () => {
    const text = completionScript('fish');
    for (const [p, node] of paths())
      for (const [name] of Object.entries(node.options).filter(([, s]) => !isRefused(s)))
        expect(text).toContain(`-n '__core_agent_at "${p}"' -l ${name}`);
  });
});
