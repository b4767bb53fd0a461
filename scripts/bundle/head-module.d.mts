/** The definition's members registration calls, beyond the head's data (src/tools/framework/catalog.ts). */
export const REGISTRATION_KEYS: readonly string[];
export function headModuleId(file: string, keys: readonly string[]): string;
export function parseHeadModuleId(id: string): { file: string; keys: string[] } | undefined;
/** The head module of a tool file for `keys`, or why it cannot be made. */
export function headModule(
  source: string,
  keys: readonly string[],
  fileName?: string,
): { source: string; refused?: undefined } | { refused: string; source?: undefined };
