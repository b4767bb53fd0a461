import type { AnyTool } from '../tool.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';

/** The search family: find files by name, search their contents. */
export const tools: readonly AnyTool[] = [globTool, grepTool];
