import type { AnyTool } from '../tool.ts';
import { waitAndVerifyTool } from './wait-and-verify.ts';

/** The verify family: poll a read-only tool until a condition holds. */
export const tools: readonly AnyTool[] = [waitAndVerifyTool];
