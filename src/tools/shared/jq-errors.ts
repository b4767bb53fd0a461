// jq's failures as sentences, for json_query and wait_and_verify's expect_jq. The
// system-failure sentences every layer shares are in util/failure-sentences.ts.

/**
 * Why a jq worker died rather than answered: jq-wasm has no error for running out
 * of memory or stack — the WebAssembly instance traps (`memory access out of
 * bounds`, `Aborted()`, `unreachable`) or the worker hits its heap limit.
 */
export function jqCrashSentence(err: { message?: string; code?: unknown }, limits: { wasmMb: number; heapMb: number }): string {
  const text = `${String(err.code ?? '')} ${err.message ?? ''}`;
  const narrow = 'narrow it: select less before building arrays or strings, and bound generators such as repeat or range with limit(n; …)';
  if (/ERR_WORKER_OUT_OF_MEMORY/.test(text))
    return `the jq expression's output used more memory than allowed (${limits.heapMb} MB); ${narrow}`;
  if (/out of memory|memory access out of bounds|Aborted\(|Cannot enlarge memory|memory exhausted|allocation failed/i.test(text)) {
    return `the jq expression used more memory than jq is allowed (${limits.wasmMb} MB); ${narrow}`;
  }
  if (/Maximum call stack size exceeded|stack overflow|call stack exhausted|too much recursion/i.test(text)) {
    return 'the jq expression recursed too deeply; give the recursion a base case, or bound it with limit(n; …)';
  }
  const first = (err.message ?? '').split('\n')[0]!.slice(0, 200);
  return `jq stopped with an internal error on this expression (${first || 'no message'}); simplify the expression`;
}

/**
 * jq's own error text, bounded: a compile error quotes the offending source line,
 * which for a long one-line program is the whole program. A quoted line past
 * `width` is cut to a window around jq's caret (kept under the same character);
 * any other long line is cut at twice that.
 */
export function tidyJqMessage(stderr: string, width = 160): string {
  const lines = stderr.trim().split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const caret = lines[i + 1];
    if (line.length > width && caret !== undefined && /^\s*\^+\s*$/.test(caret)) {
      const at = caret.indexOf('^');
      const from = Math.max(0, at - Math.floor(width / 2));
      const shown = line.slice(from, from + width);
      out.push(`${from > 0 ? '…' : ''}${shown}${from + width < line.length ? '…' : ''}`, `${' '.repeat(at - from + (from > 0 ? 1 : 0))}^`);
      i += 1;
      continue;
    }
    out.push(line.length > width * 2 ? `${line.slice(0, width * 2)}… (${line.length} characters)` : line);
  }
  return out.join('\n');
}
