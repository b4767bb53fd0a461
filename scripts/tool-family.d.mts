export const TOOL_FAMILY: string;
export function toolFamilyFiles(dir: string): string[];
export function toolFamilyModule(dir: string): string;
