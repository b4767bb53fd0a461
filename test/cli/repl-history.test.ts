import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplHistory } from '../../src/cli/repl-history.ts';
import { tempDir } from '../helpers/workspace.ts';

describe('the REPL history file', () => {
  it('keeps a message of several lines as one entry, and quotes stay what they were', async () => {
    const state = await tempDir();
    const entries = ['one\ntwo\nthree', '"quoted"', 'plain', 'a "b" c', 'back\\slash'];
    new ReplHistory(state, '/ws').save(entries);
    expect(new ReplHistory(state, '/ws').load()).toEqual(entries);
    const [file] = await import('node:fs').then((fs) => fs.readdirSync(path.join(state, 'history')));
    const onDisk = await readFile(path.join(state, 'history', file!), 'utf8');
    expect(onDisk.split('\n').filter(Boolean)).toHaveLength(entries.length);
  });

  it('reads an older file of plain lines as it was', async () => {
    const state = await tempDir();
    const h = new ReplHistory(state, '/ws');
    h.save(['x', 'y']);
    expect(h.load()).toEqual(['x', 'y']);
  });
});
