import type { FamilyServices } from '../framework/family.ts';
import type { MemoryIndex } from '../framework/memory-index.ts';
import type { MissingReasons } from '../framework/services.ts';
import { MEMORY_INDEX_FILE, MEMORY_INDEX_LIMITS } from './limits.ts';
import { MemoryStore } from './store.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The asking user's memory (`<home>/memories/`): the memory tools' one store. */
    readonly memoryStore?: MemoryStore | undefined;
  }
}

/** Memory is per user: rooted at the principal's home, so it exists only with a state directory. */
export const services: FamilyServices = ({ userHome, services: given }) => {
  if (userHome === undefined) return {};
  const store = new MemoryStore(userHome.memories, given.pendingWrites);
  return { memoryStore: store, memoryIndex: memoryIndex(store) };
};

export const missing: MissingReasons = {
  memoryStore: () => 'no state directory here, so no user home to keep memory in',
};

/** MEMORY.md for the system prompt: its first lines, cut at MEMORY_INDEX_LIMITS with a note saying so. */
export function memoryIndex(store: MemoryStore): MemoryIndex {
  return {
    async read() {
      let read;
      try {
        read = await store.read(MEMORY_INDEX_FILE);
      } catch {
        // A planted link or an oversized index is the tools' to report; the prompt goes without it.
        return undefined;
      }
      if (read.kind !== 'file' || read.text.trim() === '') return undefined;
      const { text, cut } = boundIndex(read.text);
      return { file: MEMORY_INDEX_FILE, text, cut };
    },
  };
}

/** At most MEMORY_INDEX_LIMITS.lines lines and .bytes bytes, cut on a line (or, for one long line, a character) boundary. */
export function boundIndex(full: string): { text: string; cut: boolean } {
  const lines = full.replace(/\s+$/, '').split('\n');
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, MEMORY_INDEX_LIMITS.lines)) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > MEMORY_INDEX_LIMITS.bytes) {
      if (kept.length === 0)
        kept.push(
          Buffer.from(line)
            .subarray(0, MEMORY_INDEX_LIMITS.bytes)
            .toString('utf8')
            .replace(/\uFFFD+$/, ''),
        );
      return { text: kept.join('\n'), cut: true };
    }
    kept.push(line);
    bytes += size;
  }
  return { text: kept.join('\n'), cut: lines.length > MEMORY_INDEX_LIMITS.lines };
}
