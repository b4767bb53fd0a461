// src/util/is-terminal.ts: isatty's answer for every kind of descriptor, with node:tty loaded
// only for a character device that is not /dev/null.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'is-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = path.resolve(import.meta.dirname, '../../src/util/is-terminal.ts');

// A child Node reports isTerminal(0) and whether it loaded node:tty; stdin is what the case gives.
const PROBE =
  `import(${JSON.stringify(source)}).then(({ isTerminal }) => { const answer = isTerminal(0); ` +
  `process.stdout.write(JSON.stringify({ answer, tty: process.moduleLoadList.includes('NativeModule tty') })); });`;
const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

function probe(stdin: 'pipe' | 'ignore' | number | 'closed'): { answer: boolean; tty: boolean } {
  // 'closed': the child closes fd 0 itself before asking.
  const code = stdin === 'closed' ? `require('node:fs').closeSync(0); ${PROBE}` : PROBE;
  const r = spawnSync(process.execPath, ['-e', code], { stdio: [stdin === 'closed' ? 'pipe' : stdin, 'pipe', 'pipe'], encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { answer: boolean; tty: boolean };
}

describe('isTerminal', () => {
  it('a pipe: no, without node:tty', () => expect(probe('pipe')).toEqual({ answer: false, tty: false }));
  it('/dev/null (a character device): no, without node:tty', () => expect(probe('ignore')).toEqual({ answer: false, tty: false }));
  it('a regular file: no, without node:tty', () => {
    const file = path.join(dir, 'input.txt');
    writeFileSync(file, 'hello');
    const fd = openSync(file, 'r');
    try {
      expect(probe(fd)).toEqual({ answer: false, tty: false });
    } finally {
      closeSync(fd);
    }
  });
  it('a closed descriptor: no', () => expect(probe('closed').answer).toBe(false));
  it('another character device asks isatty: /dev/zero is none', () => {
    const fd = openSync('/dev/zero', 'r');
    try {
      expect(probe(fd)).toEqual({ answer: false, tty: true });
    } finally {
      closeSync(fd);
    }
  });
  it('a terminal: yes', () => {
    // script(1) gives the child a pseudo-terminal on its stdin.
    const r = spawnSync('script', ['-qec', `${shellQuote(process.execPath)} -e ${shellQuote(PROBE)}`, '/dev/null'], {
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toEqual({ answer: true, tty: true });
  });
});
