import type { BuildOptions } from 'esbuild';
import type { ToolHeads } from './tool-heads.mjs';
export const root: string;
export function esbuildOptions(
  entry: string,
  outfile: string,
  opts?: { toolHeads?: ToolHeads },
): Promise<BuildOptions & { metafile: true }>;
export function buildBundle(
  entry: string,
  outfile: string,
  overrides?: BuildOptions,
  chunksFile?: string,
  toolHeads?: ToolHeads,
): Promise<import('esbuild').BuildResult<{ metafile: true }>>;
export function lazyBuiltinModule(id: string): string;
export const CLI_FILE: string;
export const cliAsSibling: import('esbuild').Plugin;
export const CHUNKS_FILE: string;
