import type { Tree } from '../helpers/workspace.ts';

/**
 * "Always, saved" from the approval dialog: the workspace before (`tree`), the rule added to
 * `.agents/config.yaml`, and the file after (`after`, exactly), or the sentence (`error`) with
 * the file left as it was.
 */
export interface SaveRuleCase {
  name: string;
  tree: Tree;
  rule: string;
  after?: string;
  added?: boolean;
  error?: RegExp;
}

const R = 'tool.bash:git status';

// One case a line (prettier would spread each over several).
// prettier-ignore
export const SAVE_RULE_CASES: SaveRuleCase[] = [
  { name: 'no .agents directory: made, with the file', tree: {}, rule: R, after: 'permissions:\n  allow:\n    - tool.bash:git status\n', added: true },
  { name: 'an empty file', tree: { '.agents/config.yaml': '' }, rule: R, after: 'permissions:\n  allow:\n    - tool.bash:git status\n', added: true },
  { name: 'other keys and comments kept as written', tree: { '.agents/config.yaml': '# the team\'s defaults\nmodel: google:gemini-2.5-flash # fast\npermissions:\n  deny: ["tool.bash:git push *"]\n' }, rule: R, after: '# the team\'s defaults\nmodel: google:gemini-2.5-flash # fast\npermissions:\n  deny: [ "tool.bash:git push *" ]\n  allow:\n    - tool.bash:git status\n', added: true },
  { name: 'appended to an allow list', tree: { '.agents/config.yaml': 'permissions:\n  allow:\n    - tool.edit_file\n' }, rule: R, after: 'permissions:\n  allow:\n    - tool.edit_file\n    - tool.bash:git status\n', added: true },
  { name: 'a flow list stays one', tree: { '.agents/config.yaml': 'permissions:\n  allow: [tool.edit_file]\n' }, rule: R, after: 'permissions:\n  allow: [ tool.edit_file, tool.bash:git status ]\n', added: true },
  { name: 'already there: nothing written', tree: { '.agents/config.yaml': 'permissions:\n  allow: ["tool.bash:git status"]\n' }, rule: R, after: 'permissions:\n  allow: ["tool.bash:git status"]\n', added: false },
  { name: 'permissions written empty', tree: { '.agents/config.yaml': 'permissions:\nmodel: x:y\n' }, rule: R, after: 'permissions:\n  allow:\n    - tool.bash:git status\nmodel: x:y\n', added: true },
  { name: 'a rule with a quote and a colon', tree: {}, rule: 'tool.bash:echo "a: b"', after: 'permissions:\n  allow:\n    - \'tool.bash:echo "a: b"\'\n', added: true },
  { name: 'permissions not a mapping', tree: { '.agents/config.yaml': 'permissions: yes\n' }, rule: R, error: /permissions is not a mapping; fix it first/ },
  { name: 'allow not a list', tree: { '.agents/config.yaml': 'permissions:\n  allow: tool.bash\n' }, rule: R, error: /permissions\.allow is not a list; fix it first/ },
  { name: 'a YAML error', tree: { '.agents/config.yaml': 'permissions: [\n' }, rule: R, error: /does not parse .*; fix it first/ },
  { name: 'a list, not a mapping', tree: { '.agents/config.yaml': '- a\n' }, rule: R, error: /is not a mapping of keys; fix it first/ },
  { name: 'the file a symbolic link (to a file outside)', tree: { 'outside.yaml': 'model: x:y\n', '.agents/config.yaml': { symlink: '../outside.yaml' } }, rule: R, error: /config\.yaml is a symbolic link; not writing through it/ },
  { name: '.agents a symbolic link', tree: { elsewhere: null, '.agents': { symlink: 'elsewhere' } }, rule: R, error: /\.agents is a symbolic link; not writing through it/ },
  { name: 'the file a directory', tree: { '.agents/config.yaml': null }, rule: R, error: /config\.yaml is not a regular file/ },
  { name: 'binary: refused by the bounded reader', tree: { '.agents/config.yaml': Buffer.from('a: \0\n') }, rule: R, error: /not a text file/ },
];
