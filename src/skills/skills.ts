import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readSkillMeta } from './front-matter.ts';

/** A runbook: a directory with SKILL.md (front matter: name, description) and reference files. */
export interface Skill {
  name: string;
  description: string;
  /** The skill's directory, symlinks resolved. */
  dir: string;
  /** Files beside SKILL.md, relative to dir (references/crashloop.md …). */
  files: string[];
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
export async function loadSkills(dirs: readonly string[]): Promise<Skill[]> {
  const skills = new Map<string, Skill>();
  for (const root of dirs) {
    let entries: string[];
    try {
      entries = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries.sort()) {
      const dir = await realpath(path.join(root, entry));
      const file = path.join(dir, 'SKILL.md');
      const meta = await readSkillMeta(file);
      if (!meta) continue; // a directory without SKILL.md is not a skill
      if (skills.has(meta.name))
        throw new SkillError(`${file}:${meta.nameAt}: a skill named "${meta.name}" is already loaded from ${skills.get(meta.name)!.dir}`);
      skills.set(meta.name, { name: meta.name, description: meta.description, dir, files: await listFiles(dir) });
    }
  }
  return [...skills.values()];
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      if (out.length >= MAX_FILES || e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else if (e.isFile() && r !== 'SKILL.md') out.push(r);
    }
  };
  await walk('');
  return out.sort();
}

/** A file of a skill, refusing anything that resolves outside the skill's directory. */
export async function readSkillFile(skill: Skill, rel: string, maxBytes: number): Promise<string> {
  if (!skill.files.includes(rel) && rel !== 'SKILL.md') {
    throw new SkillError(`skill ${skill.name} has no file "${rel}"; its files: ${skill.files.join(', ') || '(none)'}`);
  }
  const real = await realpath(path.join(skill.dir, rel));
  if (!real.startsWith(`${skill.dir}${path.sep}`)) throw new SkillError(`"${rel}" leads outside the skill's directory`);
  if ((await stat(real)).size > maxBytes) throw new SkillError(`"${rel}" is larger than ${maxBytes} bytes`);
  return readFile(real, 'utf8');
}
