/**
 * The line scan for extensions with no grammar here. It reports lines, not
 * structure, and every result that carries it says so (HEURISTIC_NOTE).
 */
export interface HeuristicLanguage {
  readonly language: string;
  /** A trimmed line starting with one of these starts a declaration. */
  readonly prefixes: readonly string[];
}

export const HEURISTIC: Readonly<Record<string, HeuristicLanguage>> = {
  '.rb': {
    language: 'Ruby',
    prefixes: [
      'def ',
      'class ',
      'module ',
      'require ',
      'require_relative ',
      'attr_reader ',
      'attr_writer ',
      'attr_accessor ',
      'include ',
      'extend ',
    ],
  },
};

export const HEURISTIC_NOTE =
  'A line scan, not a parse: these are the lines that begin with a declaration keyword. ' +
  'A declaration written over several lines shows its first line only; a matching line inside a string, a comment or a heredoc is listed as if it were a declaration; ' +
  'nothing tells a top-level declaration from a nested one except the indentation, kept as written; ' +
  'and a declaration whose line starts otherwise (a method defined by define_method, a constant) is not listed, so an absence proves nothing. ' +
  'Read the lines themselves before relying on one.';

export function scanOutline(source: string, lang: HeuristicLanguage): string[] {
  const out: string[] = [];
  source.split('\n').forEach((raw, i) => {
    const line = raw.replace(/[ \t\r]+$/, '');
    const trimmed = line.trimStart();
    if (trimmed !== '' && lang.prefixes.some((p) => trimmed.startsWith(p))) out.push(`${String(i + 1).padStart(5)}  ${line}`);
  });
  return out;
}
