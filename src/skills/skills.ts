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
}

export class SkillError extends Error {
  override readonly name = 'SkillError';
}

const MAX_FILES = 200;

/**
 * Every skill under the given directories (each child directory holding a
 * SKILL.md). A directory that does not exist is skipped; a SKILL.md that cannot
 * be used (front-matter.ts: bounded, FILE:LINE:COL) or two skills with one name
 * is an error naming the file: a runbook that silently went missing would leave
 * the model guessing.
 */
export async function loadSkills(dirs: readonly string[], opts: LoadSkillsOptions = {}): Promise<Skill[]> {
  const denies = opts.denies ?? (() => false);
  const skills = new Map<string, Skill>();
  for (const root of dirs) {
    let entries: string[];
    try {
      entries = (await readdirEntries(root)).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries.sort()) {
      const dir = await realpath(path.join(root, entry));
      const file = path.join(dir, 'SKILL.md');
      const skillMd = await skillMdWithin(dir, file);
      if (skillMd === null || denies(skillMd)) continue; // no SKILL.md: not a skill; a denied one: not offered
      // Imported here: the front matter's schema (zod) is evaluated only when there is a skill.
      const meta = await (await import('./front-matter.ts')).readSkillMeta(skillMd);
      if (!meta) continue;
      if (skills.has(meta.name))
        throw new SkillError(`${file}:${meta.nameAt}: a skill named "${meta.name}" is already loaded from ${skills.get(meta.name)!.dir}`);
      const files = (await listFiles(dir)).filter((rel) => !denies(path.join(dir, rel)));
      skills.set(meta.name, { name: meta.name, description: meta.description, dir, skillMd, files });
    }
  }
  return [...skills.values()];
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
