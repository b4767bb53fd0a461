import type { AnyTool } from '../tool.ts';
import { jsonQueryTool } from './json-query.ts';
import { retrieveRawTool } from './retrieve-raw.ts';

/** The data family: query JSON, and get back what a digest left out. */
export const tools: readonly AnyTool[] = [jsonQueryTool, retrieveRawTool];
