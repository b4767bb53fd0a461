import * as z from 'zod/v4';
import { skillFilePath, SkillError } from '../../skills/skills.ts';
import { fillDescription } from '../framework/describe.ts';
import { quoteArg } from '../framework/error-text.ts';
import { openChecked } from '../shared/safe-fs.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import template from './skill.md';
import { readSkillFileGolem } from './skill.golem.ts';

const MAX_BYTES = 256 * 1024;

/**
 * Read a skill — a runbook the operator installed — or one of its reference files.
 * The catalog of skills is in the description, so the model knows what exists
 * before it asks.
 */
export const skillTool = defineTool({
  name: 'skill',
  faces: [readSkillFileGolem],
  description: ({ services }) =>
    fillDescription(template, { skills: (services.skills ?? []).map((s) => `- \`${s.name}\`: ${s.description}`).join('\n') || '(none)' }),
  kind: 'read',
  needs: ['skillStore'],
  narrowHint: 'Read one reference file at a time.',
  args: z.strictObject({
    name: z.string().min(1).max(LIMITS.identifier).describe('The skill’s name, from the list above.'),
    file: z
      .string()
      .min(1)
      .max(LIMITS.path)
      .optional()
      .describe('A file of the skill (e.g. references/crashloopbackoff.md); default SKILL.md.'),
  }),
  async run(args, ctx) {
    // As they are now: a skill the user wrote in this session is served too (the first root wins a name).
    const skills = await ctx.services.skillStore.skills();
    const skill = skills.find((s) => s.name === args.name);
    if (!skill)
      throw new ToolError(
        `no skill named ${quoteArg(args.name)}; installed: ${skills.map((s) => s.name).join(', ') || '(none)'}`,
        'not_found',
      );
    const rel = args.file ?? 'SKILL.md';
    let real: string;
    try {
      real = skillFilePath(skill, rel);
    } catch (err) {
      if (err instanceof SkillError) throw new ToolError(err.message);
      throw err;
    }
    // A listed file that has become a symlink (or moved) since start-up is refused here.
    const fh = await openChecked(real).catch((err: unknown) => {
      if (err instanceof ToolError) throw new ToolError(`skill ${skill.name}: ${quoteArg(rel)} ${err.message.replace(`${real} `, '')}`);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new ToolError(`skill ${skill.name}: ${quoteArg(rel)} no longer exists`, 'not_found');
      throw err;
    });
    let content: string;
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new ToolError(`skill ${skill.name}: "${rel}" is not a regular file`);
      if (st.size > MAX_BYTES) throw new ToolError(`skill ${skill.name}: "${rel}" is larger than ${MAX_BYTES} bytes`);
      content = (await fh.readFile()).toString('utf8');
    } finally {
      await fh.close();
    }
    return { skill: skill.name, file: rel, content, ...(args.file ? {} : { files: skill.files }) };
  },
});
