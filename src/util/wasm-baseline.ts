import { setFlagsFromString } from 'node:v8';

/**
 * Keep WebAssembly on V8's baseline compiler (Liftoff): no tier-up to TurboFan.
 *
 * tree-sitter's bash grammar has one 160 KB lexer function. A few dozen words of
 * shell make it hot, V8 recompiles it with TurboFan in the background, and that
 * one compilation takes ~700 MB of compiler memory for half a second: every
 * bash call peaked at ~580 MB RSS (a refused one too — the denylist parses
 * first) against ~80 MB for read_file. Liftoff code parses a command line as
 * fast here (200 parses of a 2 KB line: 170 ms either way), and jq-wasm's
 * queries measured the same within noise.
 *
 * V8 flags are process-wide and read when a module is compiled, so this runs
 * first thing, before any WebAssembly exists.
 */
export function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
