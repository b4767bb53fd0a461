import { describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/log.ts';
import { createRuntime } from '../../src/runtime/runtime.ts';
import { tempDir } from '../helpers/workspace.ts';

// A distroless image: there is no /bin/sh.
vi.mock('../../src/util/command-env.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/util/command-env.ts')>()),
  shellAvailable: () => false,
}));

describe('without /bin/sh', () => {
  it('registers no bash and no terminal tools, and the startup log says why', async () => {
    const lines: Array<{ level: string; obj: Record<string, unknown> | string; msg?: string | undefined }> = [];
    const record =
      (level: string) =>
      (obj: Record<string, unknown> | string, msg?: string): void => {
        lines.push({ level, obj, msg });
      };
    const logger = Object.fromEntries(['fatal', 'error', 'warn', 'info', 'debug', 'trace'].map((m) => [m, record(m)])) as Logger;
    const rt = await createRuntime({ flags: { workspace: await tempDir() }, env: {}, logger });
    for (const n of ['bash', 'terminal_output', 'terminal_write', 'terminal_kill', 'wait_join'])
      expect(rt.catalog.names()).not.toContain(n);
    const skipped = lines.filter((l) => l.msg === 'tool not registered').map((l) => l.obj as { tool: string; reason: string });
    expect(skipped).toContainEqual({
      tool: 'bash',
      reason: 'there is no /bin/sh on this system (a distroless image?), so bash is not registered',
    });
    expect(skipped).toContainEqual({ tool: 'terminal_output', reason: 'it needs bash, which is not registered' });
    for (const t of rt.catalog.list()) expect(t.description, t.name).not.toMatch(/\bbash\b/);
  });
});
