/** What every provider accepts as a function name (Gemini, OpenAI and Anthropic agree on this subset). */
export const MODEL_NAME_LIMIT = 64;
const LEGAL = /^[A-Za-z0-9_-]+$/;

/** The canonical name of an MCP tool: what permission rules and recipes say. */
export const canonicalName = (server: string, tool: string) => `mcp.${server}.${tool}`;

/**
 * `n` hex digits of FNV-1a over `s`, 8 per seed. Not cryptographic, and needs not be:
 * collisions are caught by `taken` below. Pure JS, because node:crypto costs every
 * start-up ~10 ms to import.
 */
function hash(s: string, n: number): string {
  let out = '';
  for (let seed = 0; out.length < n; seed++) {
    let h = (0x811c9dc5 ^ Math.imul(seed, 0x9e3779b1)) >>> 0;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, n);
}

/**
 * The name the model sees for `mcp.<server>.<tool>`: `<server>_<tool>` when that is
 * already legal and short enough. Otherwise illegal characters become `_`, the
 * name is cut to fit, and a hash of the canonical name is appended — so the name
 * depends only on the tool itself (stable across list_changed) and two tools whose
 * names differ only in illegal characters still differ. `taken` settles the rare
 * remaining collision (with a built-in, or a legal name that happens to look like
 * a hashed one) by lengthening the hash.
 */
export function modelFacingName(server: string, tool: string, taken: (name: string) => boolean): string {
  const plain = `${server}_${tool}`;
  const canonical = canonicalName(server, tool);
  if (LEGAL.test(plain) && plain.length <= MODEL_NAME_LIMIT && !taken(plain)) return plain;
  const cleaned = plain.replace(/[^A-Za-z0-9_-]/g, '_');
  for (let n = 8; n <= 32; n += 4) {
    const suffix = `_${hash(canonical, n)}`;
    const name = cleaned.slice(0, MODEL_NAME_LIMIT - suffix.length) + suffix;
    if (!taken(name)) return name;
  }
  throw new Error(`cannot give ${canonical} a unique model-facing name`);
}
