import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod/v4';
import { resolvePath } from '../../permissions/resolve-path.ts';
import { LIMITS, pathArg } from '../framework/limits.ts';
import { shellEnv } from '../../util/command-env.ts';
import { defineTool, ToolError, type JsonObject, type ToolContext } from '../framework/tool.ts';
import description from './enter-worktree.md';
import { enterDirectory, insideWorkspace } from './enter.ts';
import { runGit, runJj, type VcsRun } from './vcs.ts';

/** A worktree name is one path component and a valid branch name: no `..`, no leading `-` or `.`, no `.lock` end. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const NAME_RULE = 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64 characters';

function badName(name: string): boolean {
  return !NAME.test(name) || name.includes('..') || name.endsWith('.lock') || name.endsWith('.');
}

/** Where named worktrees go, under the workspace (the launch directory, not the current one). */
export const WORKTREES_DIR = '.agents/worktrees';

const settings = z.strictObject({
  default_base: z
    .string()
    .min(1)
    .max(LIMITS.identifier)
    .default('fresh')
    .describe('The base when a call gives none: fresh (the default branch), head (the current revision), or a revision.'),
});

export const enterWorktreeTool = defineTool({
  name: 'enter_worktree',
  dialect: 'cagent',
  description,
  // Adds a branch and a checkout to the repository: a change that destroys nothing. It asks in
  // ask mode and waits for the plan under plan-first, wherever the worktree goes.
  kind: 'change',
  needs: ['git'],
  uses: ['env', 'jj'],
  settings,
  narrowHint: '',
  args: z.strictObject({
    name: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(`The worktree's name (${NAME_RULE}): ${WORKTREES_DIR}/<name> in the workspace, on a new branch <name>.`),
    path: pathArg(
      'A custom place for the worktree instead of a name, relative to the current directory (or absolute); it must not exist.',
    ).optional(),
    base: z
      .string()
      .min(1)
      .max(LIMITS.identifier)
      .optional()
      .describe('Where the new branch starts: fresh (the default branch), head (the current revision), or a branch, tag or commit.'),
  }),
  paths: (a) => (a.path === undefined ? [] : [{ arg: 'path', path: a.path, access: 'write' }]),
  async run(args, ctx) {
    if (args.name !== undefined && args.path !== undefined) throw new ToolError('give name or path, not both');
    if (args.name !== undefined && badName(args.name)) throw new ToolError(`name must be ${NAME_RULE}`, 'invalid_args');
    const base = args.base ?? ctx.settings.default_base;
    if (base.startsWith('-')) throw new ToolError(`base cannot start with "-": it is a revision, not an option`, 'invalid_args');

    const target = args.path !== undefined ? ctx.paths.get('path')! : await namedTarget(args.name ?? generatedName(), ctx);
    const shown = ctx.display(target.real);
    if (target.exists) {
      throw new ToolError(
        `${shown} already exists: enter_worktree never reuses or overwrites a path` +
          (ctx.toolName('change_working_directory')
            ? `; to work in an existing checkout, ${ctx.toolName('change_working_directory')} to it`
            : ''),
      );
    }
    const name = path.basename(target.real);
    if (badName(name)) throw new ToolError(`the worktree's last path component names its branch and must be ${NAME_RULE}`, 'invalid_args');

    const env = shellEnv(ctx.services.env, []);
    const jj = ctx.services.jj;
    const made =
      jj && jjRepository(ctx.workspace)
        ? await addJjWorkspace({ bin: jj, cwd: ctx.workspace, env, signal: ctx.signal }, name, base, target.real)
        : await addGitWorktree({ bin: ctx.services.git!, cwd: ctx.workspace, env, signal: ctx.signal }, name, base, target.real);
    return { ...(await enterDirectory(await realpath(target.real), ctx)), ...made };
  },
});

function generatedName(): string {
  return `worktree-${randomBytes(3).toString('hex')}`;
}

/** `.agents/worktrees/<name>` under the workspace, resolved; it must stay inside the workspace and path_scope. */
async function namedTarget(name: string, ctx: ToolContext) {
  if (badName(name)) throw new ToolError(`name must be ${NAME_RULE}`, 'invalid_args');
  const r = await resolvePath(`${WORKTREES_DIR}/${name}`, ctx.workspace);
  // A .agents symlinked elsewhere does not get a checkout written there.
  if (!insideWorkspace(ctx.workspace, r.real) || !ctx.readable(r.real)) {
    throw new ToolError(`${WORKTREES_DIR}/${name} leads to ${r.real}, outside the workspace or path_scope; give a path instead`, 'denied');
  }
  return r;
}

/** A `.jj` directory in the workspace or above it: a Jujutsu repository (colocated with git or not). */
function jjRepository(workspace: string): boolean {
  for (let dir = workspace; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.jj'))) return true;
    if (dir === '/') return false;
  }
}

async function addGitWorktree(run: VcsRun, branch: string, base: string, target: string): Promise<JsonObject> {
  await runGit(run, ['rev-parse', '--show-toplevel']).catch((err: unknown) => {
    throw new ToolError(`the workspace is not in a git repository (${(err as Error).message})`);
  });
  const rev = base === 'fresh' ? await defaultBranch(run) : base === 'head' ? 'HEAD' : base;
  const commit = await runGit(run, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]).catch(() => {
    throw new ToolError(`base "${base}" is not a revision in this repository (a branch, tag or commit; or fresh, head)`, 'not_found');
  });
  // The commit id, not the name: nothing the model typed reaches git's argument parser as a revision.
  await runGit(run, ['worktree', 'add', '-b', branch, target, commit], { checkout: true });
  return { vcs: 'git', branch, base, commit };
}

/**
 * The repository's default branch: what origin/HEAD points at, else the
 * configured init.defaultBranch, main or master, whichever exists locally.
 */
async function defaultBranch(run: VcsRun): Promise<string> {
  const remote = await runGit(run, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']).catch(() => '');
  if (remote !== '') return remote;
  const configured = await runGit(run, ['config', '--get', 'init.defaultBranch']).catch(() => '');
  for (const b of [configured, 'main', 'master']) {
    if (b === '') continue;
    const found = await runGit(run, ['rev-parse', '--verify', '--quiet', `refs/heads/${b}`]).then(
      () => true,
      () => false,
    );
    if (found) return b;
  }
  throw new ToolError(
    'could not tell this repository\'s default branch (no origin/HEAD, and no main or master branch); give base: "head" or a branch',
  );
}

/** jj: a new workspace whose working-copy commit sits on the base (trunk() for fresh, @ for head). */
async function addJjWorkspace(run: VcsRun, name: string, base: string, target: string): Promise<JsonObject> {
  const rev = base === 'fresh' ? 'trunk()' : base === 'head' ? '@' : base;
  await runJj(run, ['workspace', 'add', '--name', name, '--revision', rev, target]);
  return { vcs: 'jj', workspace: name, base };
}
