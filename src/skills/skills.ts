import { lstat, readdirEntries, realpath } from '../startup/fs-callbacks.ts';
import path from 'node:path';

/** A runbook: a directory with SKILL.md (front matter: name, description) and reference files. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's directory, symlinks resolved. */
  dir: string;
  /** Where its SKILL.md really is: inside `dir` (it may be a link to another file of the skill). */
  skillMd: string;
  /** Files beside SKILL.md, relative to dir (references/crashloop.md …): regular files only, none path_scope.deny covers. */
  files: string[];
}

export interface LoadSkillsOptions {
  /** path_scope.deny: a skill file it covers is neither listed nor served (a skill whose SKILL.md it covers is left out). */
  denies?: (real: string) => boolean;
  /** Where a lenient root's unusable skill is reported (it is skipped); default: nowhere. */
  warn?: (message: string) => void;
}

/**
 * A directory of skills. A lenient one (a user's own skills, a group's, a tenant's: written
 * by a model or a person, not shipped with the recipe) has an unusable SKILL.md skipped with a
 * warning naming the file, and its skills shadow the later roots' skills of the same name
 * (the first root wins a name). A strict one (the workspace's, the recipe's) stops the run on
 * either, as it always has: a runbook that silently went missing would leave the model guessing.
 */
export interface SkillRoot {
  readonly dir: string;
  readonly lenient?: boolean | undefined;
}

export class SkillError extends Error {
  override readonly name = 'SkillError';
}

const MAX_FILES = 200;

/**
 * Every skill under the given directories (each child directory holding a
 * SKILL.md), in root order. A directory that does not exist is skipped; in a
 * strict root, a SKILL.md that cannot be used (front-matter.ts: bounded,
 * FILE:LINE:COL) or two skills with one name is an error naming the file; in a
 * lenient root, a warning (SkillRoot).
 */
export async function loadSkills(roots: readonly (string | SkillRoot)[], opts: LoadSkillsOptions = {}): Promise<Skill[]> {
  const denies = opts.denies ?? (() => false);
  const skills = new Map<string, Skill & { lenient: boolean }>();
  for (const given of roots) {
    const root = typeof given === 'string' ? { dir: given } : given;
    const lenient = root.lenient === true;
    let entries: string[];
    try {
      entries = (await readdirEntries(root.dir)).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || (lenient && code === 'ENOTDIR')) continue;
      throw err;
    }
    for (const entry of entries.sort()) {
      try {
        const skill = await loadOne(path.join(root.dir, entry), denies);
        if (skill === null) continue;
        const earlier = skills.get(skill.name);
        if (earlier === undefined) skills.set(skill.name, { ...skill, lenient });
        else if (!lenient && !earlier.lenient)
          throw new SkillError(`${skill.at}: a skill named "${skill.name}" is already loaded from ${earlier.dir}`);
        // Otherwise the first root wins the name: a user's own skill shadows the group's, the group's the recipe's.
      } catch (err) {
        if (!lenient) throw err;
        opts.warn?.(`skipped the skill in ${path.join(root.dir, entry)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
  return [...skills.values()].map(({ lenient: _, ...s }) => s);
}

/** The skill in one directory, null when it has none (or path_scope.deny covers its SKILL.md); `at` names its name's place. */
async function loadOne(given: string, denies: (real: string) => boolean): Promise<(Skill & { at: string }) | null> {
  const dir = await realpath(given);
  const file = path.join(dir, 'SKILL.md');
  const skillMd = await skillMdWithin(dir, file);
  if (skillMd === null || denies(skillMd)) return null; // no SKILL.md: not a skill; a denied one: not offered
  // Imported here: the front matter's schema (zod) is evaluated only when there is a skill.
  const meta = await (await import('./front-matter.ts')).readSkillMeta(skillMd);
  if (!meta) return null;
  const files = (await listFiles(dir)).filter((rel) => !denies(path.join(dir, rel)));
  return { name: meta.name, description: meta.description, dir, skillMd, files, at: `${file}:${meta.nameAt}` };
}

/**
 * The real path of a skill's SKILL.md, null when there is none. A SKILL.md that
 * is a symlink must lead to a file inside the skill's own directory: its front
 * matter becomes the skill's description, so a link to /etc/passwd or another
 * project's file would put that file in front of the model.
 */
async function skillMdWithin(dir: string, file: string): Promise<string | null> {
  let st;
  try {
    st = await lstat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!st.isSymbolicLink()) return file;
  const real = await realpath(file).catch(() => null);
  if (real === null) throw new SkillError(`${file}: SKILL.md is a symlink that leads nowhere (dangling or a loop)`);
  if (!real.startsWith(`${dir}/`)) {
    throw new SkillError(`${file}: SKILL.md is a symlink to ${real}, outside the skill's directory; make it a regular file in ${dir}`);
  }
  return real;
}

/** Regular files under the skill's directory (symlinks are not followed, dot files skipped), at most MAX_FILES. */
async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await readdirEntries(path.join(dir, rel))) {
      if (out.length >= MAX_FILES || e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile() && r !== 'SKILL.md') out.push(r);
    }
  };
  await walk('');
  return out.sort();
}

/**
 * Where a file of a skill is, for the skill tool to open (with O_NOFOLLOW and a
 * check of the descriptor): only SKILL.md and the files listed at start-up,
 * which are regular files inside the skill's directory that path_scope.deny
 * does not cover.
 */
export function skillFilePath(skill: Skill, rel: string): string {
  if (rel === 'SKILL.md') return skill.skillMd;
  if (!skill.files.includes(rel)) {
    throw new SkillError(`skill ${skill.name} has no file "${rel.slice(0, 200)}"; its files: ${skill.files.join(', ') || '(none)'}`);
  }
  return path.join(skill.dir, rel);
}

/**
 * What golem's ListSkills shows for a skill: the first paragraph of its SKILL.md after the
 * front matter, headings skipped, its lines joined by spaces (golem's firstParagraph).
 */
export function firstParagraph(md: string): string {
  let body = md;
  const open = /^---[ \t]*\r?\n/.exec(md);
  if (open) {
    const close = /^---[ \t]*\r?$/m.exec(md.slice(open[0].length));
    body = close ? md.slice(open[0].length + close.index + close[0].length) : '';
  }
  const out: string[] = [];
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      if (out.length > 0) break;
      continue;
    }
    if (trimmed.startsWith('#')) continue;
    out.push(trimmed);
  }
  return out.join(' ');
}
