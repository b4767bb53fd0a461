import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setupIn, tempDir } from '../helpers/workspace.ts';

// Cagent's tool: its catalog.
const setup = setupIn('cagent');

/**
 * The apply_patch behaviour suite as data, in Codex's layout: each folder under
 * test/fixtures/apply-patch/ is one scenario — `input/` (the workspace before),
 * `patch.txt`, `expected/` (the workspace after, byte for byte), and optionally
 * `error.txt` (the call must fail with this fragment; `expected/` is then `input/`:
 * a refused patch changes nothing) and `result.json` (fields the result must hold).
 * A new case is a new folder.
 */
const ROOT = path.resolve(import.meta.dirname, '../fixtures/apply-patch');
const SCENARIOS = readdirSync(ROOT)
  .filter((d) => /^\d{3}_/.test(d))
  .sort();

/** Every regular file under `dir`, by relative path (a missing dir is an empty tree: git keeps no empty folders). */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = path.join(e.parentPath, e.name);
    // Hex keeps the comparison byte for byte and the failure readable (CR, BOM, NUL show up).
    out[path.relative(dir, abs)] = (await readFile(abs)).toString('hex');
  }
  return out;
}

describe('apply_patch scenarios', () => {
  it('has at least 25 scenarios', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(25);
  });

  it.each(SCENARIOS)('%s', async (name) => {
    const dir = path.join(ROOT, name);
    const ws = await tempDir();
    if (existsSync(path.join(dir, 'input'))) await cp(path.join(dir, 'input'), ws, { recursive: true });
    const rt = await setup({ workspace: ws, flags: { mode: 'yolo' } });
    const patch = readFileSync(path.join(dir, 'patch.txt'), 'utf8');
    const r = await rt.dispatcher.call('apply_patch', { patch });
    const errorFile = path.join(dir, 'error.txt');
    if (existsSync(errorFile)) {
      const fragment = readFileSync(errorFile, 'utf8').trim();
      expect(r.ok ? `unexpected success: ${JSON.stringify(r.result)}` : r.error).toContain(fragment);
    } else {
      expect(r.ok ? 'ok' : r.error).toBe('ok');
      const resultFile = path.join(dir, 'result.json');
      if (r.ok && existsSync(resultFile)) expect(r.result).toMatchObject(JSON.parse(readFileSync(resultFile, 'utf8')) as object);
    }
    expect(await tree(ws)).toEqual(await tree(path.join(dir, 'expected')));
  });
});
