// re2js, bundled apart and embedded as data (scripts/bundle/embedded.mjs): loaded on
// the first grep (it also builds large Unicode tables when it loads).
export { RE2JS } from 're2js';
