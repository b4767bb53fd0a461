import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../../src/permissions/gate.ts';
import { PROVIDERS } from '../../src/model/providers.ts';
import { completeLine } from '../../src/cli/repl-completion.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';
import { COMPLETION_LINE_CASES, TREE } from './repl-completion.cases.ts';

describe('Tab in the REPL: slash commands, /mode and /model values, @paths', () => {
  it.each(COMPLETION_LINE_CASES)('$line', async (c) => {
    const dir = await tempDir();
    await writeTree(dir, TREE);
    const [candidates, replaces] = completeLine(c.line, { cwd: () => dir, modes: PERMISSION_MODES, providers: PROVIDERS });
    expect([...candidates].sort()).toEqual([...c.candidates].sort());
    expect(replaces).toBe(c.replaces);
  });
});
