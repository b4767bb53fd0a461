import path from 'node:path';
import picomatch from 'picomatch';
import { resolvePath } from './resolve-path.ts';

export interface PathScopeConfig {
  /** Roots (and globs) file tools may touch. Default: the workspace root. */
  allow?: readonly string[];
  /** Paths (and globs) refused even inside an allowed root. Deny wins. */
  deny?: readonly string[];
}

interface Entry {
  readonly source: string;
  /** True when `p` (a physical path) is this entry or lies under it. */
  covers(p: string): boolean;
}

const GLOB_CHARS = /[*?[\]{}]/;

/**
 * path_scope: which physical paths file tools may touch. Entries are
 * directories or files (covering everything beneath them) or globs; relative
 * entries are relative to the workspace, `~/` to the home directory. Plain
 * entries are themselves resolved, so a workspace reached through a symlink
 * still matches the real paths tools see.
 */
export class PathScope {
  private constructor(
    readonly workspace: string,
    private readonly allow: readonly Entry[],
    private readonly deny: readonly Entry[],
  ) {}

  /** `home`: what `~/` entries are under; without it a `~/` entry is an error (never a guess). */
  static async create(workspace: string, cfg: PathScopeConfig = {}, opts: { home?: string | undefined } = {}): Promise<PathScope> {
    const allow = await Promise.all((cfg.allow ?? ['.']).map((e) => makeEntry(e, workspace, false, opts.home)));
    const deny = await Promise.all((cfg.deny ?? []).map((e) => makeEntry(e, workspace, true, opts.home)));
    return new PathScope(workspace, allow, deny);
  }

  /** null when allowed, else the reason (naming path_scope and the fix). */
  refusal(real: string, input: string): string | null {
    const shown = input === real ? real : `${input} (resolved to ${real})`;
    const denied = this.deny.find((e) => e.covers(real));
    if (denied) return `${shown} is refused by permissions.path_scope.deny entry "${denied.source}"`;
    if (this.allow.some((e) => e.covers(real))) return null;
    const roots = this.allow.map((e) => e.source).join(', ') || '(none)';
    return (
      `${shown} is outside path_scope (allowed: ${roots}; relative entries are under ${this.workspace}). ` +
      `To grant it, add the path to permissions.path_scope.allow in the recipe.`
    );
  }

  allows(real: string): boolean {
    return !this.denies(real) && this.allow.some((e) => e.covers(real));
  }

  /** Whether a deny entry covers the path (for files the allow list does not govern: a skill's references). */
  denies(real: string): boolean {
    return this.deny.some((e) => e.covers(real));
  }

  /** The configured roots, for messages and for tools that want to list them. */
  describe(): { allow: string[]; deny: string[] } {
    return { allow: this.allow.map((e) => e.source), deny: this.deny.map((e) => e.source) };
  }
}

function coversOutside(match: (p: string) => boolean, p: string): boolean {
  for (let cur = p; cur !== '/'; cur = path.dirname(cur)) if (match(cur.slice(1))) return true;
  return false;
}

/**
 * `anywhere`: a deny entry whose relative glob starts with `**\/` (`**\/*.pem`) also
 * covers paths outside the workspace — an extra allowed root, a skill directory —
 * since a deny rule must never be narrower than it reads.
 */
async function makeEntry(source: string, workspace: string, anywhere: boolean, home: string | undefined): Promise<Entry> {
  const tilde = source === '~' || source.startsWith('~/');
  if (tilde && home === undefined) throw new Error(`path_scope entry "${source}": ~ has no home directory to stand for here`);
  const expanded = tilde ? path.join(home!, source.slice(1)) : source;
  if (GLOB_CHARS.test(expanded)) {
    // Globs match the workspace-relative form for relative entries and the
    // absolute form otherwise, and also cover whatever lies under a match.
    const absolute = path.isAbsolute(expanded);
    const glob = absolute ? expanded : expanded.replace(/^\.\//, '');
    const match = picomatch(glob, { dot: true });
    // `**/…` against the absolute path without its leading slash: any depth from the root.
    const outside = anywhere && !absolute && glob.startsWith('**/') ? match : null;
    return {
      source,
      covers(p) {
        for (let cur = p; ; cur = path.dirname(cur)) {
          const form = absolute ? cur : path.relative(workspace, cur);
          if (!absolute && (form.startsWith('..') || path.isAbsolute(form))) return outside !== null && coversOutside(outside, p);
          if (form !== '' && match(form)) return true;
          if (cur === '/' || (!absolute && cur === workspace)) return false;
        }
      },
    };
  }
  const root = (await resolvePath(expanded, workspace)).real;
  return { source, covers: (p) => p === root || p.startsWith(root === '/' ? '/' : `${root}/`) };
}
