// The Dockerfile's contract (dockerfile.cases.ts) and the pins' form: no engine runs here,
// so the file is read as text; scripts/rootfs.sh, which its build stage runs, is what
// test/cluster/rootfs.test.ts builds and runs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCKERFILE_RULES, type Where } from './dockerfile.cases.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(`${root}/Dockerfile`, 'utf8');

/** The part of a Dockerfile a rule looks at: the build stage is up to the second FROM. */
function part(text: string, where: Where): string {
  if (where === 'file') return text;
  const froms = [...text.matchAll(/^FROM /gm)].map((m) => m.index);
  expect(froms.length, 'two stages').toBe(2);
  return where === 'build' ? text.slice(froms[0], froms[1]) : text.slice(froms[1]);
}
const holds = (text: string, where: Where, pattern: RegExp) => pattern.test(part(text, where));

describe('the Dockerfile (dockerfile.cases.ts)', () => {
  it.each(DOCKERFILE_RULES)('%s', (_rule, where, pattern, from, to) => {
    expect(holds(dockerfile, where, pattern)).toBe(true);
    expect(dockerfile, `the mutation's text is in the Dockerfile`).toContain(from);
    expect(holds(dockerfile.replace(from, to), where, pattern), `replacing ${JSON.stringify(from)} breaks the rule`).toBe(false);
  });

  it('takes every base image from an ARG pinned as NAME:TAG@sha256:DIGEST, and nothing else', () => {
    const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(froms).toEqual(['${BUILD_IMAGE}', '${RUNTIME_IMAGE}']);
    const pins = [...dockerfile.matchAll(/^ARG ([A-Z_]+_IMAGE)=(.*)$/gm)].map((m) => [m[1], m[2]]);
    expect(pins.map(([name]) => name)).toEqual(['BUILD_IMAGE', 'RUNTIME_IMAGE']);
    for (const [name, ref] of pins) expect(ref, name).toMatch(/^[a-z0-9./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/);
    // Every ARG a FROM uses is declared before the first FROM (the only place FROM can see it).
    const beforeFirstFrom = dockerfile.slice(0, dockerfile.search(/^FROM /m));
    for (const f of froms) expect(beforeFirstFrom).toMatch(new RegExp(`^ARG ${f!.slice(2, -1)}=`, 'm'));
  });

  it('lets the build stage see what it copies (.dockerignore)', () => {
    const ignore = readFileSync(`${root}/.dockerignore`, 'utf8');
    for (const [, src] of dockerfile.matchAll(/^COPY (?!--from)(\S+) /gm)) {
      const top = src!.split('/')[0];
      expect(ignore, `${top} is let back in`).toMatch(new RegExp(`^!${top!.replace('.', '\\.')}/?$`, 'm'));
    }
  });
});
