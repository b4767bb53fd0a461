import { execFileSync } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/**
 * Hostile configuration files, one per line, each run through the built CLI by
 * hostile-config.test.ts. A case writes FILE (and whatever else it needs) into a
 * fresh workspace; `args` is the command line, with FILE and WS replaced by the
 * absolute paths. With `at`, stderr must hold a line starting with
 * `FILE<at>` (optionally after "core-agent: "): `:LINE:COL: message` where the
 * file has a position, `: message` where it has none (a FIFO, a size).
 */
export interface HostileCase {
  name: string;
  /** Relative to the workspace. */
  file: string;
  make: Maker;
  args: string[];
  code: 0 | 2;
  at?: string;
}

/** Writes the case's file; may return a cleanup (a socket's server). */
type Maker = (abs: string, ws: string) => Promise<void | (() => Promise<void>)>;

const MiB = 1024 * 1024;
const RECIPE_LIMIT = 256 * 1024;
const text =
  (s: string): Maker =>
  (abs) =>
    writeFile(abs, s);
const bytes =
  (b: Buffer): Maker =>
  (abs) =>
    writeFile(abs, b);
const fifo: Maker = async (abs) => void execFileSync('mkfifo', [abs]);
const directory: Maker = (abs) => mkdir(abs, { recursive: true }).then(() => undefined);
const linkTo =
  (target: string | Maker): Maker =>
  async (abs, ws) => {
    let to = target as string;
    if (typeof target === 'function') {
      to = path.join(ws, `target-of-${path.basename(abs)}`);
      await target(to, ws);
    }
    await symlink(to, abs);
  };
const socket: Maker = async (abs) => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(abs, resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
};
/** `size` bytes: `head`, then `fill` repeated. */
const big =
  (size: number, head = '', fill = 'a'): Maker =>
  (abs) => {
    const b = Buffer.alloc(size, fill);
    b.write(head);
    return writeFile(abs, b);
  };
const unreadable =
  (s: string): Maker =>
  async (abs) => {
    await writeFile(abs, s);
    await chmod(abs, 0o000);
  };

/** The classic billion laughs: nine levels of nine aliases, 387 million nodes expanded. */
export function billionLaughs(levels = 9): string {
  const names = 'abcdefghijklmnopqrstuvwxyz';
  const lines = [`${names[0]}: &${names[0]} [${Array(9).fill('"lol"').join(',')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const skill = (front: string, body = '# runbook\n') => `---\n${front}---\n${body}`;
/** Skill s is installed; FILE is another SKILL.md that also says name: s (on line 3). */
const secondSkillNamedS: Maker = async (abs, ws) => {
  await mkdir(path.join(ws, '.agents/skills/s'), { recursive: true });
  await writeFile(path.join(ws, '.agents/skills/s/SKILL.md'), skill('name: s\ndescription: d\n'));
  await writeFile(abs, skill('description: d\nname: s\n'));
};
const VALIDATE = ['recipe', 'validate', 'FILE'];
const LIST_WITH = ['tools', 'list', '-c', 'FILE'];
const LIST_TRUSTED = ['tools', 'list', '-w', 'WS', '--trust-workspace'];
const LIST = ['tools', 'list', '-w', 'WS'];
const MCP = '.agents/mcp.json';
const SKILL = '.agents/skills/s/SKILL.md';
const root = process.getuid?.() === 0;
/** A one-turn run with a scripted model: the path that reads AGENTS.md. */
const RUN = ['run', '-m', 'replay:WS/script.jsonl', '--session-db', ':memory:', 'hello'];
const withScript =
  (make: Maker): Maker =>
  async (abs, ws) => {
    await writeFile(path.join(ws, 'script.jsonl'), '{"text": "done"}\n');
    return make(abs, ws);
  };

// One case a line (prettier would spread each over ten).
// prettier-ignore
export const HOSTILE_CASES: HostileCase[] = [
  // Recipes: recipe validate, and tools list -c (the path every run takes).
  { name: 'billion laughs (9 levels)', file: 'r.yaml', make: text(billionLaughs()), args: VALIDATE, code: 2, at: ':5:8: alias *d: aliases expand this file past 10000 nodes' },
  { name: 'billion laughs through tools list -c', file: 'r.yaml', make: text(billionLaughs()), args: LIST_WITH, code: 2, at: ':5:8: alias *d: aliases expand' },
  { name: 'an undefined alias', file: 'r.yaml', make: text('tools:\n  disable: *nope\n'), args: VALIDATE, code: 2, at: ':2:12: alias *nope has no anchor &nope before it' },
  { name: 'an alias used before its anchor', file: 'r.yaml', make: text('a: *x\nb: &x 1\n'), args: VALIDATE, code: 2, at: ':1:4: alias *x has no anchor &x before it' },
  { name: 'an alias inside its own anchor (a cycle)', file: 'r.yaml', make: text('tools: &t\n  disable: *t\n'), args: VALIDATE, code: 2, at: ':2:12: alias *t is inside the node it names (a cycle)' },
  { name: 'aliases under the budget are fine', file: 'r.yaml', make: text('permissions:\n  allow: &r ["tool.read_file:docs/**"]\n  deny: *r\n'), args: VALIDATE, code: 0 },
  { name: 'a 50 MB recipe', file: 'r.yaml', make: big(50 * MiB, '# '), args: VALIDATE, code: 2, at: ': 52428800 bytes is over the 256 KiB limit for a recipe; nothing of it was parsed' },
  { name: 'a 50 MB recipe through tools list -c', file: 'r.yaml', make: big(50 * MiB, '# '), args: LIST_WITH, code: 2, at: ': 52428800 bytes is over the 256 KiB limit' },
  { name: 'one byte over 256 KiB', file: 'r.yaml', make: big(RECIPE_LIMIT + 1, '# '), args: VALIDATE, code: 2, at: ': 262145 bytes is over the 256 KiB limit for a recipe' },
  { name: 'exactly 256 KiB (a comment) is accepted', file: 'r.yaml', make: big(RECIPE_LIMIT, 'max_steps: 3\n# '), args: VALIDATE, code: 0 },
  { name: 'a FIFO with no writer', file: 'r.yaml', make: fifo, args: VALIDATE, code: 2, at: ': not a regular file (a FIFO); give a recipe file' },
  { name: 'a FIFO through tools list -c', file: 'r.yaml', make: fifo, args: LIST_WITH, code: 2, at: ': not a regular file (a FIFO)' },
  { name: 'a symlink to a FIFO', file: 'r.yaml', make: linkTo(fifo), args: VALIDATE, code: 2, at: ': not a regular file (a FIFO)' },
  { name: 'a directory', file: 'r.yaml', make: directory, args: VALIDATE, code: 2, at: ': not a regular file (a directory); give a recipe file' },
  { name: '/dev/zero', file: 'r.yaml', make: linkTo('/dev/zero'), args: VALIDATE, code: 2, at: ': not a regular file (a character device)' },
  { name: 'a UNIX socket', file: 'r.yaml', make: socket, args: VALIDATE, code: 2, at: ': not a regular file (a socket)' },
  { name: 'a missing file', file: 'r.yaml', make: async () => {}, args: VALIDATE, code: 2, at: ': cannot read a recipe (no such file)' },
  { name: 'a dangling symlink', file: 'r.yaml', make: linkTo('/nonexistent/recipe.yaml'), args: VALIDATE, code: 2, at: ': cannot read a recipe (no such file)' },
  ...(root ? [] : [{ name: 'an unreadable file', file: 'r.yaml', make: unreadable('max_steps: 3\n'), args: VALIDATE, code: 2 as const, at: ': cannot read a recipe (permission denied)' }]),
  { name: 'a binary file (NUL bytes)', file: 'r.yaml', make: bytes(Buffer.from([0x6d, 0x3a, 0x20, 0x00, 0x01, 0xff])), args: VALIDATE, code: 2, at: ':1:4: not a text file (a NUL byte); a recipe is UTF-8 text' },
  { name: 'Latin-1 text (not UTF-8)', file: 'r.yaml', make: bytes(Buffer.from('max_steps: 3\nins: caf\xe9\n', 'latin1')), args: VALIDATE, code: 2, at: ':2:9: not a text file (the byte 0xe9 is not UTF-8)' },
  { name: 'a syntax error on line 4', file: 'r.yaml', make: text('max_steps: 3\npermissions:\n  mode: ask\n  allow: ["tool.read_file"\n'), args: VALIDATE, code: 2, at: ':5:1: YAML ' },
  { name: 'an unclosed quote on line 2', file: 'r.yaml', make: text('max_steps: 3\ninstructions: "never closed\n'), args: VALIDATE, code: 2, at: ':3:1: YAML Missing closing "quote' },
  { name: 'tab indentation', file: 'r.yaml', make: text('permissions:\n\tmode: ask\n'), args: VALIDATE, code: 2, at: ':2:1: YAML Tabs are not allowed as indentation' },
  { name: 'duplicate keys', file: 'r.yaml', make: text('max_steps: 3\npermissions: {}\nmax_steps: 4\n'), args: VALIDATE, code: 2, at: ':3:1: duplicate key "max_steps" (first at 1:1)' },
  { name: 'two documents', file: 'r.yaml', make: text('max_steps: 3\n---\nmax_steps: 4\n'), args: VALIDATE, code: 2, at: ':2:1: YAML Source contains multiple documents' },
  { name: 'an unknown tag (a warning, still an error)', file: 'r.yaml', make: text('max_steps: !big 3\n'), args: VALIDATE, code: 2, at: ':1:12: YAML Unresolved tag: !big' },
  { name: 'flow nesting past 64 levels', file: 'r.yaml', make: text(`instructions: ${'['.repeat(100)}${']'.repeat(100)}\n`), args: VALIDATE, code: 2, at: ':1:79: flow collections ([ and {) nested more than 64 levels deep' },
  { name: '256 KiB of [ (stopped by the lexer, not the parser)', file: 'r.yaml', make: big(RECIPE_LIMIT, '', '['), args: VALIDATE, code: 2, at: ':1:65: flow collections ([ and {) nested more than 64 levels deep' },
  { name: 'brackets inside quotes are text', file: 'r.yaml', make: text(`instructions: "${'['.repeat(100)}"\n`), args: VALIDATE, code: 0 },
  { name: 'brackets inside a block scalar are text', file: 'r.yaml', make: text(`instructions: |\n  ${'['.repeat(100)}\n  # not a comment\n`), args: VALIDATE, code: 0 },
  { name: '"- " stacked 100 deep on one line', file: 'r.yaml', make: text(`x:\n  ${'- '.repeat(100)}y\n`), args: VALIDATE, code: 2, at: ':2:131: more than 64 nested "-" on one line' },
  { name: '256 KiB of "? " (nested complex keys)', file: 'r.yaml', make: big(RECIPE_LIMIT, '', '? '), args: VALIDATE, code: 2, at: ':1:129: more than 64 nested "?" on one line' },
  { name: 'block nesting past 64 levels', file: 'r.yaml', make: text(Array.from({ length: 70 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')), args: VALIDATE, code: 2, at: ':65:65: nested more than 64 levels deep' },
  { name: 'a collection as a key', file: 'r.yaml', make: text('? [a, b]\n: 1\n'), args: VALIDATE, code: 2, at: ':1:3: a key must be a plain name, not a collection or an alias' },
  { name: 'an alias as a key', file: 'r.yaml', make: text('max_steps: &k 3\n*k : 4\n'), args: VALIDATE, code: 2, at: ':2:1: a key must be a plain name' },
  { name: 'an error on every byte (256 KiB of ]): twenty shown', file: 'r.yaml', make: big(RECIPE_LIMIT, '', ']'), args: VALIDATE, code: 2, at: ': … and ' },
  { name: 'a scalar, not a mapping', file: 'r.yaml', make: text('just words\n'), args: VALIDATE, code: 2, at: ':1:1: a recipe is a mapping of keys (tools, tool_output, permissions), not a string' },
  { name: 'one huge line', file: 'r.yaml', make: big(RECIPE_LIMIT, '', 'x'), args: VALIDATE, code: 2, at: ':1:1: a recipe is a mapping' },
  { name: 'a tool both disabled and enabled', file: 'r.yaml', make: text('tools:\n  disable: [grep, glob]\n  enable: [stat, glob]\n'), args: VALIDATE, code: 2, at: ':3:18: tools.enable.1: glob is both disabled and enabled (tools.disable.1); keep it in one list' },
  { name: '27 000 unknown keys (256 KiB): twenty described, the rest counted', file: 'r.yaml', make: text(Array.from({ length: 27_000 }, (_, i) => `k${i}: 1`).join('\n')), args: VALIDATE, code: 2, at: ': … and 26980 more problems' },
  { name: 'a hundred unknown keys: twenty shown', file: 'r.yaml', make: text(Array.from({ length: 100 }, (_, i) => `k${i}: 1`).join('\n')), args: VALIDATE, code: 2, at: ': … and 80 more problems' },
  // .agents/mcp.json: strict JSON, bounded; trusted it stops the run, untrusted it is only reported.
  { name: 'mcp.json: a trailing comma', file: MCP, make: text('{"servers": {"x": {"command": "y"},}}'), args: LIST_TRUSTED, code: 2, at: ':1:35: not JSON: a trailing comma (JSON allows none)' },
  { name: 'mcp.json: a trailing comma in a list', file: MCP, make: text('{"servers": {"x": {"command": "y", "args": ["a",]}}}'), args: LIST_TRUSTED, code: 2, at: ':1:48: not JSON: a trailing comma' },
  { name: 'mcp.json: a comment', file: MCP, make: text('{\n  // servers\n  "servers": {}\n}\n'), args: LIST_TRUSTED, code: 2, at: ':2:3: not JSON: a comment (JSON has none)' },
  { name: 'mcp.json: single quotes', file: MCP, make: text("{'servers': {}}"), args: LIST_TRUSTED, code: 2, at: ':1:2: not JSON: a single-quoted string' },
  { name: 'mcp.json: a bare key', file: MCP, make: text('{servers: {}}'), args: LIST_TRUSTED, code: 2, at: ':1:2: not JSON: "servers" (JSON strings and names are in double quotes)' },
  { name: 'mcp.json: unclosed', file: MCP, make: text('{"servers": {\n'), args: LIST_TRUSTED, code: 2, at: ':2:1: not JSON: the file ends where a property name was expected' },
  { name: 'mcp.json: empty', file: MCP, make: text(''), args: LIST_TRUSTED, code: 2, at: ':1:1: not JSON: the file holds no JSON value' },
  { name: 'mcp.json: YAML, not JSON', file: MCP, make: text('servers:\n  x: {command: y}\n'), args: LIST_TRUSTED, code: 2, at: ':1:1: not JSON: "servers"' },
  { name: 'mcp.json: duplicate keys', file: MCP, make: text('{"servers": {}, "servers": {}}'), args: LIST_TRUSTED, code: 2, at: ':1:17: duplicate key "servers"' },
  { name: 'mcp.json: a misspelt key', file: MCP, make: text('{"servers": {"x": {"comand": "y"}}}'), args: LIST_TRUSTED, code: 2, at: ':1:20: servers.x: unknown key "comand" — did you mean "command"?' },
  { name: 'mcp.json: 2 MB', file: MCP, make: big(2 * MiB, '{"servers": {}}'), args: LIST_TRUSTED, code: 2, at: ': 2097152 bytes is over the 64 KiB limit for an MCP declaration file' },
  { name: 'mcp.json: deep nesting', file: MCP, make: text(`{"servers": ${'['.repeat(100)}${']'.repeat(100)}}`), args: LIST_TRUSTED, code: 2, at: ':1:76: flow collections ([ and {) nested more than 64 levels deep' },
  { name: 'mcp.json: every JSON form is accepted (escapes, exponents, nesting)', file: MCP, make: text('{"servers": {"x": {"command": "y\\u0041\\n", "args": ["-1.5e3", "\\"q\\"", ""], "env": {}, "startup_timeout_seconds": 1.5e1, "disabled": true}}, "version": 1}\r\n'), args: LIST_TRUSTED, code: 0 },
  { name: 'mcp.json: a FIFO', file: MCP, make: fifo, args: LIST_TRUSTED, code: 2, at: ': not a regular file (a FIFO)' },
  { name: 'mcp.json: /dev/zero', file: MCP, make: linkTo('/dev/zero'), args: LIST_TRUSTED, code: 2, at: ': not a regular file (a character device)' },
  { name: 'mcp.json: a FIFO, untrusted, is only reported', file: MCP, make: fifo, args: LIST, code: 0 },
  { name: 'mcp.json: 2 MB, untrusted, is only reported', file: MCP, make: big(2 * MiB), args: LIST, code: 0 },
  // SKILL.md: only a bounded head (the front matter) is read at start-up.
  { name: 'SKILL.md: 2 MB of garbage', file: SKILL, make: big(2 * MiB, 'Zm9vYmFy', 'q'), args: LIST, code: 2, at: ':1:1: SKILL.md must start with front matter' },
  { name: 'SKILL.md: 8 MB with front matter never closed', file: SKILL, make: big(8 * MiB, '---\nname: s\ndescription: d\n', 'y'), args: LIST, code: 2, at: ':1:1: the front matter is not closed by a --- line within 16 KiB' },
  { name: 'SKILL.md: 8 MB of body after valid front matter is fine', file: SKILL, make: big(8 * MiB, skill('name: s\ndescription: d\n')), args: LIST, code: 0 },
  { name: 'SKILL.md: front matter never closed (small file)', file: SKILL, make: text('---\nname: s\ndescription: d\n'), args: LIST, code: 2, at: ':1:1: the front matter opened here is never closed' },
  { name: 'SKILL.md: a FIFO', file: SKILL, make: fifo, args: LIST, code: 2, at: ': not a regular file (a FIFO)' },
  { name: 'SKILL.md: /dev/zero', file: SKILL, make: linkTo('/dev/zero'), args: LIST, code: 2, at: ": SKILL.md is a symlink to /dev/zero, outside the skill's directory" },
  { name: 'SKILL.md: a directory', file: SKILL, make: directory, args: LIST, code: 2, at: ': not a regular file (a directory)' },
  { name: 'SKILL.md: binary', file: SKILL, make: bytes(Buffer.from('---\nname: \x00\n')), args: LIST, code: 2, at: ':2:7: not a text file (a NUL byte)' },
  { name: 'SKILL.md: a bad name', file: SKILL, make: text(skill('name: Bad Name\ndescription: d\n')), args: LIST, code: 2, at: ':2:7: name: lower-case letters, digits and -' },
  { name: 'SKILL.md: no description', file: SKILL, make: text(skill('name: s\n')), args: LIST, code: 2, at: ':2:1: description: required' },
  { name: 'SKILL.md: a description over 1024 characters', file: SKILL, make: text(skill(`name: s\ndescription: ${'w'.repeat(1100)}\n`)), args: LIST, code: 2, at: ':3:14: description: at most 1024 characters' },
  { name: 'SKILL.md: tab indentation in front matter', file: SKILL, make: text(skill('name: s\ndescription: d\nmetadata:\n\tx: 1\n')), args: LIST, code: 2, at: ':5:1: YAML Tabs are not allowed as indentation' },
  { name: 'SKILL.md: an alias bomb in front matter', file: SKILL, make: text(skill(`name: s\ndescription: d\n${billionLaughs()}`)), args: LIST, code: 2, at: ':8:8: alias *d: aliases expand' },
  { name: 'SKILL.md: an undefined alias', file: SKILL, make: text(skill('name: *n\ndescription: d\n')), args: LIST, code: 2, at: ':2:7: alias *n has no anchor' },
  { name: 'SKILL.md: duplicate keys', file: SKILL, make: text(skill('name: s\ndescription: d\nname: t\n')), args: LIST, code: 2, at: ':4:1: duplicate key "name"' },
  { name: 'SKILL.md: CRLF line ends are fine', file: SKILL, make: text('---\r\nname: s\r\ndescription: d\r\n---\r\nbody\r\n'), args: LIST, code: 0 },
  { name: 'SKILL.md: unknown front-matter keys are fine (license, metadata)', file: SKILL, make: text(skill('name: s\ndescription: d\nlicense: MIT\nmetadata: {a: 1}\n')), args: LIST, code: 0 },
  { name: 'SKILL.md: a second skill with the same name', file: '.agents/skills/t/SKILL.md', make: secondSkillNamedS, args: LIST, code: 2, at: ':3:1: a skill named "s" is already loaded' },
  // AGENTS.md goes into every prompt: only its head is read, and one that cannot be read is left out.
  { name: 'AGENTS.md: a FIFO does not hang a run', file: 'AGENTS.md', make: withScript(fifo), args: RUN, code: 0 },
  { name: 'AGENTS.md: /dev/zero does not fill memory', file: 'AGENTS.md', make: withScript(linkTo('/dev/zero')), args: RUN, code: 0 },
  { name: 'AGENTS.md: 50 MB, only its head is read', file: 'AGENTS.md', make: withScript(big(50 * MiB)), args: RUN, code: 0 },
];
