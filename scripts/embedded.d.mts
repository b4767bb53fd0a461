export const EMBEDDED: Record<string, string>;
export function embeddedSource(id: string): Promise<string>;
export function embeddedModule(id: string): Promise<string>;
