import path from 'node:path';

// Paths every start builds (the workspace, the files under its .agents/) without running them
// through Node's path normalization again when they are already normal. Each path.join or
// path.resolve walks its string character by character in JavaScript (node:path's
// normalizeString); a start's few dozen of them made V8 compile those functions with Maglev on
// a worker thread — 1.5–5 ms of CPU that a one-shot command like `tools list` never gets back
// (docs/benchmarks.md, as of issue 19). These return exactly what path.join / path.resolve
// return; test/startup/join-path.test.ts holds them equal over a matrix of inputs.

/**
 * An absolute POSIX path in normal form: no empty, `.` or `..` segment and no trailing slash
 * (or the root itself). What process.cwd(), realpath and path.join give. Checked by native
 * string searches, not a loop in JavaScript.
 */
export function isNormalAbsolute(p: string): boolean {
  if (p === '/') return true;
  return (
    path.sep === '/' &&
    p.startsWith('/') &&
    !p.endsWith('/') &&
    !p.includes('//') &&
    !p.includes('/./') &&
    !p.includes('/../') &&
    !p.endsWith('/.') &&
    !p.endsWith('/..')
  );
}

/** `path.resolve(dir)`: `dir` itself when it is already absolute and normal. */
export function resolveDir(dir: string): string {
  return isNormalAbsolute(dir) ? dir : path.resolve(dir);
}

/**
 * `path.join(dir, rel)`. `rel` is a relative path of plain segments the caller writes as a
 * constant (`.agents/config.yaml`); with `dir` absolute and normal the two are concatenated.
 */
export function joinUnder(dir: string, rel: string): string {
  if (!isNormalAbsolute(dir) || !isPlainRelative(rel)) return path.join(dir, rel);
  return dir === '/' ? `/${rel}` : `${dir}/${rel}`;
}

/** A relative path of plain segments: one that, put under the root, is absolute and normal. */
function isPlainRelative(rel: string): boolean {
  return rel.length > 0 && isNormalAbsolute(`/${rel}`);
}
