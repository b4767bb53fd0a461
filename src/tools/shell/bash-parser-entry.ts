// tree-sitter and its bash grammar (WebAssembly), bundled apart and embedded as
// data (scripts/bundle/embedded.mjs): loaded on the first bash call that needs a parse.
import bashGrammar from '@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm';
import runtime from 'web-tree-sitter/web-tree-sitter.wasm';

// The CommonJS build: the ESM one locates itself through import.meta.url, which a
// bundled CommonJS chunk does not have.
const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');

export async function createBashParser(): Promise<import('web-tree-sitter').Parser> {
  await Parser.init({ wasmBinary: runtime });
  const bash = await Language.load(bashGrammar);
  const parser = new Parser();
  parser.setLanguage(bash);
  return parser;
}
