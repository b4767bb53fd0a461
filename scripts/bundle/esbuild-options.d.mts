import type { BuildOptions } from 'esbuild';
import type { ToolHeads } from './tool-heads.mjs';
export const root: string;
export function esbuildOptions(
  entry: string,
  outfile: string,
  opts?: { toolHeads?: ToolHeads; listing?: boolean },
): Promise<BuildOptions & { metafile: true }>;
export function buildBundle(
  entry: string,
  outfile: string,
  overrides?: BuildOptions,
  chunksFile?: string,
  toolHeads?: ToolHeads,
  opts?: { writeChunks?: boolean },
): Promise<import('esbuild').BuildResult<{ metafile: true }> & { usedChunks: string[] }>;
export function lazyBuiltinModule(id: string): string;
export const CLI_FILE: string;
export const TOOLS_FILE: string;
export function entryOptions<T extends BuildOptions>(options: T): T;
export function cliScriptOptions<T extends BuildOptions>(options: T): T;
export function finishCliScript(file: string, result: import('esbuild').BuildResult<{ metafile: true }>): Promise<void>;
export const CHUNKS_FILE: string;
