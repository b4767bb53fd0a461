import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleInstructions, MAX_AGENTS_MD_BYTES, MAX_AGENTS_MD_TOTAL_BYTES } from '../../src/agent/instructions.ts';
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

describe('AGENTS.md from the repository root down to the workspace', () => {
  it('reads each level, root first and nearest last, each under a heading naming it', async () => {
    const repo = await tempDir();
    await writeTree(repo, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'AGENTS.md': 'root rules\n',
      'services/AGENTS.md': 'services rules\n',
      'services/api/AGENTS.md': 'api rules\n',
      'services/api/src/x.ts': '',
      'other/AGENTS.md': 'not on the path\n',
    });
    const text = await assembleInstructions(path.join(repo, 'services/api'), undefined);
    const headings = text.split('\n').filter((l) => l.startsWith('## AGENTS.md'));
    expect(headings).toEqual(['## AGENTS.md (../../AGENTS.md)', '## AGENTS.md (../AGENTS.md)', '## AGENTS.md']);
    expect(text.indexOf('root rules')).toBeLessThan(text.indexOf('services rules'));
    expect(text.indexOf('services rules')).toBeLessThan(text.indexOf('api rules'));
    expect(text).not.toContain('not on the path');
  });

  it("outside any repository only the workspace's own AGENTS.md is read (not a parent directory of it)", async () => {
    const parent = await tempDir();
    await writeTree(parent, { 'AGENTS.md': 'a home directory file\n', 'project/AGENTS.md': 'project rules\n' });
    const text = await assembleInstructions(path.join(parent, 'project'), undefined);
    expect(text).toContain('## AGENTS.md\n\nproject rules');
    expect(text).not.toContain('a home directory file');
  });

  it('a jj repository counts as a root, and a level without AGENTS.md is skipped', async () => {
    const repo = await tempDir();
    await writeTree(repo, { '.jj/repo/store/type': 'git', 'AGENTS.md': 'jj root\n', 'a/b/AGENTS.md': 'deep\n', 'a/b/c/.keep': '' });
    const text = await assembleInstructions(path.join(repo, 'a/b/c'), undefined);
    expect(text.split('\n').filter((l) => l.startsWith('## AGENTS.md'))).toEqual([
      '## AGENTS.md (../../../AGENTS.md)',
      '## AGENTS.md (../AGENTS.md)',
    ]);
  });

  it('keeps the nearest files when all of them would pass the total budget', async () => {
    const repo = await tempDir();
    const big = 'x'.repeat(MAX_AGENTS_MD_BYTES - 100);
    await writeTree(repo, { '.git/HEAD': '', 'AGENTS.md': `ROOT${big}`, 'a/AGENTS.md': `MID${big}`, 'a/b/AGENTS.md': `NEAR${big}` });
    const text = await assembleInstructions(path.join(repo, 'a/b'), undefined);
    expect(text).toContain('NEAR');
    expect(text).toContain('MID');
    expect(text).not.toContain('ROOT');
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_AGENTS_MD_TOTAL_BYTES + 2000);
  });
});

describe("the user's AGENTS.md (core-agent's user directory, where Scion writes an agent's role)", () => {
  it('comes after the recipe instructions and before the workspace AGENTS.md; absent, it is no section', async () => {
    const ws = await tempDir();
    const user = await tempDir();
    await writeTree(ws, { 'AGENTS.md': 'Project rules.\n' });
    expect(await assembleInstructions(ws, 'be brief', user)).not.toContain('Your AGENTS.md');
    await writeTree(user, { 'AGENTS.md': '# System Prompt\n\nYou review code.\n' });
    const text = await assembleInstructions(ws, 'be brief', user);
    const at = (s: string) => text.indexOf(s);
    expect(at('be brief')).toBeLessThan(at(`## Your AGENTS.md (${path.join(user, 'AGENTS.md')})\n\n# System Prompt\n\nYou review code.`));
    expect(at('You review code.')).toBeLessThan(at('## AGENTS.md\n\nProject rules.'));
  });
});

describe('CLAUDE.md and GEMINI.md where there is no AGENTS.md', () => {
  // Each row: the files of one directory, and the heading and text the instructions must show (none: nothing).
  it.each([
    [{ 'AGENTS.md': 'agents\n', 'CLAUDE.md': 'claude\n', 'GEMINI.md': 'gemini\n' }, 'AGENTS.md', 'agents'],
    [{ 'CLAUDE.md': 'claude\n', 'GEMINI.md': 'gemini\n' }, 'CLAUDE.md', 'claude'],
    [{ 'GEMINI.md': 'gemini\n' }, 'GEMINI.md', 'gemini'],
    [{ 'AGENTS.md': '', 'CLAUDE.md': 'claude\n' }, undefined, undefined],
    [{ 'notes.md': 'other\n' }, undefined, undefined],
  ] as const)('%j → %s', async (files, heading, text) => {
    const ws = await tempDir();
    await writeTree(ws, files);
    const got = await assembleInstructions(ws, undefined);
    const headings = got.split('\n').filter((l) => /^## (AGENTS|CLAUDE|GEMINI)\.md/.test(l));
    expect(headings).toEqual(heading === undefined ? [] : [`## ${heading}`]);
    if (text !== undefined) expect(got).toContain(`## ${heading}\n\n${text}`);
    for (const other of ['agents', 'claude', 'gemini'].filter((t) => t !== text)) expect(got).not.toContain(`\n\n${other}`);
  });

  it('an AGENTS.md that exists but cannot be read does not hand over to CLAUDE.md', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'CLAUDE.md': 'claude\n' });
    execFileSync('mkfifo', [path.join(ws, 'AGENTS.md')]);
    expect(await assembleInstructions(ws, undefined)).not.toContain('claude');
  });

  it('each level of a repository picks its own file, under a heading naming it', async () => {
    const repo = await tempDir();
    await writeTree(repo, {
      '.git/HEAD': '',
      'CLAUDE.md': 'root, for Claude\n',
      'pkg/GEMINI.md': 'pkg, for Gemini\n',
      'pkg/AGENTS.md': 'pkg rules\n',
    });
    const text = await assembleInstructions(path.join(repo, 'pkg'), undefined);
    expect(text.split('\n').filter((l) => l.startsWith('## '))).toEqual(['## CLAUDE.md (../CLAUDE.md)', '## AGENTS.md']);
    expect(text).not.toContain('pkg, for Gemini');
  });

  it('a long CLAUDE.md is cut under its own name', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'CLAUDE.md': `${'x'.repeat(MAX_AGENTS_MD_BYTES)}TAIL` });
    expect(await assembleInstructions(ws, undefined)).toContain(
      `[...CLAUDE.md truncated by core-agent at ${MAX_AGENTS_MD_BYTES} bytes...]`,
    );
  });
});
