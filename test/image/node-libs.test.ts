// image/node-libs.txt is the one list of shared libraries the image carries for Node
// (the Dockerfile's build stage and scripts/rootfs.sh copy exactly it). Here: it is what
// the loader resolves for the Node this checkout ships, read with ldd on this machine
// (Debian 12, like the build stage), and its form holds for both architectures.
// The other architecture's lines are checked where its tree is built and run
// (test/cluster/rootfs.test.ts, under qemu-user).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arch } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lines = readFileSync(`${root}/image/node-libs.txt`, 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'));
const entries = lines.map((l) => l.split(' ') as [string, string]);
const forArch = (a: string) => entries.filter(([x]) => x === a).map(([, p]) => p);
const hostArch = arch() === 'x64' ? 'amd64' : arch() === 'arm64' ? 'arm64' : arch();
const hostNode = `${root}/node_modules/node-linux-${arch()}/bin/node`;

describe('image/node-libs.txt', () => {
  it('has one "ARCH /absolute/path" a line, sorted, for amd64 and arm64 only', () => {
    for (const l of lines) expect(l).toMatch(/^(amd64|arm64) \/[\w./+-]+\.so(\.\d+)*$/);
    expect(new Set(entries.map(([a]) => a))).toEqual(new Set(['amd64', 'arm64']));
    expect(lines).toEqual([...lines].sort());
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('lists the same libraries for both architectures, each with its own loader and triplet', () => {
    const names = (a: string) =>
      forArch(a).map((p) =>
        p
          .split('/')
          .pop()!
          .replace(/ld-linux-[\w-]+\.so\.\d/, 'LOADER'),
      );
    expect(names('arm64').sort()).toEqual(names('amd64').sort());
    expect(forArch('amd64')).toContain('/lib64/ld-linux-x86-64.so.2');
    expect(forArch('arm64')).toContain('/lib/ld-linux-aarch64.so.1');
    expect(
      forArch('amd64')
        .filter((p) => !p.startsWith('/lib64/'))
        .every((p) => p.startsWith('/lib/x86_64-linux-gnu/')),
    ).toBe(true);
    expect(
      forArch('arm64')
        .filter((p) => p !== '/lib/ld-linux-aarch64.so.1')
        .every((p) => p.startsWith('/lib/aarch64-linux-gnu/')),
    ).toBe(true);
  });

  it(`is what ldd says the shipped Node links on this machine (${hostArch})`, () => {
    const out = execFileSync('ldd', [hostNode], { encoding: 'utf8' });
    const linked = out
      .split('\n')
      .map((l) => /=> (\/\S+)/.exec(l)?.[1] ?? /^\s*(\/\S+)/.exec(l)?.[1])
      .filter((p): p is string => p !== undefined)
      .sort();
    expect(linked.length).toBeGreaterThan(3);
    expect(forArch(hostArch)).toEqual(linked);
    // The script the image build and rootfs.sh use to read ldd agrees with this reading.
    const printed = execFileSync('bash', [`${root}/scripts/node-libs.sh`, '--print', hostArch, hostNode], { encoding: 'utf8' });
    expect(printed.trim().split('\n')).toEqual(linked.map((p) => `${hostArch} ${p}`));
  });
});
