import { describe, expect, it } from 'vitest';
import { compileCacheDir } from '../../src/cli/compile-cache.ts';

// Where the CLI's V8 code cache goes (the whole-process cases are in startup.cases.ts).
describe('compileCacheDir', () => {
  it.each([
    [{ HOME: '/home/u' }, '/home/u/.cache/core-agent/compile-cache'],
    [{ HOME: '/home/u', XDG_CACHE_HOME: '/x' }, '/x/core-agent/compile-cache'],
    // Relative values are ignored (the XDG spec; a relative HOME would write under the cwd).
    [{ HOME: '/home/u', XDG_CACHE_HOME: 'rel' }, '/home/u/.cache/core-agent/compile-cache'],
    [{ HOME: 'rel' }, undefined],
    [{ HOME: '' }, undefined],
    [{}, undefined],
    [{ HOME: 'rel', XDG_CACHE_HOME: '/x' }, '/x/core-agent/compile-cache'],
    // Node's own variables win: nothing to do here.
    [{ HOME: '/home/u', NODE_COMPILE_CACHE: '/ncc' }, undefined],
    [{ HOME: '/home/u', NODE_DISABLE_COMPILE_CACHE: '1' }, undefined],
  ])('%j → %s', (env, dir) => {
    expect(compileCacheDir(env)).toBe(dir);
  });
});
