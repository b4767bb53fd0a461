// The YAML parser, bundled apart and embedded as data (scripts/bundle/embedded.mjs):
// loaded only when a recipe is read.
export { isAlias, isCollection, isMap, isPair, isScalar, isSeq, Lexer, LineCounter, parseDocument, visit } from 'yaml';
