/**
 * Permission rules on bash command lines, as data: the rule, the command, and
 * what the gate does in ask mode with nobody to ask. A wildcard allow rule
 * (`tool.bash:find *`, `tool.bash.cmd:find`, `tool.bash:*`, `tool.bash`) allows
 * only one literal simple command that clears its verb's profile
 * (src/tools/shell/verb-profiles.ts); a `*` in a command pattern crosses `/`.
 * `allowed` cases really run, in a scratch workspace holding a.txt.
 */
export type Outcome = 'allowed' | 'approval' | 'denied';
export interface BashRuleCase {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly command: string;
  readonly outcome: Outcome;
}

const rule = (allow: string, rows: ReadonlyArray<readonly [string, Outcome]>): BashRuleCase[] =>
  rows.map(([command, outcome]) => ({ allow: [allow], command, outcome }));

/** find's acting predicates, under every wildcard form of a find rule. */
const findRows: ReadonlyArray<readonly [string, Outcome]> = [
  ['find . -name nothing', 'allowed'],
  ['find /tmp -maxdepth 0 -type d', 'allowed'], // outside the workspace: a command line is not a path
  ['find . -name nothing -delete', 'approval'],
  ['find . -name nothing -exec true {} +', 'approval'],
  ['find . -name nothing -execdir true {} \\;', 'approval'],
  ['find . -name nothing -ok true {} \\;', 'approval'],
  ['find . -name nothing -okdir true {} \\;', 'approval'],
  ['find . -name nothing -fls out.txt', 'approval'],
  ['find . -name nothing -fprint out.txt', 'approval'],
  ['find . -name nothing -fprint0 out.txt', 'approval'],
  ['find . -name nothing -fprintf out.txt %p', 'approval'],
  ["find . -name nothing '-delete'", 'approval'],
  ['find . -name nothing "-delete"', 'approval'],
  ['find . -name nothing \\-delete', 'approval'],
  ["find . -name nothing -de'le'te", 'approval'],
  ["find . -name '*.txt'", 'allowed'],
  ['find . -name *.txt', 'approval'], // an unquoted glob may expand to a file named -delete
  ['find . -name nothing; touch pwned', 'approval'],
  ['find . -name nothing | xargs rm', 'approval'],
  ['find . -name nothing > list.txt', 'approval'],
  ['find . -name "$X"', 'approval'],
  ['find . -name nothing &', 'approval'],
];

export const BASH_RULE_CASES: readonly BashRuleCase[] = [
  ...rule('tool.bash:find *', findRows),
  ...rule('tool.bash.cmd:find', findRows),
  ...rule('tool.bash:*', findRows),
  ...rule('tool.bash', findRows),
  ...rule('tool.bash.cmd:find', [
    ['/usr/bin/find . -name nothing', 'allowed'],
    ['/usr/bin/find . -name nothing -delete', 'approval'],
  ]),
  // fd and rg: the same table, their own options.
  ...rule('tool.bash:fd *', [
    ['fd -x rm', 'approval'],
    ['fd --exec rm', 'approval'],
    ['fd --exec=rm', 'approval'],
    ['fd -HIx rm', 'approval'],
    ['fd -X ls', 'approval'],
    ['fd --exec-batch ls', 'approval'],
    ["fd '-x' rm", 'approval'],
    ['fd -tx build', 'allowed'], // --type x(ecutable)
    ['fd -- -x', 'allowed'], // a pattern after --
  ]),
  ...rule('tool.bash.cmd:rg', [
    ['rg --pre cat needle', 'approval'],
    ['rg --pre=./conv.sh needle', 'approval'],
    ['rg --pre-glob "*.pdf" needle', 'allowed'],
    ['rg -- --pre', 'allowed'],
  ]),
  // sort and sed: readers with a write mode.
  ...rule('tool.bash:sort *', [
    ['sort a.txt', 'allowed'],
    ['sort -t, -k2 a.txt', 'allowed'],
    ['sort -k1o a.txt', 'allowed'], // o here is part of -k's value
    ['sort -o out.txt a.txt', 'approval'],
    ['sort -ro out.txt a.txt', 'approval'],
    ['sort --output=out.txt a.txt', 'approval'],
    ['sort --out=out.txt a.txt', 'approval'], // getopt_long takes an abbreviation
    ['sort --compress-program=gzip a.txt', 'approval'],
  ]),
  ...rule('tool.bash.cmd:sed', [
    ['sed -n 1p a.txt', 'allowed'],
    ['sed -e s/a/b/ a.txt', 'allowed'],
    ['sed -i s/a/b/ a.txt', 'approval'],
    ['sed -ni p a.txt', 'approval'],
    ['sed -i.bak s/a/b/ a.txt', 'approval'],
    ['sed --in-place s/a/b/ a.txt', 'approval'],
    ['sed --in-pl s/a/b/ a.txt', 'approval'],
  ]),
  // A `*` in a command pattern crosses `/`; other verbs have no profile.
  ...rule('tool.bash:cat *', [
    ['cat /etc/hostname', 'allowed'],
    ['cat ./a.txt', 'allowed'],
    ['cat a.txt > b.txt', 'approval'],
    ['cat a.txt && touch pwned', 'approval'],
  ]),
  ...rule('tool.bash:*', [
    ['echo hi', 'allowed'],
    ['ls /', 'allowed'],
    ['fd -x rm', 'approval'],
    ['rg --pre cat x', 'approval'],
    ['sed -i s/a/b/ a.txt', 'approval'],
    ['sort -o out.txt a.txt', 'approval'],
  ]),
  // An exact rule allows exactly its line — an escaped `*` is a star, not a wildcard.
  { allow: ['tool.bash:find . -name nothing -delete'], command: 'find . -name nothing -delete', outcome: 'allowed' },
  { allow: ['tool.bash:find . -name nothing -delete'], command: 'find . -name other -delete', outcome: 'approval' },
  { allow: ['tool.bash:echo a && echo b'], command: 'echo a && echo b', outcome: 'allowed' },
  { allow: ['tool.bash:echo \\*'], command: 'echo *', outcome: 'allowed' },
  { allow: ['tool.bash:echo \\*'], command: 'echo a.txt', outcome: 'approval' },
  { allow: ['tool.bash:ls ?'], command: 'ls .', outcome: 'allowed' },
  { allow: ['tool.bash:ls ?'], command: 'ls ..', outcome: 'approval' },
  // Deny rules stay broad: text patterns cross `/`, and verbs are seen through wrappers.
  { deny: ['tool.bash:rm *'], command: 'rm -f /tmp/core-agent-no-such-file', outcome: 'denied' },
  { deny: ['tool.bash:*/etc/*'], command: 'cat /etc/hostname', outcome: 'denied' },
  { deny: ['tool.bash.cmd:rm'], command: 'sudo rm -f x', outcome: 'denied' },
  { deny: ['tool.bash.cmd:rm'], command: 'timeout 5 nice -n 1 rm -f x', outcome: 'denied' },
  { deny: ['tool.bash.cmd:rm'], command: 'find . -name x -exec rm {} +', outcome: 'denied' },
  { deny: ['tool.bash.cmd:rm'], allow: ['tool.bash:*'], command: 'echo rm', outcome: 'allowed' },
  { deny: ['tool.bash.cmd:rm'], allow: ['tool.bash:*'], command: 'xargs rm -f < list', outcome: 'denied' },
];
