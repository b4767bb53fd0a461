export const TOOL_FAMILY: string;
export function toolFamilyFiles(dir: string): string[];
export function toolFamilyModule(dir: string): string;
export function toolFamilyLazyModule(
  dir: string,
  heads: import('./tool-heads.mjs').ToolHeads,
  headModule: string,
  opts?: { bodies?: boolean },
): string;
