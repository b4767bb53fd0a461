// tree-sitter and the grammars view_file_outline parses with (WebAssembly), bundled
// apart and embedded as data (scripts/bundle/embedded.mjs): nothing here loads until the
// first outline, and each grammar is instantiated only when a file needs it.
import bashGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm';
import cGrammar from 'tree-sitter-c/tree-sitter-c.wasm';
import cppGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm';
import goGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm';
import javaGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm';
import javascriptGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm';
import pythonGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm';
import rustGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm';
import tsxGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm';
import typescriptGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm';
import runtime from 'web-tree-sitter/web-tree-sitter.wasm';

// The CommonJS build: the ESM one locates itself through import.meta.url, which a
// bundled CommonJS chunk does not have.
const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');

const GRAMMARS = {
  bash: bashGrammar,
  c: cGrammar,
  cpp: cppGrammar,
  go: goGrammar,
  java: javaGrammar,
  javascript: javascriptGrammar,
  python: pythonGrammar,
  rust: rustGrammar,
  tsx: tsxGrammar,
  typescript: typescriptGrammar,
} as const;

export type GrammarId = keyof typeof GRAMMARS;

let ready: Promise<void> | undefined;
const languages = new Map<GrammarId, Promise<import('web-tree-sitter').Language>>();

/** A fresh parser for one grammar; the runtime and the grammar are loaded once. */
export async function createOutlineParser(id: GrammarId): Promise<import('web-tree-sitter').Parser> {
  ready ??= Parser.init({ wasmBinary: runtime });
  await ready;
  let language = languages.get(id);
  if (!language) {
    language = Language.load(GRAMMARS[id]);
    languages.set(id, language);
  }
  const parser = new Parser();
  parser.setLanguage(await language);
  return parser;
}
