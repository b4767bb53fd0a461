/**
 * view_file_outline on one fixture per language: test/fixtures/outline/<fixture>.txt
 * is written into the workspace as <fixture> (the .txt keeps the type checker and the
 * linters off files that are deliberately broken), and the outline must equal
 * test/fixtures/outline/expected/<fixture>.outline exactly. A new case is one line.
 */
export interface OutlineCase {
  readonly fixture: string;
  readonly language: string;
  readonly analysis: 'parsed' | 'heuristic';
  /** The syntax_error_lines the result lists, when the file does not parse cleanly. */
  readonly errors?: readonly number[];
  /** false: syntax errors the parse did not recover from, so there is no outline at all. */
  readonly recovered?: boolean;
  /** A phrase the note must hold (a heuristic's caveat, a grammar used outside its language). */
  readonly note?: RegExp;
}

export const OUTLINE_CASES: readonly OutlineCase[] = [
  { fixture: 'sample.go', language: 'Go', analysis: 'parsed' },
  { fixture: 'sample.ts', language: 'TypeScript', analysis: 'parsed' },
  { fixture: 'sample.tsx', language: 'TSX', analysis: 'parsed' },
  { fixture: 'sample.js', language: 'JavaScript', analysis: 'parsed' },
  { fixture: 'sample.py', language: 'Python', analysis: 'parsed' },
  { fixture: 'sample.rs', language: 'Rust', analysis: 'parsed' },
  { fixture: 'Sample.java', language: 'Java', analysis: 'parsed' },
  { fixture: 'sample.sh', language: 'Bash', analysis: 'parsed' },
  { fixture: 'sample.cpp', language: 'C++', analysis: 'parsed' },
  // A header is C when it parses as C (clib.h names a parameter `new`), else C++ (shapes.h has a class template).
  { fixture: 'shapes.h', language: 'C++', analysis: 'parsed', note: /as C when it parses as C, else as C\+\+/ },
  { fixture: 'clib.h', language: 'C', analysis: 'parsed', note: /as C when it parses as C/ },
  { fixture: 'sample.c', language: 'C', analysis: 'parsed' },
  { fixture: 'decls.c', language: 'C', analysis: 'parsed' },
  // The C grammar reads a K&R definition as one function and `class` as a name (C++ read them as globals).
  { fixture: 'knr.c', language: 'C', analysis: 'parsed' },
  { fixture: 'sample.rb', language: 'Ruby', analysis: 'heuristic', note: /not a parse.*absence proves nothing/ },
  {
    fixture: 'broken-recovered.ts',
    language: 'TypeScript',
    analysis: 'parsed',
    errors: [7],
    recovered: true,
    note: /syntax errors on line 7.*recovered/,
  },
  {
    fixture: 'broken-unrecovered.ts',
    language: 'TypeScript',
    analysis: 'parsed',
    errors: [17],
    recovered: false,
    note: /starts on line 3.*did not recover/,
  },
  // A file cut off mid-declaration (a write in progress): what precedes the cut is outlined.
  { fixture: 'broken-tail.go', language: 'Go', analysis: 'parsed', errors: [11], recovered: true },
  { fixture: 'broken-garbage.cpp', language: 'C++', analysis: 'parsed', errors: [3], recovered: true },
  { fixture: 'broken-python.py', language: 'Python', analysis: 'parsed', errors: [4], recovered: true },
];
