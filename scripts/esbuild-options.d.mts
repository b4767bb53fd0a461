import type { BuildOptions } from 'esbuild';
export const root: string;
export function esbuildOptions(entry: string, outfile: string): Promise<BuildOptions & { metafile: true }>;
export function buildBundle(
  entry: string,
  outfile: string,
  overrides?: BuildOptions,
  chunksFile?: string,
): Promise<import('esbuild').BuildResult<{ metafile: true }>>;
export const CLI_FILE: string;
export const cliAsSibling: import('esbuild').Plugin;
export const CHUNKS_FILE: string;
