import type { Plugin } from 'esbuild';

/** pino/lib/tools.js with isMainThread read on use; throws when pino changed what it edits. */
export function leanPinoTools(source: string, file?: string): string;
/** The esbuild plugin: thread-stream refuses, sonic-boom's assert and pino's isMainThread load on use. */
export const pinoLean: Plugin;
