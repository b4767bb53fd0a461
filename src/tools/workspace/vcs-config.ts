/**
 * What keeps git and jj from running a repository's programs when the project
 * runs them. A repository's own config (`.git/config`, `.jj/repo/config.toml`)
 * and hooks are files anyone who can edit the repository can change; git obeys
 * them on the commands enter_worktree runs — `post-checkout` and
 * `reference-transaction` hooks on `worktree add`, `core.fsmonitor` on every
 * index refresh, a filter driver's `smudge`/`process` on every file checked out.
 * Command-line config (`git -c`, `jj --config`) outranks every config file, so
 * each command gets the keys below on its command line, and an environment
 * without any variable git or jj would read as an override.
 */

/**
 * Fixed git config for every command: each key names or triggers a program.
 * Keys for commands the project never runs (diff.external, merge drivers,
 * gpg.program, core.editor, pager.*, sendemail.*) are left: the commands that
 * would read them — diff, merge, commit, rebase, send-email — are not run.
 */
export const GIT_SAFE_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  // No hook runs: git looks for /dev/null/<hook>, which cannot exist.
  ['core.hooksPath', '/dev/null'],
  // No fsmonitor hook or daemon (a program path in core.fsmonitor is run on every index refresh).
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  // A checkout does not reach into submodules, and so not into their transports or `update = !command`.
  ['submodule.recurse', 'false'],
  // No transport at all: ext:: runs a command, ssh runs core.sshCommand, and none is needed here.
  // Per protocol too, because a repository's `protocol.<name>.allow` outranks `protocol.allow`.
  ['protocol.allow', 'never'],
  ...['ext', 'file', 'git', 'ssh', 'http', 'https', 'fd'].map((p) => [`protocol.${p}.allow`, 'never'] as const),
  // An empty helper empties the list: no credential helper program.
  ['credential.helper', ''],
  // No automatic gc or maintenance in the background after a command.
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

/**
 * Overrides for what a config listing (`git config --null --list`) names that
 * the fixed table cannot: filter drivers, named in .gitattributes and defined
 * in config as `filter.<driver>.{clean,smudge,process}`, whose names are the
 * repository's own. Each is emptied (git then copies the file as stored) and
 * made not required (an emptied required filter would fail the checkout).
 * Every `protocol.<name>.allow` the config names is set to never as well.
 * A name git's `-c` cannot carry (it splits at the first `=`) is refused.
 */
export function gitOverridesFor(listing: string): Array<readonly [string, string]> | { refused: string } {
  const out: Array<readonly [string, string]> = [];
  const drivers = new Set<string>();
  for (const entry of listing.split('\0')) {
    const key = entry.split('\n', 1)[0]!;
    const filter = /^filter\.(.+)\.(clean|smudge|process|required)$/is.exec(key);
    if (filter) drivers.add(filter[1]!);
    const protocol = /^protocol\.(.+)\.allow$/is.exec(key);
    if (protocol) out.push([`protocol.${protocol[1]!}.allow`, 'never']);
  }
  for (const d of drivers) {
    if (d.includes('=') || d.includes('\n'))
      return {
        refused: `the repository's config defines a filter driver named ${JSON.stringify(d.slice(0, 80))}, which cannot be switched off safely`,
      };
    out.push([`filter.${d}.clean`, ''], [`filter.${d}.smudge`, ''], [`filter.${d}.process`, ''], [`filter.${d}.required`, 'false']);
  }
  return out;
}

/** `-c key=value` pairs as git's argument list. */
export function gitConfigArgs(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  return pairs.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/**
 * jj's keys that start programs on the command enter_worktree runs (`jj
 * workspace add` snapshots and writes a commit): the fsmonitor (watchman),
 * commit signing (gpg, ssh-keygen, gpgsm as `signing.backends.*.program`), and
 * a pager. jj has no hooks and runs no git filters or git hooks. Values are
 * TOML (`jj --config NAME=VALUE`, jj 0.25 and later).
 */
export const JJ_SAFE_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ['fsmonitor.backend', '"none"'],
  ['signing.behavior', '"drop"'],
  ['ui.paginate', '"never"'],
];

export function jjConfigArgs(): string[] {
  return [...JJ_SAFE_CONFIG.flatMap(([k, v]) => ['--config', `${k}=${v}`]), '--no-pager'];
}

/**
 * The environment for git and jj: the agent's, minus every variable git or jj
 * reads as configuration or as a program to run — GIT_* (GIT_CONFIG_PARAMETERS
 * and GIT_CONFIG_COUNT carry config, GIT_DIR and GIT_WORK_TREE point elsewhere,
 * GIT_SSH_COMMAND, GIT_ASKPASS, GIT_EXTERNAL_DIFF and GIT_EDITOR name programs,
 * GIT_TRACE* write files), JJ_* (JJ_CONFIG names a config file), SSH_ASKPASS,
 * EDITOR and VISUAL — then the few that keep them from waiting for a person.
 */
export function vcsEnv(base: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (/^(GIT_|JJ_)/i.test(k) || ['SSH_ASKPASS', 'EDITOR', 'VISUAL'].includes(k)) continue;
    env[k] = v;
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };
}
