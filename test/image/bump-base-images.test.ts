// scripts/bump-base-images.sh against a copy of the Dockerfile, with a `crane` on PATH that
// answers from a table (no registry is reachable from the tests): it moves exactly the pins
// whose tag moved, --check reports without writing, and a pin of the wrong form is refused.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = path.join(root, 'scripts/bump-base-images.sh');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const pin = (arg: string) => new RegExp(`^ARG ${arg}=([^@\\n]+)@(sha256:[0-9a-f]{64})$`, 'm').exec(dockerfile)!;
const [, buildTag, buildDigest] = pin('BUILD_IMAGE');
const [, runtimeTag, runtimeDigest] = pin('RUNTIME_IMAGE');
const moved = `sha256:${'ab'.repeat(32)}`;

/** A temp dir with a Dockerfile copy and a fake crane answering `crane digest TAG` from `digests`. */
function setup(digests: Record<string, string>, text = dockerfile) {
  const dir = mkdtempSync(path.join(tmpdir(), 'core-agent-bump-'));
  writeFileSync(path.join(dir, 'Dockerfile'), text);
  const cases = Object.entries(digests)
    .map(([tag, d]) => `  ${JSON.stringify(tag)}) echo ${d} ;;`)
    .join('\n');
  writeFileSync(
    path.join(dir, 'crane'),
    `#!/bin/sh\n[ "$1" = digest ] || exit 9\ncase "$2" in\n${cases}\n  *) echo "no $2" >&2; exit 1 ;;\nesac\n`,
  );
  chmodSync(path.join(dir, 'crane'), 0o755);
  const run = (...args: string[]) =>
    spawnSync('bash', [script, ...args, path.join(dir, 'Dockerfile')], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
    });
  return { run, read: () => readFileSync(path.join(dir, 'Dockerfile'), 'utf8') };
}

describe('scripts/bump-base-images.sh', () => {
  it('rewrites the digest of a tag that moved, and only that line', () => {
    const { run, read } = setup({ [buildTag!]: buildDigest!, [runtimeTag!]: moved });
    const r = run();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`RUNTIME_IMAGE: ${runtimeTag} ${runtimeDigest} -> ${moved}`);
    expect(r.stdout).toContain(`BUILD_IMAGE: ${buildTag} is current`);
    expect(read()).toBe(dockerfile.replace(`${runtimeTag}@${runtimeDigest}`, `${runtimeTag}@${moved}`));
  });

  it('--check writes nothing and exits 1 when a pin is behind, 0 when all are current', () => {
    const behind = setup({ [buildTag!]: moved, [runtimeTag!]: runtimeDigest! });
    expect(behind.run('--check').status).toBe(1);
    expect(behind.read()).toBe(dockerfile);
    const current = setup({ [buildTag!]: buildDigest!, [runtimeTag!]: runtimeDigest! });
    expect(current.run('--check').status).toBe(0);
  });

  it('refuses a pin without a digest, and a registry answer that is not one, naming the ARG or image', () => {
    const unpinned = setup({ [buildTag!]: buildDigest! }, dockerfile.replace(`${runtimeTag}@${runtimeDigest}`, runtimeTag!));
    const r = unpinned.run();
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/RUNTIME_IMAGE=gcr\.io\/distroless\/static-debian12:nonroot is not NAME:TAG@sha256:<64 hex>/);
    const garbage = setup({ [buildTag!]: 'latest', [runtimeTag!]: runtimeDigest! });
    const g = garbage.run();
    expect(g.status).toBe(2);
    expect(g.stderr).toContain(`${buildTag} resolved to 'latest', not a sha256 digest`);
    expect(garbage.read()).toBe(dockerfile);
  });
});
