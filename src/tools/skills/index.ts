import type { AnyTool } from '../tool.ts';
import { skillTool } from './skill.ts';

/** The skills family: the operator's runbooks. */
export const tools: readonly AnyTool[] = [skillTool];
