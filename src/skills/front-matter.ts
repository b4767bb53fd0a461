import * as z from 'zod/v4';
import { SKILL_NAME, SKILL_NAME_RULE } from './skill-name.ts';
import { lineCol, parseConfigText, RecipeError } from '../config/parse-config.ts';
import { ConfigFileError, formatBytes, readConfigHead, type ConfigKind } from '../config/read-config-file.ts';

/**
 * A SKILL.md's front matter — the only part of it read at start-up (the body is
 * served by the skill tool on request, under its own cap). It must close within
 * MAX_FRONT_MATTER_BYTES: a name and a 1024-character description fit many times
 * over, and a garbage or huge SKILL.md then costs one 16 KiB read instead of a
 * whole-file read and a YAML parse of megabytes, at every start.
 */
export const MAX_FRONT_MATTER_BYTES = 16 * 1024;

/** The Agent Skills limit: the description is shown to the model for every installed skill. */
export const MAX_DESCRIPTION_CHARS = 1024;

const SKILL_FILE: ConfigKind = {
  noun: 'a SKILL.md',
  maxBytes: MAX_FRONT_MATTER_BYTES,
  hint: 'make it a regular text file',
};

const required = (what: string) => (issue: { input?: unknown }) => (issue.input === undefined ? `required: ${what}` : `${what}, as text`);

/**
 * A skill's name: lower-case letters, digits and `-`, at most 64. Safe as one path segment
 * (no `/`, never `.` or `..`, never empty), which is why the skill tools take it as a folder name.
 */
export { SKILL_NAME, SKILL_NAME_RULE } from './skill-name.ts';

const frontMatterSchema = z.looseObject({
  name: z.string({ error: required('the skill’s name') }).regex(SKILL_NAME, SKILL_NAME_RULE),
  description: z
    .string({ error: required('a description saying when to use the skill') })
    .trim()
    .min(1, 'required: a description saying when to use the skill')
    .max(
      MAX_DESCRIPTION_CHARS,
      `at most ${MAX_DESCRIPTION_CHARS} characters (it is shown to the model for every skill); move detail into the body`,
    ),
});

export interface SkillMeta {
  name: string;
  description: string;
  /** `line:col` of the name, for a message about it. */
  nameAt: string;
}

/**
 * The name and description of the SKILL.md at `file`; null when there is no
 * such file (the directory is not a skill). Anything else wrong with it is a
 * RecipeError with FILE:LINE:COL.
 */
export async function readSkillMeta(file: string): Promise<SkillMeta | null> {
  let head: { text: string; complete: boolean };
  try {
    // The closing line may follow the limit by a few bytes.
    head = await readConfigHead(file, SKILL_FILE, MAX_FRONT_MATTER_BYTES + 8);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    if (err.code === 'ENOENT') return null;
    throw new RecipeError([err.message]);
  }
  return skillMetaOf(head.text, head.complete, file);
}

/**
 * The name and description in a SKILL.md's text (`complete`: the whole file, not its head);
 * a RecipeError with FILE:LINE:COL when they are not usable. WriteSkillFile checks a SKILL.md
 * with it before writing, so what it writes loads at the next start.
 */
export async function skillMetaOf(text: string, complete: boolean, file: string): Promise<SkillMeta> {
  const yamlText = frontMatterText(text, complete, file);
  const meta = await parseConfigText(yamlText, file, frontMatterSchema, 'front matter is a mapping (name: …, description: …)');
  const nameLine = /^name[ \t]*:/m.exec(yamlText);
  return {
    name: meta.name,
    description: meta.description.replace(/\s+/g, ' '),
    nameAt: nameLine ? lineCol(yamlText, nameLine.index) : '1:1',
  };
}

/**
 * The YAML between the opening and the closing `---` lines, with the opening
 * line blanked so that every line and column the parser reports is the file's own.
 */
function frontMatterText(text: string, complete: boolean, file: string): string {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) {
    throw new RecipeError([`${file}:1:1: SKILL.md must start with front matter: a --- line, name: and description:, then a --- line`]);
  }
  const close = /^---[ \t]*\r?$/gm;
  close.lastIndex = open[0].length;
  const end = close.exec(text);
  if (!end || end.index > MAX_FRONT_MATTER_BYTES) {
    throw new RecipeError([
      complete && !end
        ? `${file}:1:1: the front matter opened here is never closed by a --- line`
        : `${file}:1:1: the front matter is not closed by a --- line within ${formatBytes(MAX_FRONT_MATTER_BYTES)}; it holds only name and description (the runbook goes below it)`,
    ]);
  }
  return `${'\n'}${text.slice(open[0].length, end.index)}`;
}
