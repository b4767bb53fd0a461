/**
 * `~` in a path argument and in path_scope entries is the HOME the root was
 * given (never read below it), one case a line; home.test.ts runs each as
 * `tools call` with HOME set to a directory apart from the workspace.
 * In `args` and `recipe`, HOME stands for that directory.
 */
export interface HomeCase {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** permissions: section of the recipe (YAML flow style). */
  permissions: string;
  yolo?: boolean;
  code: 0 | 1;
  /** A substring of stdout (the result JSON or {"error"}). */
  stdout: string;
  /** A file under HOME that must exist afterwards, with this content. */
  wrote?: { file: string; content: string };
}

// One case a line (prettier would spread each over several).
// prettier-ignore
export const HOME_CASES: HomeCase[] = [
  { name: 'read ~/file, ~/ allowed', tool: 'read_file', args: { path: '~/notes.txt' }, permissions: '{path_scope: {allow: [".", "~/"]}}', code: 0, stdout: 'hello from home' },
  { name: 'read ~ alone is the directory: list_dir ~', tool: 'list_dir', args: { path: '~' }, permissions: '{path_scope: {allow: [".", "~"]}}', code: 0, stdout: 'notes.txt' },
  { name: 'read ~/file, outside the default scope', tool: 'read_file', args: { path: '~/notes.txt' }, permissions: '{}', code: 1, stdout: 'HOME/notes.txt) is outside path_scope' },
  { name: 'a deny entry under ~ wins over its allow', tool: 'read_file', args: { path: '~/secret/key.pem' }, permissions: '{path_scope: {allow: [".", "~/"], deny: ["~/secret"]}}', code: 1, stdout: 'refused by permissions.path_scope.deny entry \\"~/secret\\"' },
  { name: 'write ~/new.txt, ~/ allowed', tool: 'write_file', args: { path: '~/new.txt', content: 'made' }, permissions: '{path_scope: {allow: [".", "~/"]}}', yolo: true, code: 0, stdout: '"bytes"', wrote: { file: 'new.txt', content: 'made' } },
  { name: '~user is a name, not a home', tool: 'read_file', args: { path: '~root/x' }, permissions: '{}', code: 1, stdout: '"error"' },
  { name: 'a workspace file is unaffected', tool: 'read_file', args: { path: 'here.txt' }, permissions: '{path_scope: {allow: [".", "~/"]}}', code: 0, stdout: 'in the workspace' },
];
