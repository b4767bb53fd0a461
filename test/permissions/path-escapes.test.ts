import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTools } from '../helpers/file-tools.ts';
import { snapshot } from '../helpers/tree-snapshot.ts';
// Every dialect's tools: the matrix tries each tool that touches a path or the network.
import { setupEvery as setup, tempDir } from '../helpers/workspace.ts';
import { ESCAPES, type EscapeCase } from './path-escapes.cases.ts';

async function fixture() {
  const outside = await tempDir('core-agent-outside-');
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
  await mkdir(path.join(outside, 'sub'));
  await writeFile(path.join(outside, 'sub', 'secret.txt'), 'secret\n');
  const ws = await tempDir();
  const rt = await setup({
    workspace: ws,
    flags: { mode: 'yolo' },
    tree: {
      'dir/inside.txt': 'inside\n',
      'dir/nested': null,
      'link-file': { symlink: path.join(outside, 'secret.txt') },
      'link-dir': { symlink: outside },
      'link-sub': { symlink: path.join(outside, 'sub') },
      'rel-link': { symlink: path.relative(ws, outside) },
      'chain-a': { symlink: 'chain-b' },
      'chain-b': { symlink: outside },
      dangling: { symlink: path.join(outside, 'new-file.txt') },
      '.agents/skills/s/SKILL.md': '---\nname: s\ndescription: A skill.\n---\nRead ref.md.\n',
      '.agents/skills/s/ref.md': 'ref\n',
      // A skill's reference that leads outside is never listed, so never served.
      '.agents/skills/s/leak.md': { symlink: path.join(outside, 'secret.txt') },
    },
  });
  return { rt, ws, outside };
}

function expand(c: EscapeCase, ws: string, outside: string): string {
  return c.path
    .replaceAll('{outRel}', path.relative(ws, outside))
    .replaceAll('{out}', outside)
    .replaceAll('{wsAbs}', ws)
    .replaceAll('{ws}', path.basename(ws));
}

describe('path_scope escapes (path-escapes.cases.ts): every file tool refuses, nothing outside changes', () => {
  it.each(ESCAPES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { rt, ws, outside } = await fixture();
    const before = await snapshot(outside);
    const wsBefore = await snapshot(ws);
    const p = expand(c, ws, outside);
    // A batch read skips the entry rather than failing, and shows nothing of it.
    const batch = await rt.ok('read_many_files', { paths: [p, 'dir/inside.txt'] });
    expect(JSON.stringify(batch)).not.toContain('secret\\n');
    expect(JSON.stringify(batch)).toContain('inside\\n');
    // The skill tool serves only the files its skills listed at start-up: no path leads anywhere else.
    const skillErr = await rt.refused('skill', { name: 's', file: p });
    expect(skillErr).toMatch(/has no file/);
    expect(skillErr).not.toContain('secret\n');
    expect((await rt.ok('skill', { name: 's' })).files).toEqual(['ref.md']);
    for (const [tool, args] of fileTools(p)) {
      const r = await rt.dispatcher.call(tool, args);
      if (tool === 'delete_file' && c.link) {
        // The link itself is inside the workspace; removing it is allowed and touches nothing outside.
        expect(r.ok, `${tool} ${p}`).toBe(true);
        continue;
      }
      expect(r.ok, `${tool} on ${p}: ${JSON.stringify(r).slice(0, 300)}`).toBe(false);
      expect(!r.ok && r.error, `${tool} on ${p}`).toMatch(/outside path_scope/);
    }
    expect(await snapshot(outside)).toEqual(before);
    const wsAfter = await snapshot(ws);
    // Inside, only the link delete_file removed may be gone; nothing else appeared (no directories, no temp files).
    if (c.link) delete wsBefore[c.link];
    expect(wsAfter).toEqual(wsBefore);
  });
});
