/**
 * The port the system prompt reads the user's memory index through (agent/instructions.ts):
 * the memory family fills it (`memoryIndex` in ToolServices), the agent layer reads it, and
 * neither imports the other.
 */
export interface MemoryIndex {
  /** The index (MEMORY.md) as the prompt carries it, already bounded; undefined when there is none yet. */
  read(): Promise<{ readonly file: string; readonly text: string; readonly cut: boolean } | undefined>;
}

declare module './services.ts' {
  interface ToolServices {
    /** The asking user's memory index, for the system prompt; present when a memory tool is on and the user has a home. */
    readonly memoryIndex?: MemoryIndex | undefined;
  }
}
