import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup, tempDir, writeTree } from '../helpers/workspace.ts';
import { recipeWith } from './helpers.ts';

// The published server from the npm registry, run as its own process.
const serverEntry = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist/index.js',
);

describe('@modelcontextprotocol/server-filesystem, run for real', () => {
  it('its tools register with their annotations; reads run, writes wait for approval', async () => {
    const shared = await tempDir();
    await writeTree(shared, { 'a.txt': 'alpha\n', 'dir/b.txt': 'beta\n' });
    const server = JSON.stringify({ fs: { command: process.execPath, args: [serverEntry, shared] } });
    const rt = await setup({ recipe: recipeWith(server) });

    const read = rt.catalog.get('fs_read_text_file')!;
    expect(read.name).toBe('mcp.fs.read_text_file');
    expect(read.readOnly).toBe(true);
    expect(rt.catalog.get('fs_write_file')!.readOnly).toBe(false);

    expect(await rt.ok('fs_read_text_file', { path: path.join(shared, 'a.txt') })).toMatchObject({ structured: { content: 'alpha\n' } });
    const listing = JSON.stringify(await rt.ok('fs_list_directory', { path: shared }));
    expect(listing).toContain('a.txt');
    expect(listing).toContain('dir');
    // The server's own refusal (outside its roots) reaches the model as an error.
    expect(await rt.refused('fs_read_text_file', { path: '/etc/hostname' })).toMatch(/denied|outside|not allowed/i);
    // Headless ask mode: the write is refused by our gate before the server sees it.
    expect(await rt.refused('fs_write_file', { path: path.join(shared, 'c.txt'), content: 'x' })).toContain('"mcp.fs.write_file"');
  });
});
