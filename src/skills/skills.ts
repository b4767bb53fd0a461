import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import yamlChunk from 'virtual:yaml-chunk';
import { loadEmbeddedModule } from '../embedded.ts';

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
 * SKILL.md). A directory that does not exist is skipped; a SKILL.md without a
 * name and description, or two skills with one name, is an error naming the file.
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
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue; // a directory without SKILL.md is not a skill
      }
      const meta = await frontMatter(text, file);
      if (skills.has(meta.name))
        throw new SkillError(`${file}: a skill named "${meta.name}" is already loaded from ${skills.get(meta.name)!.dir}`);
      skills.set(meta.name, { ...meta, dir, files: await listFiles(dir) });
    }
  }
  return [...skills.values()];
}

async function frontMatter(text: string, file: string): Promise<{ name: string; description: string }> {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (!m) throw new SkillError(`${file}: SKILL.md must start with front matter (--- name: … description: … ---)`);
  const { parse } = await loadEmbeddedModule<typeof import('../config/yaml-entry.ts')>(yamlChunk, 'yaml.cjs');
  let data: unknown;
  try {
    data = parse(m[1]!);
  } catch (err) {
    throw new SkillError(`${file}: front matter is not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(d.name)) {
    throw new SkillError(`${file}: front matter needs name: lower-case letters, digits and -, e.g. k8s-triage`);
  }
  if (typeof d.description !== 'string' || d.description.trim() === '') throw new SkillError(`${file}: front matter needs a description`);
  return { name: d.name, description: d.description.trim().replace(/\s+/g, ' ') };
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
