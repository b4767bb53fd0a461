import type { Tree } from '../helpers/workspace.ts';

/**
 * Tab in the REPL (src/cli/repl-completion.ts): the line up to the cursor, and the candidates
 * with the part of the line they replace. Run in a directory holding TREE.
 */
export const TREE: Tree = {
  'src/app.ts': '',
  'src/api/handler.ts': '',
  'scripts/build.sh': '',
  'my notes.txt': '',
  '.github/workflows/ci.yml': '',
  '.env': '',
  'README.md': '',
  linked: { symlink: 'src' },
};

// One case a line (prettier would spread each over several).
// prettier-ignore
export const COMPLETION_LINE_CASES: Array<{ line: string; candidates: string[]; replaces: string }> = [
  { line: '/', candidates: ['/stats', '/tools', '/mcp', '/agents', '/model', '/mode', '/compact', '/clear', '/done', '/replan', '/help', '/exit'], replaces: '/' },
  { line: '/st', candidates: ['/stats'], replaces: '/st' },
  { line: '/mo', candidates: ['/model', '/mode'], replaces: '/mo' },
  { line: '/nope', candidates: [], replaces: '/nope' },
  { line: '/mode ', candidates: ['ask', 'accept-edits', 'plan', 'yolo'], replaces: '' },
  { line: '/mode a', candidates: ['ask', 'accept-edits'], replaces: 'a' },
  { line: '/model op', candidates: ['openai:', 'openai-compatible:'], replaces: 'op' },
  { line: '@', candidates: ['@linked/', '@"my notes.txt"', '@README.md', '@scripts/', '@src/'], replaces: '@' },
  { line: 'explain @s', candidates: ['@scripts/', '@src/'], replaces: '@s' },
  { line: 'explain @src/', candidates: ['@src/api/', '@src/app.ts'], replaces: '@src/' },
  { line: 'explain @src/a', candidates: ['@src/api/', '@src/app.ts'], replaces: '@src/a' },
  { line: 'see @src/api/h', candidates: ['@src/api/handler.ts'], replaces: '@src/api/h' },
  { line: 'read @my', candidates: ['@"my notes.txt"'], replaces: '@my' },
  { line: 'read @"my', candidates: ['@"my notes.txt"'], replaces: '@"my' },
  { line: '@.', candidates: ['@.env', '@.github/'], replaces: '@.' },
  { line: '@.github/w', candidates: ['@.github/workflows/'], replaces: '@.github/w' },
  { line: '@linked/ap', candidates: ['@linked/api/', '@linked/app.ts'], replaces: '@linked/ap' },
  { line: '@nowhere/x', candidates: [], replaces: '@nowhere/x' },
  { line: 'mail bob@s', candidates: [], replaces: 'mail bob@s' },
  { line: 'plain words', candidates: [], replaces: 'plain words' },
  { line: '@src/app.ts and @RE', candidates: ['@README.md'], replaces: '@RE' },
];
