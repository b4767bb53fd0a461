import type { Subject } from './rules.ts';

/**
 * Files under a `.git` or `.jj` directory are a repository's machinery, not its
 * content: `.git/config` names commands git runs (core.fsmonitor, filter
 * drivers, core.hooksPath), `.git/hooks/*` are programs git runs on checkout,
 * commit and merge, and `.jj/repo/config.toml` is jj's equivalent. An edit there
 * is the way from "may edit files" to "runs a program the next time anyone uses
 * git", so accept-edits' blanket approval of file edits never covers it.
 */

/** Code points HFS+ ignores in names (git's is_hfs_dotgit list): `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * `.git` or `.jj` in any spelling a filesystem may take for it: any case (macOS
 * and Windows volumes are case-insensitive, and a repository copied onto Linux
 * keeps working there as `.git`), with the code points HFS+ drops removed.
 * Erring towards asking: on Linux `.GIT` is a different directory, and an edit
 * there asks once more than it needs to.
 */
export function isVcsDirName(component: string): boolean {
  const name = component.replace(HFS_IGNORED, '').toLowerCase();
  return name === '.git' || name === '.jj';
}

/** The first path (in any of its spellings) that has a `.git` or `.jj` component, or undefined. */
export function vcsMetadataSubject(subjects: readonly Subject[]): string | undefined {
  for (const s of subjects) {
    if (s.kind !== 'path') continue;
    const hit = s.forms.find((form) => form.split('/').some(isVcsDirName));
    if (hit !== undefined) return hit;
  }
  return undefined;
}
