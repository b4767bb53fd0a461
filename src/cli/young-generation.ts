import { setFlagsFromString } from 'node:v8';

/** The long-lived daemons, idle most of their life: the commands that hold the young generation. */
const DAEMONS: ReadonlySet<string> = new Set(['watch', 'serve']);

/**
 * Whether this command line holds it. Not when NODE_COMPILE_CACHE is set (the image): Node
 * turned that cache on before any of core-agent ran, under the flags it started with, and V8
 * rejects code cached under other flags, so a flag changed now would cost every start its
 * warmed cache.
 */
export const holdsYoungGeneration = (argv: readonly string[], env: NodeJS.ProcessEnv): boolean =>
  DAEMONS.has(argv[0] ?? '') && !env.NODE_COMPILE_CACHE;

/**
 * Keeps V8's young generation at its initial size (1 MiB per semi-space) in `watch` and
 * `serve`. Evaluating the CLI and building the runtime allocate objects that survive their
 * first scavenges, so V8 doubles the new space up to 16 MiB; an idle watcher then held those
 * pages until V8's memory reducer ran, about eight seconds into the quiet. Held, the watcher is
 * at its resting size once its informer has synced (docs/benchmarks.md, issue 19). The cost is
 * more frequent scavenges while a session allocates, small beside a model's latency.
 *
 * Set from inside the process, not on Node's command line: `#!/usr/bin/env node`, npx and
 * `npm i -g` cannot pass V8 options. V8 reads the growth factor each time it would grow the
 * space, so it takes effect when set. The entry sets it before importing the CLI, and before
 * turning on the code cache: the flag is part of what V8 checks a cached entry against, and
 * Node names the cache's directory after it, so the daemons' cache lives apart from the other
 * commands' and neither rejects the other's.
 */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
