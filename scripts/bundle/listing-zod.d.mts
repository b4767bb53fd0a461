import type { Plugin } from 'esbuild';
export const ZOD_ENTRIES: Record<string, string>;
export const zodFromChunk: Plugin;
