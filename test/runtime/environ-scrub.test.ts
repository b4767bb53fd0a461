import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('../../src/runtime/environ-scrub.ts', import.meta.url));

/**
 * Scrub in a fresh Node process (the scrub rewrites its own environment block,
 * once): print the outcome, what /proc/self/environ then shows of each
 * variable, and what process.env still holds.
 */
function scrubIn(env: Record<string, string>, wrap: string[] = []) {
  const script = `import { scrubSecretsFromEnviron } from ${JSON.stringify(module)};
import { readFileSync } from 'node:fs';
const outcome = scrubSecretsFromEnviron();
const block = Object.fromEntries(readFileSync('/proc/self/environ', 'latin1').split('\\0').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
const names = ${JSON.stringify(Object.keys(env))}.concat(outcome.names ?? []);
console.log(JSON.stringify({ outcome, block: Object.fromEntries(names.map((n) => [n, block[n]])), env: Object.fromEntries(names.map((n) => [n, process.env[n]])) }));`;
  const node = [process.execPath, '--experimental-transform-types', '--no-warnings', '--input-type=module', '-e', script];
  const r = spawnSync(wrap.length ? wrap[0]! : node[0]!, wrap.length ? [...wrap.slice(1), ...node] : node.slice(1), {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    outcome: { status: string; names?: string[]; reason?: string };
    block: Record<string, string | undefined>;
    env: Record<string, string | undefined>;
  };
}

describe.skipIf(!existsSync('/proc/self/environ'))('the start-up scrub of the environment block', () => {
  it('blanks every secret-looking value in place, keeps the rest, and the process keeps the values', () => {
    const env = { OPENAI_API_KEY: 'sk-test-123456', GITHUB_TOKEN: 'ghp_abc', DB_PASSWORD: 'hunter2=x', PLAIN: 'visible', EMPTY_SECRET: '' };
    const r = scrubIn(env);
    expect(r.outcome).toEqual({ status: 'scrubbed', names: expect.arrayContaining(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD']) });
    expect(r.block).toMatchObject({
      OPENAI_API_KEY: '**************',
      GITHUB_TOKEN: '*******',
      DB_PASSWORD: '*********',
      PLAIN: 'visible',
    });
    expect(r.env).toMatchObject({ OPENAI_API_KEY: 'sk-test-123456', GITHUB_TOKEN: 'ghp_abc', DB_PASSWORD: 'hunter2=x', PLAIN: 'visible' });
  });

  it('with nothing secret-looking, touches nothing', () => {
    expect(scrubIn({ PLAIN: 'visible' }).outcome).toEqual({ status: 'nothing' });
  });

  it('reports a value it could not blank (not UTF-8) by name, and still blanks the others', () => {
    // env(1) sets a value Node cannot spell: the byte 0xff.
    const r = scrubIn({ OPENAI_API_KEY: 'sk-test-abcdef' }, ['sh', '-c', 'exec env "ODD_TOKEN=$(printf "\\377")" "$@"', 'sh']);
    expect(r.outcome).toMatchObject({ status: 'failed', names: expect.arrayContaining(['ODD_TOKEN', 'OPENAI_API_KEY']) });
    expect(r.outcome.reason).toMatch(/still readable after the overwrite: ODD_TOKEN/);
    expect(r.block.OPENAI_API_KEY).toBe('**************');
    expect(r.env.OPENAI_API_KEY).toBe('sk-test-abcdef');
  });
});
