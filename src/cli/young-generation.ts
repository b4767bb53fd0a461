import { setFlagsFromString } from 'node:v8';

/** The long-lived daemons, idle most of their life: the commands that hold the young generation. */
const DAEMONS: ReadonlySet<string> = new Set(['watch', 'serve']);

export const holdsYoungGeneration = (argv: readonly string[]): boolean => DAEMONS.has(argv[0] ?? '');

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
 * space, so it takes effect when set; the entry sets it before importing the CLI.
 */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
