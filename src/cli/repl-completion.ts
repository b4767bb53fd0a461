import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** The REPL's slash commands, for Tab (repl.ts answers each). */
export const SLASH_COMMANDS = [
  '/stats',
  '/tools',
  '/mcp',
  '/agents',
  '/model',
  '/mode',
  '/compact',
  '/clear',
  '/done',
  '/replan',
  '/help',
  '/exit',
];

/** At most this many names of one directory are offered (a node_modules is not worth listing). */
const MAX_CANDIDATES = 200;

export interface CompletionSources {
  /** The directory an `@path` is relative to (the session's working directory). */
  cwd: () => string;
  /** Values after `/mode ` and `/model `. */
  modes: readonly string[];
  providers: readonly string[];
}

/**
 * Tab in the REPL (readline's completer: the line up to the cursor in, the candidates and the
 * part of the line they replace out): a slash command at the start of the line, a mode after
 * `/mode `, a provider after `/model `, and the last word when it is an `@path` — the names in
 * its directory (relative to the session's working directory), a directory with a trailing `/`,
 * a name with a space quoted as `@"…"` (prompt-input.ts reads that form). Hidden names only
 * when the word asks for them (`@.g`). Nothing else completes.
 */
export function completeLine(line: string, o: CompletionSources): [string[], string] {
  if (/^\/\S*$/.test(line)) return [SLASH_COMMANDS.filter((c) => c.startsWith(line)), line];
  const arg = /^\/(mode|model) (\S*)$/.exec(line);
  if (arg) {
    const words = arg[1] === 'mode' ? o.modes : o.providers.map((p) => `${p}:`);
    return [words.filter((w) => w.startsWith(arg[2]!)), arg[2]!];
  }
  const at = /(?:^|\s)(@(["']?)([^\s"']*))$/.exec(line);
  if (!at) return [[], line];
  const [, token, quote, typed] = at as unknown as [string, string, string, string];
  const slash = typed.lastIndexOf('/');
  const dirPart = typed.slice(0, slash + 1);
  const base = typed.slice(slash + 1);
  const dir = path.resolve(o.cwd(), dirPart || '.');
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [[], token];
  }
  const names = entries
    .filter((e) => e.name.startsWith(base) && (base.startsWith('.') || !e.name.startsWith('.')))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, MAX_CANDIDATES);
  const candidates = names.map((e) => {
    const isDir = e.isDirectory() || (e.isSymbolicLink() && isDirectory(path.join(dir, e.name)));
    const rel = `${dirPart}${e.name}${isDir ? '/' : ''}`;
    const q = quote || (/\s/.test(rel) ? '"' : '');
    // A quoted file is closed; a quoted directory stays open for the name inside it.
    return q ? `@${q}${rel}${isDir ? '' : q}` : `@${rel}`;
  });
  return [candidates, token];
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
