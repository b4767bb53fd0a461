import { findOnPath } from '../../util/find-on-path.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The git binary on the PATH commands run with (enter_worktree); absent when there is none. */
    readonly git?: string | undefined;
    /** The jj (Jujutsu) binary on that PATH, if any: enter_worktree makes a jj workspace in a jj repository. */
    readonly jj?: string | undefined;
  }
}

/** Looked up once, on the PATH the model's commands get: enter_worktree runs exactly these binaries. */
export const services: FamilyServices = (ctx) => ({
  git: findOnPath('git', ctx.commandEnv),
  jj: findOnPath('jj', ctx.commandEnv),
});

export const missing: MissingReasons = {
  git: () => 'git is not on the PATH commands run with, so enter_worktree is not registered',
};
