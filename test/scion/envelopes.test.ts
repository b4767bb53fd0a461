import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOOK_ENVELOPES, HOOK_EVENTS } from '../../src/config/hook-events.ts';
import { silentLogger } from '../../src/log.ts';
import { HookRunner } from '../../src/tools/framework/hooks.ts';
import { tempDir } from '../helpers/workspace.ts';
import { ENVELOPE_CASES } from './envelopes.cases.ts';

/** Fires one event at a real child process that keeps its stdin, and returns what it read. */
async function received(c: (typeof ENVELOPE_CASES)[number]): Promise<unknown> {
  const dir = await tempDir();
  const out = path.join(dir, 'stdin.json');
  const keep = `require('fs').writeFileSync(${JSON.stringify(out)}, require('fs').readFileSync(0))`;
  const runner = new HookRunner({
    hooks: { [c.event]: [{ argv: [process.execPath, '-e', keep], timeoutMs: 10_000, envelope: c.envelope, where: `hooks.${c.event}[0]` }] },
    sessionId: () => 's-1',
    env: process.env,
    cwd: '/',
    logger: silentLogger,
  });
  await runner.fire(c.event, c.fields);
  return JSON.parse(await readFile(out, 'utf8'));
}

describe('hook envelopes', () => {
  it('the matrix covers every event in every envelope', () => {
    const covered = new Set(ENVELOPE_CASES.map((c) => `${c.event}/${c.envelope}`));
    for (const e of HOOK_EVENTS) for (const k of HOOK_ENVELOPES) expect(covered, `${e}/${k}`).toContain(`${e}/${k}`);
  });

  it.each(ENVELOPE_CASES.map((c) => [`${c.event} as ${c.envelope} ${JSON.stringify(c.fields).slice(0, 60)}`, c] as const))(
    '%s',
    async (_name, c) => {
      expect(await received(c)).toEqual(c.expect);
    },
  );
});
