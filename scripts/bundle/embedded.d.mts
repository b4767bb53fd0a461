export const EMBEDDED: Record<string, string>;
export function embeddedSource(id: string): Promise<string>;
export function embeddedModule(id: string): Promise<string>;
export function embeddedBundleModule(id: string): string;
export function embeddedTrailer(ids: string[]): Promise<string>;
