import { DIGEST_THRESHOLD_BYTES, digestValue, jsonSize } from './digest.ts';
import type { JsonObject } from '../../core/json.ts';
import { textStructure } from './digest-text.ts';

/** Where the raw payload behind a digest is kept for retrieve_raw (the session's event log). */
export interface RawStore {
  /**
   * Keep a payload; returns its call_id, `raw_<n>` numbered within the session —
   * predictable on purpose, so a replay script can name the digest it retrieves.
   */
  put(tool: string, rawJson: string): string;
  get(callId: string): { tool: string; rawJson: string } | undefined;
}

/** Room left in the threshold for the envelope around the digest (call_id, sizes, note). */
const ENVELOPE_BYTES = 420;

const NOTE =
  'Structural digest of a large result: long strings are cut (…<truncated, N chars>), long arrays keep their first and last items ' +
  '(_summary with total and dropped), deep subtrees are elided; identifiers, names, statuses and paths are kept whole. ' +
  'A text table is given as its rows keyed by the header, with per-column counts over every row and the rows holding rare values; YAML as its value. ' +
  'Treat it as authoritative. Only if a field you need is marked truncated, call retrieve_raw with this call_id ' +
  '(it puts the whole payload back into context), or narrow the call instead.';

/**
 * The digest layer: a result above the threshold (8,000 bytes) is replaced by a
 * structural digest plus a call_id, and the raw result goes to the store. Below
 * the threshold the result is untouched, and a digest that came out no smaller
 * than the original is discarded. Only as safe as retrieve_raw can undo it — so
 * it exists only where a store does.
 */
export class DigestWrap {
  private readonly store: RawStore;
  readonly threshold: number;

  // Plain fields, not parameter properties: the benchmark runs this file with Node's type stripping.
  constructor(store: RawStore, threshold = DIGEST_THRESHOLD_BYTES) {
    this.store = store;
    this.threshold = threshold;
  }

  /** The size check alone: the exact size at or below the threshold, else a figure above it. */
  size(result: JsonObject): number {
    return jsonSize(result, this.threshold);
  }

  /** The digested result, or null to show the result as it is; `lowerBound` is `size(result)` when the caller has it. */
  async wrap(tool: string, result: JsonObject, lowerBound = this.size(result)): Promise<{ shown: JsonObject; callId: string } | null> {
    if (lowerBound <= this.threshold) return null;
    // Text: an MCP server's table or YAML is parsed and digested as its structure (a string cut to
    // 200 characters would lose the rows); other prose is shown as it is, under the output caps.
    const value = isProse(result) ? await textStructure(result.text as string) : result;
    if (value === undefined) return null;
    const digest = digestValue(value, this.threshold - ENVELOPE_BYTES);
    // Compared with the real size: `lowerBound` may stop counting just past the threshold.
    if (digest.bytes >= jsonSize(result, digest.bytes)) return null;
    const rawJson = JSON.stringify(result);
    let callId: string;
    try {
      callId = this.store.put(tool, rawJson);
    } catch {
      // The store could not keep the payload (a full disk: the event log reports that
      // itself): a digest without its raw would be a lossy answer, so show it capped.
      return null;
    }
    return {
      callId,
      shown: {
        digest: digest.value,
        digested: true,
        call_id: callId,
        raw_bytes: Buffer.byteLength(rawJson),
        digest_bytes: digest.bytes,
        note: NOTE,
      },
    };
  }

  retrieve(callId: string): { tool: string; rawJson: string } | undefined {
    return this.store.get(callId);
  }
}

/** A result that is one text and not JSON. */
function isProse(result: JsonObject): boolean {
  const keys = Object.keys(result);
  if (keys.length !== 1 || typeof result.text !== 'string') return false;
  const t = result.text.trimStart();
  return !(t.startsWith('{') || t.startsWith('['));
}
