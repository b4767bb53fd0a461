import type { AnyTool } from '../tool.ts';
import { bashTool } from './bash.ts';
import { terminalKillTool } from './terminal-kill.ts';
import { terminalOutputTool } from './terminal-output.ts';
import { terminalWriteTool } from './terminal-write.ts';
import { waitJoinTool } from './wait-join.ts';

/** The shell family: bash and the tools for its background terminals (they need bash). */
export const tools: readonly AnyTool[] = [bashTool, terminalOutputTool, terminalWriteTool, terminalKillTool, waitJoinTool];
