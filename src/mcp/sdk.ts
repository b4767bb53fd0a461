import mcpChunk from 'virtual:mcp-chunk';
import { loadEmbeddedModule } from '../startup/embedded.ts';

export type Sdk = typeof import('./sdk-entry.ts');
let sdk: Promise<Sdk> | undefined;

/** The MCP SDK, from its embedded chunk (loaded on first use). */
export const loadSdk = () => (sdk ??= loadEmbeddedModule<Sdk>(mcpChunk, 'mcp.cjs'));
