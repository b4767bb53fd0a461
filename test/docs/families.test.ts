import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/tools/index.ts';

// The families are named in one list in the code (FAMILIES, src/tools/index.ts); the pages a
// newcomer reads name them too. These hold the pages to the list, so a new family that is
// not in them, or one that was renamed, fails here rather than misleading the next reader.
const names = FAMILIES.map((f) => f.name);

describe('the families named in the docs are the families list', () => {
  it("CONTRIBUTING's 'Pick the family' names every family, in catalog order", async () => {
    const text = await readFile(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
    const step = /1\. \*\*Pick the family\*\*:([\s\S]*?)in the order of the families list/.exec(text);
    expect(step, 'the "Pick the family" step').not.toBeNull();
    const listed = [...step![1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
    expect(listed).toEqual(names);
  });

  it("CONTRIBUTING's 'Where things live' has a line per family, in catalog order", async () => {
    const text = await readFile(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
    const block = /src\/tools\/index\.ts {7}the families list[\s\S]*?\nsrc\/tools\/framework\//.exec(text);
    expect(block, 'the families block under src/tools/index.ts').not.toBeNull();
    const listed = [...block![0].matchAll(/^ {2}([a-z0-9-]+)\/ /gm)].map((m) => m[1]);
    expect(listed).toEqual(names);
  });

  it('docs/architecture.md lists the families in catalog order', async () => {
    const text = await readFile(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
    const order = /`FAMILIES`, in catalog order — ([a-z0-9,\s-]+?) — and/.exec(text);
    expect(order, 'the sentence naming the families list').not.toBeNull();
    expect(order![1]!.trim().split(/,\s*/)).toEqual(names);
  });
});
