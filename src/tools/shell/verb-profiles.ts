/**
 * Verb profiles: read-ish commands that one option turns into something that
 * runs programs or writes files. A profile hit does not refuse the command; it
 * means two things, both decided here so that they cannot drift apart:
 *
 *   - the permission gate: no wildcard allow rule (`tool.bash:find *`,
 *     `tool.bash.cmd:find`, `tool.bash:*`) auto-allows it — it needs an exact
 *     rule, a person, or a mode that allows it (the Go original's
 *     verbAutoAllowDenyTokens, safecmd.go);
 *   - the search gate: a `find`/`fd`/`rg` that acts is a file operation, not a
 *     search the native tools could replace, so it is not refused.
 *
 * The table names only verbs an operator plausibly allow-lists as readers. Verbs
 * whose whole job is to run or write (xargs, env, tee, tar -x, git) have no
 * profile: a wildcard rule for them already allows everything they do.
 */
interface VerbProfile {
  /** Whole-word options or predicates (find's `-delete`, `--in-place`). */
  readonly words?: readonly string[];
  /** GNU long options, also written `--name=value`. */
  readonly long?: readonly string[];
  /** Short option letters that act, also inside a cluster (`-ni` is `-n -i`). */
  readonly short?: string;
  /** Short options that take a value: the rest of the cluster is that value (`fd -tx` is `--type x`). */
  readonly shortWithValue?: string;
  /** `--` ends the options (getopt); find has no such thing. */
  readonly endOfOptions: boolean;
  /** getopt_long: any unambiguous prefix of a long option works (`sort --out=f`), so a prefix counts. */
  readonly abbreviations?: boolean;
  /** What the acting options do, for the refusal and the docs. */
  readonly acts: string;
}

export const VERB_PROFILES: Readonly<Record<string, VerbProfile>> = {
  // The Go original's list: run a command per file, delete, or write a file list.
  find: {
    words: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf'],
    endOfOptions: false,
    acts: 'runs commands, deletes or writes files',
  },
  fd: {
    long: ['--exec', '--exec-batch'],
    short: 'xX',
    shortWithValue: 'dtecEjSo',
    endOfOptions: true,
    acts: 'runs a command on the results',
  },
  // --pre runs the named program on every file searched.
  rg: { long: ['--pre'], endOfOptions: true, acts: 'runs a preprocessor program on every file' },
  // sort -o writes any file (~/.bashrc as easily as out.txt); --compress-program runs one.
  sort: {
    long: ['--output', '--compress-program'],
    short: 'o',
    shortWithValue: 'ktST',
    endOfOptions: true,
    abbreviations: true,
    acts: 'writes a file or runs a program',
  },
  // `sed -n 1,20p f` is what a `sed *` rule is written for; -i rewrites files in place.
  sed: { long: ['--in-place'], short: 'i', shortWithValue: 'efl', endOfOptions: true, abbreviations: true, acts: 'edits files in place' },
};

/** The first argument that makes `verb` act (`-delete`, `--exec=rm`, `-ni`), or null. */
export function actingArgument(verb: string, args: readonly string[]): string | null {
  const profile = VERB_PROFILES[verb];
  if (!profile) return null;
  for (const arg of args) {
    if (arg === '--' && profile.endOfOptions) return null;
    if (profile.words?.includes(arg)) return arg;
    if (arg.startsWith('--')) {
      const name = arg.split('=', 1)[0]!;
      const acting = (long: string) => long === name || (profile.abbreviations === true && name.length > 2 && long.startsWith(name));
      if (profile.long?.some(acting)) return arg;
      continue;
    }
    if (arg.length > 1 && arg.startsWith('-') && profile.short) {
      for (const letter of arg.slice(1)) {
        if (profile.short.includes(letter)) return arg;
        if (profile.shortWithValue?.includes(letter)) break;
      }
    }
  }
  return null;
}

/** Why a wildcard rule may not allow this argv, or null (no profile, or nothing in it acts). */
export function profileRefusal(verb: string, args: readonly string[]): string | null {
  const hit = actingArgument(verb, args);
  return hit === null ? null : `${verb} ${hit} ${VERB_PROFILES[verb]!.acts}`;
}
