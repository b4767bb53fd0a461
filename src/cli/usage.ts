export { UsageError } from '../core/usage-error.ts';

/**
 * Exit statuses (docs/cli.md#exit-status): 0 done, 1 a runtime failure (a refused
 * `tools call`, a turn the watchdog cut…), 2 a usage or configuration error, 3 the model
 * call failed (the provider refused or could not be reached, after the retries).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, model: 3 } as const;

/** Where a command writes: injectable so tests can run the CLI in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}
