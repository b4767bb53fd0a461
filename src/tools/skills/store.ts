import { lstat, mkdir, readdir, realpath, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { RecipeError } from '../../config/parse-config.ts';
import { SKILL_NAME, SKILL_NAME_RULE } from '../../skills/skill-name.ts';
import { firstParagraph, loadSkills, type Skill } from '../../skills/skills.ts';
import { quoteArg } from '../framework/error-text.ts';
import { ToolError } from '../framework/tool.ts';
import type { WriteJournal } from '../framework/services.ts';
import { openChecked, PinnedDir, replaceIn } from '../shared/safe-fs.ts';

/** Where a skill comes from: the principal's own folder first, then what is shared with it, then the project's and the recipe's. */
export type SkillScope = 'user' | 'group' | 'tenant' | 'workspace' | 'recipe';

export interface ScopedRoot {
  readonly dir: string;
  readonly scope: SkillScope;
}

export type ScopedSkill = Skill & { readonly scope: SkillScope };

/**
 * The bounds on what WriteSkillFile may store (golem has none). A skill is read whole by the
 * skill tool, so a file is held to what that tool serves (256 KiB); a skill to 1 MiB and 64
 * files; a path to 4 folders deep; a user to 200 skills. docs/golem.md lists them.
 */
export const SKILL_LIMITS = { fileBytes: 256 * 1024, skillBytes: 1024 * 1024, files: 64, depth: 4, skills: 200 } as const;

const SCOPE_WORDS: Record<SkillScope, string> = {
  user: 'yours',
  group: 'your group’s (shared, read-only)',
  tenant: 'your tenant’s (shared, read-only)',
  workspace: 'the workspace’s .agents/skills (read-only here)',
  recipe: 'the recipe’s (read-only here)',
};

let deleting = 0;

/**
 * The skills a run can see, in root order (the first root wins a name), read afresh at each
 * call so a skill written in this session is listed and served; and the principal's own root,
 * the only one written to. Every write goes through a pinned directory (safe-fs.ts): a symlink
 * planted anywhere in the user's skills folder is refused, never followed, and every file is
 * replaced atomically.
 */
export class SkillStore {
  constructor(
    readonly roots: readonly ScopedRoot[],
    private readonly opts: { denies?: ((real: string) => boolean) | undefined; only?: readonly string[] | undefined } = {},
  ) {}

  /** The same skills, only those named (a child agent's profile): nothing may be written through it. */
  only(names: readonly string[]): SkillStore {
    return new SkillStore(this.roots, { ...this.opts, only: names });
  }

  /** Every usable skill now, first root first; an unusable one is skipped (start-up warned about it). */
  async skills(): Promise<ScopedSkill[]> {
    const seen = new Map<string, ScopedSkill>();
    for (const root of this.roots) {
      const found = await loadSkills([{ dir: root.dir, lenient: true }], { denies: this.opts.denies }).catch(() => []);
      for (const s of found) if (!seen.has(s.name)) seen.set(s.name, { ...s, scope: root.scope });
    }
    const only = this.opts.only;
    return [...seen.values()].filter((s) => only === undefined || only.includes(s.name));
  }

  async find(name: string): Promise<ScopedSkill | undefined> {
    return (await this.skills()).find((s) => s.name === name);
  }

  /** golem's ListSkills: each skill's name, the first paragraph of its SKILL.md (else its front matter's description), and where it is from. */
  async list(): Promise<Array<{ name: string; description: string; from: SkillScope }>> {
    const out = [];
    for (const s of await this.skills()) {
      let text = '';
      const fh = await openChecked(s.skillMd).catch(() => undefined);
      if (fh) {
        try {
          const buf = Buffer.alloc(16 * 1024);
          const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
          text = buf.subarray(0, bytesRead).toString('utf8');
        } finally {
          await fh.close();
        }
      }
      out.push({ name: s.name, description: firstParagraph(text).slice(0, 1024) || s.description, from: s.scope });
    }
    return out;
  }

  /** Create or replace one file of one of the principal's own skills. */
  async write(skill: string, file: string, content: string, journal?: WriteJournal): Promise<{ created: boolean; bytes: number }> {
    checkSkillName(skill);
    const parts = checkFile(file);
    const bytes = Buffer.byteLength(content);
    if (bytes > SKILL_LIMITS.fileBytes)
      throw new ToolError(
        `content is ${bytes} bytes, above the ${SKILL_LIMITS.fileBytes}-byte limit for a skill file; split it into reference files`,
      );
    if (file === 'SKILL.md') await checkSkillMd(skill, content);
    const root = await this.pinOwnRoot(true);
    try {
      const existing = await lstatIn(root, skill);
      if (existing?.isSymbolicLink())
        throw new ToolError(`skill ${skill} in your skills folder is a symlink; refused, nothing was changed`);
      if (existing === undefined) {
        if (file !== 'SKILL.md')
          throw new ToolError(
            `skill ${skill} does not exist yet: write its SKILL.md first (front matter with name: ${skill} and a description), then its other files`,
          );
        const count = (await readdir(root.self, { withFileTypes: true })).filter((e) => e.isDirectory()).length;
        if (count >= SKILL_LIMITS.skills) throw new ToolError(`you have ${count} skills, the limit; delete one with DeleteSkill first`);
      }
      let dir = await childOf(root, skill, true);
      try {
        if (file !== 'SKILL.md' && (await lstatIn(dir, 'SKILL.md')) === undefined)
          throw new ToolError(`skill ${skill} has no SKILL.md: write it first, then its other files`);
        const usage = await usageOf(dir.self);
        for (const seg of parts.slice(0, -1)) {
          const next = await childOf(dir, seg, true).finally(() => dir.close());
          dir = next;
        }
        const name = parts[parts.length - 1]!;
        const before = await lstatIn(dir, name);
        if (before?.isSymbolicLink()) throw new ToolError(`skill ${skill}: ${quoteArg(file)} is a symlink; refused, nothing was changed`);
        if (before !== undefined && !before.isFile()) throw new ToolError(`skill ${skill}: ${quoteArg(file)} is a folder, not a file`);
        const files = usage.files + (before === undefined ? 1 : 0);
        const total = usage.bytes - (before?.size ?? 0) + bytes;
        if (files > SKILL_LIMITS.files)
          throw new ToolError(`skill ${skill} would hold ${files} files, above the limit of ${SKILL_LIMITS.files}`);
        if (total > SKILL_LIMITS.skillBytes)
          throw new ToolError(`skill ${skill} would hold ${total} bytes, above the ${SKILL_LIMITS.skillBytes}-byte limit for a skill`);
        await replaceIn(dir, name, content, before === undefined ? 0o600 : before.mode & 0o7777, journal);
        return { created: before === undefined, bytes };
      } finally {
        await dir.close();
      }
    } finally {
      await root.close();
    }
  }

  /** Remove one of the principal's own skills, whole: it disappears in one rename, then its files are removed. */
  async delete(skill: string): Promise<{ files: number }> {
    checkSkillName(skill);
    const root = await this.pinOwnRoot(false);
    try {
      const st = root === undefined ? undefined : await lstatIn(root, skill);
      if (root === undefined || st === undefined) {
        const elsewhere = (await this.skills()).find((s) => s.name === skill);
        if (elsewhere?.scope === 'user')
          throw new ToolError(`skill ${skill} is in your folder ${path.basename(elsewhere.dir)}; name the skill by its folder's name`);
        if (elsewhere !== undefined)
          throw new ToolError(`skill ${skill} is ${SCOPE_WORDS[elsewhere.scope]}; only your own skills can be deleted`);
        const own = (await this.skills()).filter((s) => s.scope === 'user').map((s) => s.name);
        throw new ToolError(`you have no skill named ${skill}; yours: ${own.join(', ') || '(none)'}`, 'not_found');
      }
      if (!st.isDirectory()) {
        await unlink(root.entry(skill)); // a link or a stray file where a skill would be: removed itself, never followed
        await root.sync();
        return { files: 0 };
      }
      const { files } = await usageOf(root.entry(skill));
      const gone = `.${skill}.${process.pid}.${(deleting++).toString(36)}.deleting`;
      await root.verify();
      await rename(root.entry(skill), root.entry(gone));
      await root.sync();
      await rm(root.entry(gone), { recursive: true, force: true });
      return { files };
    } finally {
      await root?.close();
    }
  }

  private ownRoot(): string {
    if (this.opts.only !== undefined) throw new ToolError('this agent may read the skills its profile names, not write them');
    const own = this.roots.find((r) => r.scope === 'user');
    if (own === undefined) throw new ToolError('there is no skills folder of your own in this run (no state directory)');
    return own.dir;
  }

  /** The principal's skills folder, opened and verified: never itself a symlink. Undefined when it does not exist and `create` is false. */
  private async pinOwnRoot(create: true): Promise<PinnedDir>;
  private async pinOwnRoot(create: false): Promise<PinnedDir | undefined>;
  private async pinOwnRoot(create: boolean): Promise<PinnedDir | undefined> {
    const dir = this.ownRoot();
    if (create) await mkdir(dir, { recursive: true, mode: 0o700 });
    const st = await lstat(dir).catch(() => undefined);
    if (st === undefined) return undefined;
    if (!st.isDirectory()) throw new ToolError(`your skills folder ${dir} is not a folder (a symlink?); refused`);
    return PinnedDir.open(path.join(await realpath(path.dirname(dir)), path.basename(dir)));
  }
}

/** A skill's name as the skill tools take it: one folder, by the SKILL.md name rule (so never empty, `.`, `..` or a path). */
export function checkSkillName(skill: string): void {
  if (skill === '') throw new ToolError('skill is empty: name one skill (nothing is done to every skill at once)');
  if (!SKILL_NAME.test(skill)) throw new ToolError(`skill ${quoteArg(skill)} is not a valid skill name (${SKILL_NAME_RULE})`);
}

/** A file inside a skill: relative, no `.`/`..`/empty segments, no hidden names, at most SKILL_LIMITS.depth folders deep. */
export function checkFile(file: string): string[] {
  const shown = quoteArg(file);
  if (file === '') throw new ToolError('file is empty: name a file inside the skill, e.g. SKILL.md or references/notes.md');
  if (file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file))
    throw new ToolError(`file ${shown} is absolute; give a path inside the skill's folder, e.g. references/notes.md`);
  const parts = file.split('/');
  if (file.includes('\\') || file.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..'))
    throw new ToolError(
      `file ${shown} must stay inside the skill's folder: a relative path without empty, . or .. parts, e.g. references/notes.md`,
    );
  if (parts.some((p) => p.startsWith('.')))
    throw new ToolError(`file ${shown} is hidden (a name starting with .); skills serve no hidden files`);
  if (parts.length > SKILL_LIMITS.depth + 1) throw new ToolError(`file ${shown} is more than ${SKILL_LIMITS.depth} folders deep`);
  return parts;
}

/** A SKILL.md that will load at the next start: front matter naming this skill, and a description. */
async function checkSkillMd(skill: string, content: string): Promise<void> {
  let name: string;
  try {
    // front-matter.ts imports zod: loaded on the first write, not by every start-up that lists the tools.
    const { skillMetaOf } = await import('../../skills/front-matter.ts');
    name = (await skillMetaOf(content, true, `${skill}/SKILL.md`)).name;
  } catch (err) {
    if (err instanceof RecipeError) throw new ToolError(`SKILL.md not written: ${err.message.slice(0, 600)}`);
    throw err;
  }
  if (name !== skill) throw new ToolError(`SKILL.md's front matter says name: ${name}, but the skill is ${skill}; make them the same`);
}

async function lstatIn(dir: PinnedDir, name: string) {
  try {
    return await lstat(dir.entry(name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** A subfolder of a pinned one, never through a symlink (O_NOFOLLOW), with the refusal in the skill tools' words. */
async function childOf(dir: PinnedDir, name: string, create: boolean): Promise<PinnedDir> {
  try {
    return await dir.child(name, create);
  } catch (err) {
    if (err instanceof ToolError && /symlink|not a directory/.test(err.message))
      throw new ToolError(`${name} in your skills folder is a symlink or not a folder; refused, nothing was changed`);
    throw err;
  }
}

/** The files in a skill folder and their bytes; symlinks are counted, never followed. */
async function usageOf(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (at: string) => {
    for (const e of await readdir(at, { withFileTypes: true })) {
      const p = path.join(at, e.name);
      if (e.isDirectory()) await walk(p);
      else {
        files++;
        bytes += (await lstat(p)).size;
      }
    }
  };
  await walk(dir);
  return { files, bytes };
}
