import { parseTree, type Node } from './bash-parser.ts';
import { checkArgv, downloads, FORK_BOMB, isBlockDevice, REASONS, stdinShell, SUBSTITUTED_DOWNLOAD } from './deny-rules.ts';
import { basename, commandWords, descendants, looseWord } from './shell-words.ts';
import { commandLayers, shellScript, SHELLS } from './wrappers.ts';

/**
 * Commands refused in every mode, yolo included: the shell forms most likely to
 * wreck a machine by accident or on a prompt-injected model's first, laziest
 * try (deny-rules.ts has the list). Defence in depth, not a boundary —
 * variables, staging (`curl -o x; sh x`) or an unlisted target evade it, and it
 * cannot be made complete. For a boundary, leave bash out of the catalog or
 * allow-list commands with permission rules.
 *
 * Unlike the search gate it looks everywhere: every simple command in the line,
 * inside if/for/while/case, functions, subshells and substitutions, and the
 * scripts handed to a shell (`sh -c '…'`, `eval`, a here-document). A line that
 * does not parse is read as text instead, never waved through.
 */
export async function deniedCommand(command: string): Promise<string | null> {
  return inspect(command, { scripts: 0 }, 0);
}

/** Nested scripts are parsed too, to a bounded depth and count (a 100 KB line of `sh -c` is not a reason to spin). */
const MAX_DEPTH = 4;
const MAX_SCRIPTS = 32;

async function inspect(command: string, budget: { scripts: number }, depth: number): Promise<string | null> {
  if (FORK_BOMB.test(command)) return REASONS.forkBomb;
  const root = await parseTree(command);
  const found = root && !root.hasError ? inspectTree(root) : inspectText(command);
  if (found.reason) return found.reason;
  if (depth >= MAX_DEPTH) return null;
  for (const script of found.scripts) {
    if (++budget.scripts > MAX_SCRIPTS) return null;
    const reason = await inspect(script, budget, depth + 1);
    if (reason) return reason;
  }
  return null;
}

interface Findings {
  reason: string | null;
  /** Command lines a shell will run from this one: `sh -c` scripts, `eval` text, here-documents fed to a shell. */
  scripts: string[];
}

function inspectTree(root: Node): Findings {
  const scripts: string[] = [];
  const refuse = (reason: string): Findings => ({ reason, scripts });
  for (const n of descendants(root)) {
    switch (n.type) {
      case 'command': {
        const argv = commandWords(n).map(looseWord);
        const reason = checkArgv(argv) ?? redirections(n.childrenForFieldName('redirect'), stdinShell(argv), scripts);
        if (reason) return refuse(reason);
        for (const layer of commandLayers(argv)) {
          const script = shellScript(layer);
          if (script !== null) {
            if (SUBSTITUTED_DOWNLOAD.test(script)) return refuse(REASONS.download);
            scripts.push(script);
          }
          // bash <(curl …), . <(wget …)
          const runsFile = SHELLS.has(basename(layer[0] ?? '')) || layer[0] === '.' || layer[0] === 'source';
          if (runsFile && layer.slice(1).some((a) => a.startsWith('<(') && SUBSTITUTED_DOWNLOAD.test(a))) return refuse(REASONS.download);
        }
        break;
      }
      case 'redirected_statement': {
        const body = n.childForFieldName('body');
        const shell = body !== null && stageCommands(body).some(stdinShell);
        const reason = redirections(n.childrenForFieldName('redirect'), shell, scripts);
        if (reason) return refuse(reason);
        break;
      }
      case 'pipeline': {
        const stages = n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
        const from = stages.findIndex((s) => stageCommands(s).some(downloads));
        if (from !== -1 && stages.slice(from + 1).some((s) => stageCommands(s).some(stdinShell))) return refuse(REASONS.download);
        break;
      }
      case 'function_definition':
        if (forkBomb(n, root)) return refuse(REASONS.forkBomb);
        break;
    }
  }
  return { reason: null, scripts };
}

/** `> /dev/sda`, `sh < <(curl …)`, and here-documents or here-strings a shell (`shell`) will run. */
function redirections(redirects: ReadonlyArray<Node | null>, shell: boolean, scripts: string[]): string | null {
  for (const r of redirects) {
    if (!r) continue;
    const op = r.children.find((c) => c !== null && !c.isNamed)?.type ?? '';
    const destination = r.childForFieldName('destination');
    if (r.type === 'file_redirect' && destination) {
      const target = looseWord(destination);
      if (op.includes('>') && isBlockDevice(target)) return REASONS.device;
      if (op === '<' && shell && destination.type === 'process_substitution' && SUBSTITUTED_DOWNLOAD.test(target)) return REASONS.download;
    }
    if (shell && r.type === 'heredoc_redirect') {
      const text = r.namedChildren.find((c) => c?.type === 'heredoc_body')?.text;
      if (text) scripts.push(text);
    }
    if (shell && r.type === 'herestring_redirect') {
      const word = r.namedChildren.find((c) => c !== null);
      if (word) scripts.push(looseWord(word));
    }
  }
  return null;
}

/** The argvs of the commands a pipeline stage starts with (not those inside its substitutions). */
function stageCommands(stage: Node): string[][] {
  if (stage.type === 'command') return [commandWords(stage).map(looseWord)];
  if (stage.type === 'redirected_statement' || stage.type === 'negated_command') {
    const body = stage.childForFieldName('body') ?? stage.namedChildren.find((c) => c !== null) ?? null;
    return body ? stageCommands(body) : [];
  }
  if (stage.type === 'subshell' || stage.type === 'compound_statement' || stage.type === 'list') {
    return stage.namedChildren.flatMap((c) => (c ? stageCommands(c) : []));
  }
  return [];
}

/** A function that runs itself more than once at a time (piped into itself or sent to the background), and is called. */
function forkBomb(fn: Node, root: Node): boolean {
  const name = fn.childForFieldName('name')?.text;
  const body = fn.childForFieldName('body');
  if (!name || !body) return false;
  const self = (n: Node | null) => n?.type === 'command' && n.childForFieldName('name')?.text === name;
  let multiplies = false;
  for (const n of descendants(body)) {
    if (n.type === 'pipeline' && n.namedChildren.some(self)) multiplies = true;
    if (self(n) && n.nextSibling?.type === '&') multiplies = true;
  }
  if (!multiplies) return false;
  for (const n of descendants(root)) {
    if (self(n) && !isInside(n, body)) return true;
  }
  return false;
}

function isInside(n: Node, ancestor: Node): boolean {
  return n.startIndex >= ancestor.startIndex && n.endIndex <= ancestor.endIndex;
}

/**
 * A line that does not parse, read as text: split into simple commands at
 * unquoted `;`, `&`, `|`, newlines, parentheses, braces and backquotes, words
 * unquoted, `>` targets collected. Rough on purpose: it only has to be no
 * weaker than the checks above for the forms they know.
 */
function inspectText(line: string): Findings {
  const { commands, writes } = splitText(line.replace(/\\\n/g, ' '));
  const scripts: string[] = [];
  for (const [i, { argv }] of commands.entries()) {
    const reason = checkArgv(argv);
    if (reason) return { reason, scripts };
    for (const layer of commandLayers(argv)) {
      const script = shellScript(layer);
      if (script !== null) {
        if (SUBSTITUTED_DOWNLOAD.test(script)) return { reason: REASONS.download, scripts };
        scripts.push(script);
      }
    }
    if (downloads(argv)) {
      for (let j = i + 1; j < commands.length && commands[j]!.piped; j++) {
        if (stdinShell(commands[j]!.argv)) return { reason: REASONS.download, scripts };
      }
    }
  }
  if (writes.some(isBlockDevice)) return { reason: REASONS.device, scripts };
  return { reason: SHELL_READS_DOWNLOAD.test(line) ? REASONS.download : null, scripts };
}

/** `bash <(curl …)`, `. <(wget …)`, `eval "$(curl …)"` as text (each quantifier bounded: linear on any input). */
const SHELL_READS_DOWNLOAD =
  /(?:^|[\s;&|(])(?:[^\s;&|(]{0,64}\/)?(?:(?:ba|z|da|k|a|mk)?sh|source|\.|eval)\s[^;&|\n]{0,256}?(?:<\(|\$\(|`)\s*(?:[^\s)`]{0,64}\/)?(?:curl|wget)(?:[\s)`]|$)/;

interface TextCommand {
  argv: string[];
  /** Its stdin is the previous command's stdout (`a | b`). */
  piped: boolean;
}

function splitText(line: string): { commands: TextCommand[]; writes: string[] } {
  const commands: TextCommand[] = [];
  const writes: string[] = [];
  let argv: string[] = [];
  let piped = false;
  let word: string | null = null;
  let redirect: 'out' | 'in' | null = null;
  const endWord = () => {
    if (word === null) return;
    if (redirect === 'out') writes.push(word);
    else if (redirect === null && word !== '{' && word !== '}') argv.push(word);
    word = null;
    redirect = null;
  };
  const endCommand = () => {
    endWord();
    if (argv.length > 0) commands.push({ argv, piped });
    argv = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== c; j++) text += c === '"' && line[j] === '\\' && j + 1 < line.length ? line[++j] : line[j];
      // An unterminated quote (why the line did not parse) adds nothing of its own.
      if (j < line.length || text !== '') word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && i + 1 < line.length) word = (word ?? '') + line[++i];
    else if (c === '>' || c === '<') {
      endWord();
      while (line[i + 1] === '>' || line[i + 1] === '<' || line[i + 1] === '|' || line[i + 1] === '&') i++;
      redirect = c === '>' ? 'out' : 'in';
    } else if (c === ' ' || c === '\t') {
      if (redirect === null || word !== null) endWord();
    } else if (c === '|') {
      endCommand();
      // `||` runs the next command on failure; `|` and `|&` feed it.
      piped = line[i + 1] !== '|';
      if (line[i + 1] === '|' || line[i + 1] === '&') i++;
    } else if (c === ';' || c === '&' || c === '\n') {
      endCommand();
      piped = false;
    } else if (c === '(' || c === ')' || c === '`' || (c === '$' && line[i + 1] === '(')) endCommand();
    else word = (word ?? '') + c;
  }
  endCommand();
  return { commands, writes };
}
