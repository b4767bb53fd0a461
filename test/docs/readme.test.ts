// Keeps the README an entrance and the docs a connected whole: the README stays
// short, every page in docs/ is reachable from it, no relative link or #anchor points
// at nothing, and docs/testing.md lists every behaviour matrix that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchors, relativeLinks, slug } from './markdown.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const README_MAX_LINES = 300;

const docsPages = readdirSync(join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join(root, 'docs', f));
const checked = [join(root, 'README.md'), join(root, 'CONTRIBUTING.md'), ...docsPages];

const read = (file: string) => readFileSync(file, 'utf8');
const shown = (file: string) => relative(root, file);

/** Every broken link in `file`, as "FILE:LINE: target — why". */
function brokenLinks(file: string, text: string, readTarget: (path: string) => string | null): string[] {
  const problems: string[] = [];
  for (const { line, target } of relativeLinks(text)) {
    const [path, anchor] = target.split('#', 2) as [string, string | undefined];
    const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    const destText = path === '' ? text : readTarget(dest);
    if (destText === null) {
      problems.push(`${shown(file)}:${line}: ${target} — no such file`);
      continue;
    }
    if (anchor !== undefined && dest.endsWith('.md') && !anchors(destText).has(anchor))
      problems.push(`${shown(file)}:${line}: ${target} — ${shown(dest)} has no heading with the anchor #${anchor}`);
  }
  return problems;
}

const readIfExists = (path: string): string | null => {
  if (!existsSync(path)) return null;
  return path.endsWith('.md') ? read(path) : '';
};

describe('the README is an entrance', () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    const lines = read(join(root, 'README.md')).split('\n').length;
    expect(lines, `README.md has ${lines} lines; move detail to a page in docs/ and link it`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('links every page in docs/', () => {
    const readme = join(root, 'README.md');
    const linked = new Set(relativeLinks(read(readme)).map(({ target }) => resolve(root, target.split('#')[0]!)));
    const unlinked = docsPages.filter((page) => !linked.has(page)).map(shown);
    expect(unlinked, 'add each page to the "Read on" list in README.md').toEqual([]);
  });

  it('has no relative link or #anchor that points at nothing (README, CONTRIBUTING, docs/)', () => {
    const problems = checked.flatMap((file) => brokenLinks(file, read(file), readIfExists));
    expect(problems).toEqual([]);
  });

  it('lists every *.cases.ts matrix in docs/testing.md', () => {
    const testing = read(join(root, 'docs', 'testing.md'));
    const matrices = (readdirSync(join(root, 'test'), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.cases.ts'))
      .map((f) => `test/${f.split('\\').join('/')}`)
      .sort();
    expect(matrices.length).toBeGreaterThan(0);
    const missing = matrices.filter((m) => !testing.includes(`\`${m}\``));
    expect(missing, 'add a row for each to the matrix table in docs/testing.md').toEqual([]);
  });
});

describe('the link checker itself', () => {
  // Headings and the anchors GitHub gives them (the first four are links the docs used before this test).
  const SLUGS: [heading: string, anchor: string][] = [
    ['The denylist (`src/tools/shell/denylist.ts`, `deny-rules.ts`)', 'the-denylist-srctoolsshelldenylistts-deny-rulests'],
    ['Plan-first (`permissions.plan_mode: required`)', 'plan-first-permissionsplan_mode-required'],
    ['url_scope: metadata is always blocked (`src/net/address-policy.ts`)', 'url_scope-metadata-is-always-blocked-srcnetaddress-policyts'],
    ['Verb profiles (`src/tools/shell/verb-profiles.ts`)', 'verb-profiles-srctoolsshellverb-profilests'],
    ['wait_and_verify: the budget', 'wait_and_verify-the-budget'],
    ['The `k8s_*` tools', 'the-k8s_-tools'],
    ['`.agents/mcp.json`', 'agentsmcpjson'],
    ['`core-agent mcp serve`', 'core-agent-mcp-serve'],
    ['The behaviour matrices (`*.cases.ts`)', 'the-behaviour-matrices-casests'],
    ['Background commands: bash with `wait: false`', 'background-commands-bash-with-wait-false'],
    ['See [the guide](guide.md) first', 'see-the-guide-first'],
  ];
  it.each(SLUGS)('%s → #%s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });

  it('numbers repeated headings as GitHub does, and ignores headings in code blocks', () => {
    expect([...anchors('# A\n## Tests\n```md\n# Not a heading\n```\n### Tests\n')]).toEqual(['a', 'tests', 'tests-1']);
  });

  it('reports a missing file and a missing anchor, and skips URLs and code', () => {
    const file = join(root, 'docs', 'planted.md');
    const text = [
      '# Planted',
      'See [a page](no-such-page.md), [a section](tools.md#no-such-section) and [here](#planted).',
      'Also [the web](https://example.com/x.md), `[code](nowhere.md)` and:',
      '```',
      '[fenced](nowhere-either.md)',
      '```',
    ].join('\n');
    expect(brokenLinks(file, text, readIfExists)).toEqual([
      'docs/planted.md:2: no-such-page.md — no such file',
      'docs/planted.md:2: tools.md#no-such-section — docs/tools.md has no heading with the anchor #no-such-section',
    ]);
  });
});
