// The YAML parser, bundled apart and embedded as data (scripts/embedded.mjs):
// loaded only when a recipe is read.
export { isMap, isScalar, LineCounter, parse, parseDocument, visit } from 'yaml';
