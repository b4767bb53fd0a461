import { execFile } from 'node:child_process';
import path from 'node:path';
import { ToolError } from '../framework/tool.ts';
import { GIT_SAFE_CONFIG, gitConfigArgs, gitOverridesFor, jjConfigArgs, vcsEnv } from './vcs-config.ts';

/** How long one git or jj command may take: a worktree checkout of a large repository, not a hang on a lock. */
export const VCS_TIMEOUT_MS = 120_000;

export interface VcsRun {
  /** The binary (ToolServices.git or .jj). */
  readonly bin: string;
  readonly cwd: string;
  /** The agent's environment; what git and jj read as configuration is taken out of it (vcsEnv). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly signal: AbortSignal;
}

/**
 * Run one git command with the repository's programs switched off (hooks,
 * fsmonitor, transports, credential helpers: vcs-config.ts). `checkout` says
 * the command writes files to a working tree, so the repository's filter
 * drivers are listed first and switched off too.
 */
export async function runGit(run: VcsRun, args: readonly string[], opts: { checkout?: boolean } = {}): Promise<string> {
  let pairs = GIT_SAFE_CONFIG;
  if (opts.checkout) {
    // Reading config starts no program (no hook, no filter, no fsmonitor): safe to ask first.
    const listing = await execVcs(run, gitConfigArgs(GIT_SAFE_CONFIG), ['config', '--null', '--list'], true);
    const more = gitOverridesFor(listing);
    if ('refused' in more) throw new ToolError(`${more.refused}; run the checkout yourself`);
    pairs = [...pairs, ...more];
  }
  return execVcs(run, gitConfigArgs(pairs), args);
}

/** Run one jj command with its fsmonitor, signing and pager switched off (vcs-config.ts). */
export async function runJj(run: VcsRun, args: readonly string[]): Promise<string> {
  return execVcs(run, jjConfigArgs(), args);
}

/**
 * Run one git or jj command and return its stdout (trimmed unless `raw`). A
 * failure becomes a sentence naming the command (without the `prefix` of
 * config arguments) and the tool's own first error line (`fatal: …`), bounded:
 * what the model can act on, never a stack or a whole stderr.
 */
function execVcs(run: VcsRun, prefix: readonly string[], args: readonly string[], raw = false): Promise<string> {
  const tool = path.basename(run.bin);
  return new Promise((resolve, reject) => {
    execFile(
      run.bin,
      [...prefix, ...args],
      { cwd: run.cwd, env: vcsEnv(run.env), timeout: VCS_TIMEOUT_MS, signal: run.signal, maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(raw ? stdout : stdout.trim());
        const e = err as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
        if (e.name === 'AbortError') return reject(e);
        const what = `${tool} ${args.slice(0, 2).join(' ')}`;
        if (e.killed && e.signal) return reject(new ToolError(`${what} did not finish within ${VCS_TIMEOUT_MS / 1000} s and was stopped`));
        const detail = firstErrorLine(stderr) ?? e.message;
        reject(new ToolError(`${what} failed: ${detail.slice(0, 400)}`));
      },
    );
  });
}

/** The line that says what went wrong: git's `fatal:`/`error:` line, else the first non-empty one. */
function firstErrorLine(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => /^(fatal|error):/i.test(l)) ?? lines[0];
}
