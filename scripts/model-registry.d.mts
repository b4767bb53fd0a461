export const CATALOG_PROVIDERS: Record<string, string>;
export const registryFile: string;
export function buildRegistry(): Promise<unknown>;
