import type { ToolHead } from '../../src/tools/framework/tool-head.ts';
/** By absolute tool file: the export that is the tool, and its head. */
export type ToolHeads = Record<string, { export: string; head: ToolHead }>;
export function toolFamilies(root: string): Array<{ family: string; files: string[] }>;
export function computeToolHeads(root: string, esbuildOptions: typeof import('./esbuild-options.mjs').esbuildOptions): Promise<ToolHeads>;
