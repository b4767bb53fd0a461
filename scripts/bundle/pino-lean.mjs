// pino as the bundle uses it (src/log.ts: a synchronous destination on fd 2, or a write
// function; never a transport) needs neither node:assert nor node:worker_threads, yet importing
// it loaded both: about 3 MiB of resident memory in a bare process that logs, about 1 MiB in an
// idle `watch`, which always logs (docs/benchmarks.md, issue 19). Three of its files are served differently
// in the bundle, each change checked against the file it replaces so that a pino upgrade that
// moves them fails the build instead of silently loading the built-ins again:
// - thread-stream (the worker thread behind pino.transport()) destructures Worker and requires
//   assert at import. A transport loads its target by file path, which a bundle cannot do, so
//   here it is a class whose constructor refuses, with the reason.
// - sonic-boom requires assert for one check of its file descriptor: a function that loads
//   node:assert on its first call.
// - pino's lib/tools.js destructures isMainThread at import, and reads it only for an
//   asynchronous destination: it is read on that use.
import { readFile } from 'node:fs/promises';

const THREAD_STREAM = `'use strict';
module.exports = class ThreadStream {
  constructor() {
    throw new Error('pino transports (worker threads) are not available in the core-agent bundle; log to a destination instead');
  }
};
`;

const LAZY_ASSERT = `'use strict';
let real;
module.exports = function assert(...args) {
  return (real ??= require('node:assert'))(...args);
};
`;

const TOOLS_EDITS = [
  [
    "const { isMainThread } = require('worker_threads')",
    "let workerThreads\nconst isMainThread = () => (workerThreads ??= require('worker_threads')).isMainThread",
  ],
  ['if (!opts.sync && isMainThread) {', 'if (!opts.sync && isMainThread()) {'],
];

/** pino/lib/tools.js with isMainThread read on use; throws when a pattern is not there exactly once. */
export function leanPinoTools(source, file = 'pino/lib/tools.js') {
  let out = source;
  for (const [from, to] of TOOLS_EDITS) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + from.length) >= 0) {
      throw new Error(`pino-lean: expected ${JSON.stringify(from)} once in ${file}; pino changed, update scripts/bundle/pino-lean.mjs`);
    }
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  // The declaration, its property read and the one use: any other read would be of a function.
  if (out.match(/\bisMainThread\b/g).length !== 3) {
    throw new Error(`pino-lean: ${file} reads isMainThread somewhere else; update scripts/bundle/pino-lean.mjs`);
  }
  return out;
}

const inPackage = (importer, name) => new RegExp(`[\\\\/]node_modules[\\\\/]${name}[\\\\/]`).test(importer);

export const pinoLean = {
  name: 'pino-lean',
  setup(b) {
    b.onResolve({ filter: /^thread-stream$/ }, (args) =>
      inPackage(args.importer, 'pino') ? { path: 'thread-stream', namespace: 'pino-lean' } : undefined,
    );
    b.onResolve({ filter: /^assert$/ }, (args) =>
      inPackage(args.importer, 'sonic-boom') ? { path: 'assert', namespace: 'pino-lean' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'pino-lean' }, (args) => ({
      contents: args.path === 'thread-stream' ? THREAD_STREAM : LAZY_ASSERT,
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]node_modules[\\/]pino[\\/]lib[\\/]tools\.js$/ }, async (args) => ({
      contents: leanPinoTools(await readFile(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};
