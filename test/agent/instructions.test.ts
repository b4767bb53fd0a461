import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleInstructions, MAX_AGENTS_MD_BYTES } from '../../src/agent/instructions.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

describe("the workspace's AGENTS.md in the instructions", () => {
  it('is included whole when small, and only its head when large', async () => {
    const small = await tempDir();
    await writeTree(small, { 'AGENTS.md': '# Rules\nRun make test.\n' });
    expect(await assembleInstructions(small, undefined)).toContain('## AGENTS.md\n\n# Rules\nRun make test.');

    const large = await tempDir();
    await writeTree(large, { 'AGENTS.md': `${'é'.repeat(MAX_AGENTS_MD_BYTES)}TAIL` });
    const text = await assembleInstructions(large, undefined);
    expect(text).toContain(`[...AGENTS.md truncated by core-agent at ${MAX_AGENTS_MD_BYTES} bytes...]`);
    expect(text).not.toContain('TAIL');
    // Cut on a character boundary: no replacement character from half an "é".
    expect(text).not.toContain('\uFFFD');
  });

  it('is left out, without waiting, when it is a FIFO, a directory or not text', async () => {
    for (const make of [
      (p: string) => execFileSync('mkfifo', [p]),
      (p: string) => execFileSync('mkdir', [p]),
      (p: string) => execFileSync('sh', ['-c', `printf 'a\\000b' > "${p}"`]),
    ]) {
      const ws = await tempDir();
      make(path.join(ws, 'AGENTS.md'));
      expect(await assembleInstructions(ws, 'be brief')).not.toContain('## AGENTS.md');
    }
  });
});
