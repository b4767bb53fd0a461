/**
 * The CLI's script with its lazily evaluated modules' function declarations moved into their
 * wrappers, and its source map (v3 JSON) moved with them.
 */
export function deferModuleFunctions(code: string, mapJson: string): { code: string; map: string; moved: number; kept: number };
