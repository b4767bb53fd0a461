import type { BuildOptions } from 'esbuild';
export const root: string;
export function esbuildOptions(entry: string, outfile: string): Promise<BuildOptions & { metafile: true }>;
