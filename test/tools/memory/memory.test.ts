import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup, tempDir, writeTree } from '../../helpers/workspace.ts';
import { MEMORY_CASES } from './memory.cases.ts';

/** The content of a file under `memories`, or null when it is not there. */
async function contentOf(memories: string, rel: string): Promise<string | null> {
  return readFile(path.join(memories, rel), 'utf8').catch(() => null);
}

describe("memory: golem's Memory* tools and Anthropic's memory tool over one store", () => {
  for (const c of MEMORY_CASES) {
    it(`${c.dialect}: ${c.name}`, async () => {
      const state = await tempDir('core-agent-state-');
      const memories = path.join(state, 'users', 'alice', 'memories');
      if (c.tree) await writeTree(memories, c.tree);
      const rt = await setup({ stateDir: state, env: { CORE_AGENT_USER: 'alice' }, flags: { dialect: c.dialect, mode: 'accept-edits' } });
      const r = await rt.dispatcher.call(c.call[0], c.call[1]);
      if (c.error) {
        expect(r.ok, JSON.stringify(r)).toBe(false);
        if (!r.ok) {
          expect(r.error).toMatch(c.error);
          if (c.kind) expect(r.kind).toBe(c.kind);
        }
      } else {
        expect(r.ok ? r.result : r.error).toMatchObject(c.ok ?? {});
      }
      for (const [rel, want] of Object.entries(c.after ?? {})) expect(await contentOf(memories, rel), rel).toBe(want);
    });
  }
});
