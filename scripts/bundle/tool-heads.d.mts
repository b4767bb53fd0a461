import type { ToolHead } from '../../src/tools/framework/tool-head.ts';
/** By absolute tool file: the export that is the tool, and its head. */
export type ToolHeads = Record<string, { export: string; head: ToolHead }>;
export function toolFamilies(root: string): Array<{ family: string; files: string[] }>;
/** The members registering a tool with this head runs as code (they come from its head module). */
export function headModuleKeys(head: ToolHead): string[];
/** The head with `keys` answered by its head module. */
export function withHeadModule(head: ToolHead, keys: readonly string[]): ToolHead;
export function headModulesReachingZod(
  root: string,
  esbuildOptions: typeof import('./esbuild-options.mjs').esbuildOptions,
  modules: ReadonlyArray<{ file: string; keys: readonly string[] }>,
): Promise<Array<{ file: string; reason: string }>>;
export function computeToolHeads(root: string, esbuildOptions: typeof import('./esbuild-options.mjs').esbuildOptions): Promise<ToolHeads>;
