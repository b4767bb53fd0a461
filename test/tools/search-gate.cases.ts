/**
 * The bash search gate as data: a command line and what the gate does with it
 * when both grep and glob are registered — `[verb, tool]` refused, or null (runs).
 * The shape follows the Go original (pkg/permissions/searchgate.go): it looks
 * through `;`, `&&`, `||`, the left side of pipes, subshells, `{ }`, `!` and
 * redirections, and nowhere else.
 */
export type SearchGateCase = readonly [command: string, refused: readonly [verb: string, tool: 'grep' | 'glob'] | null];

export const SEARCH_GATE_CASES: readonly SearchGateCase[] = [
  // Search-shaped: refused with the tool to use.
  ['grep -rn TODO .', ['grep', 'grep']],
  ['make build && grep -rn TODO .', ['grep', 'grep']],
  ['make build || rg TODO', ['rg', 'grep']],
  ['cd src; ag needle', ['ag', 'grep']],
  ['(cd src && ack needle)', ['ack', 'grep']],
  ['{ egrep -r x .; }', ['egrep', 'grep']],
  ['/usr/bin/grep -r x .', ['grep', 'grep']],
  ['LC_ALL=C fgrep -r x .', ['fgrep', 'grep']],
  ['rgrep x', ['rgrep', 'grep']],
  ['grep -rn foo . | head', ['grep', 'grep']],
  ['grep -rn foo . > out.txt', ['grep', 'grep']],
  ['find . -name "*.go"', ['find', 'glob']],
  ['fd main', ['fd', 'glob']],
  ['! grep -rq x .', ['grep', 'grep']],
  ['grep -rn x . &', ['grep', 'grep']],
  ['true; (false || { rg x; })', ['rg', 'grep']],
  ['(grep -rn x .) | sort', ['grep', 'grep']],
  ['cd a && cd b && find . -type f', ['find', 'glob']],
  ['find . -name x 2>/dev/null', ['find', 'glob']],
  ['fd -e go -t f', ['fd', 'glob']],
  ['fd -tx build', ['fd', 'glob']], // -t x is --type executable, not -x
  ['rg --pre-glob "*.pdf" x', ['rg', 'grep']],
  ["find . -name '-delete'", null], // the predicate list cannot tell a value from a predicate: fails open
  ['"grep" -r x .', ['grep', 'grep']],
  ["'/bin/grep' -r x .", ['grep', 'grep']],
  ['gr\\ep -r x .', ['grep', 'grep']],
  // A stream filter: on the right of a pipe, at any depth.
  ['go test ./... | grep -v ok', null],
  ['make 2>&1 | rg error', null],
  ['make | (grep x; cat)', null],
  ['make | { rg x; }', null],
  ['cat a |& grep b', null],
  ['ls | sort | grep x', null],
  // A find, fd or rg that acts is a file operation (verb-profiles.ts).
  ["find . -name '*.tmp' -delete", null],
  ['find . -type f -exec rm {} +', null],
  ['find . -name x -execdir ls \\;', null],
  ['find . -ok rm {} \\;', null],
  ['find . -fprint list.txt', null],
  ["find . '-delete'", null],
  ['find . \\-delete', null],
  ['find . "-exec" rm {} +', null],
  ['fd -e tmp -x rm', null],
  ['fd -e tmp --exec rm', null],
  ['fd -e tmp --exec=rm', null],
  ['fd -HX rm', null],
  ['fd . --exec-batch ls', null],
  ['rg --pre pdftotext needle', null],
  ['rg --pre=./conv.sh needle', null],
  // Control flow, functions and substitutions: the original fails open there.
  ['if true; then grep -rn foo .; fi', null],
  ['if grep -q x f; then echo y; fi', null],
  ['for f in a b; do grep -n x "$f"; done', null],
  ['while read l; do rg "$l"; done < list', null],
  ['until false; do find . -name x; done', null],
  ['case "$x" in a) grep -r y .;; esac', null],
  ['f() { grep -rn x .; }', null],
  ['echo "$(grep -rn x .)"', null],
  ['echo `find . -name x`', null],
  ['X=$(rg x) make', null],
  ['diff <(grep a f) <(grep b f)', null],
  // Not literal: fails open.
  ['$TOOL -rn foo .', null],
  ['eval "grep -rn foo ."', null],
  ["sh -c 'grep -rn foo .'", null],
  ["bash -c 'find .'", null],
  ['"$(which grep)" -r x .', null],
  ['${GREP:-grep} -r x .', null],
  // Not a search verb.
  ['git grep foo', null],
  ['xargs grep foo', null],
  ['echo grep', null],
  ['make build', null],
  ['sudo grep -r x /etc', null],
  // Does not parse, or nothing there: fails open.
  ['echo "unterminated', null],
  ['grep -r x . )', null],
  ['', null],
  ['# grep -r x .', null],
];
