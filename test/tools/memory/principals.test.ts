import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup, tempDir, writeTree } from '../../helpers/workspace.ts';

const as = (state: string, user: string, dialect: 'golem' | 'core-agent') =>
  setup({ stateDir: state, env: { CORE_AGENT_USER: user }, flags: { dialect, mode: 'accept-edits' } });

describe("memory is per principal: alice's tools never reach bob's memory", () => {
  it('two homes in one state directory: each reads and writes only its own', async () => {
    const state = await tempDir('core-agent-state-');
    await writeTree(state, { 'users/bob/memories/MEMORY.md': 'bob: allergic to nuts' });
    const alice = await as(state, 'alice', 'golem');
    expect(await alice.ok('MemoryView', {})).toEqual({ content: '(no memory yet)' });
    await alice.ok('MemoryWrite', { content: 'alice: likes tea' });
    for (const file of ['../bob/memories/MEMORY.md', '../../users/bob/memories/MEMORY.md', `${state}/users/bob/memories/MEMORY.md`]) {
      expect(await alice.refused('MemoryView', { file })).toMatch(/outside the memories folder/);
      expect(await alice.refused('MemoryWrite', { file, content: 'x' })).toMatch(/outside the memories folder/);
    }
    const aliceAnthropic = await as(state, 'alice', 'core-agent');
    expect(await aliceAnthropic.refused('memory', { command: 'view', path: '/memories/../../bob/memories/MEMORY.md' })).toMatch(/outside/);
    expect((await aliceAnthropic.ok('memory', { command: 'view', path: '/memories/MEMORY.md' })).result).toContain('alice: likes tea');

    const bob = await as(state, 'bob', 'golem');
    expect(await bob.ok('MemoryView', {})).toEqual({ content: 'bob: allergic to nuts' });
    await bob.ok('MemoryDelete', { file: 'MEMORY.md' });
    expect(await readFile(path.join(state, 'users/alice/memories/MEMORY.md'), 'utf8')).toBe('alice: likes tea');
    expect(await readdir(path.join(state, 'users/bob/memories'))).toEqual([]);
  });

  it('a home is made private (0700) on the first write', async () => {
    const state = await tempDir('core-agent-state-');
    const alice = await as(state, 'alice', 'golem');
    await alice.ok('MemoryWrite', { content: 'x' });
    expect((await stat(path.join(state, 'users/alice/memories'))).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(state, 'users/alice/memories/MEMORY.md'))).mode & 0o777).toBe(0o600);
  });
});

describe('memory writes are atomic', () => {
  it('a write replaces the file by rename (a new inode), and leaves no temporary file', async () => {
    const state = await tempDir('core-agent-state-');
    const memories = path.join(state, 'users/alice/memories');
    await writeTree(memories, { 'MEMORY.md': 'old' });
    const before = (await stat(path.join(memories, 'MEMORY.md'))).ino;
    const alice = await as(state, 'alice', 'golem');
    await alice.ok('MemoryWrite', { content: 'new' });
    // The temporary file was made while the old one existed, so its inode is another.
    expect((await stat(path.join(memories, 'MEMORY.md'))).ino).not.toBe(before);
    await alice.ok('MemoryInsert', { file: 'MEMORY.md', content: '!', position: -1 });
    await alice.ok('MemoryCreate', { file: 'b.md', content: 'b' });
    await alice.ok('MemoryRename', { from: 'b.md', to: 'c.md' });
    expect(await readFile(path.join(memories, 'MEMORY.md'), 'utf8')).toBe('new!');
    expect((await readdir(memories)).sort()).toEqual(['MEMORY.md', 'c.md']);
  });

  it('a refused write (over the limit, a failed create) leaves the old file and nothing else', async () => {
    const state = await tempDir('core-agent-state-');
    const memories = path.join(state, 'users/alice/memories');
    await writeTree(memories, { 'MEMORY.md': 'old', 'b.md': 'b' });
    const alice = await as(state, 'alice', 'golem');
    await alice.refused('MemoryWrite', { content: 'x'.repeat(70_000) });
    await alice.refused('MemoryCreate', { file: 'b.md', content: 'other' });
    await alice.refused('MemoryStrReplace', { file: 'MEMORY.md', old: 'o', new: 'x'.repeat(70_000) });
    expect(await readFile(path.join(memories, 'MEMORY.md'), 'utf8')).toBe('old');
    expect(await readFile(path.join(memories, 'b.md'), 'utf8')).toBe('b');
    expect((await readdir(memories)).sort()).toEqual(['MEMORY.md', 'b.md']);
  });
});
