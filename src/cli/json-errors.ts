import { parseArgs } from 'node:util';
import { internalErrorText } from './internal-error.ts';
import { JsonRenderer } from './json-renderer.ts';
import { RUN_OPTIONS } from './command-table.ts';
import type { Io } from './usage.ts';

/**
 * Whether `run` was asked for JSON output — decided before the command line is
 * known to be valid, because a usage error must then be JSON too. It is the same
 * parser with the same option table as the real parse, only lenient (an unknown
 * flag or a missing value does not stop it), so `-o json`, `--output json`,
 * `--output=json` and `-ojson` are read exactly as the real parse reads them, the
 * last one winning, and a PROMPT after `--` is never taken for a flag.
 */
export function wantsJsonOutput(argv: readonly string[]): boolean {
  try {
    const { values } = parseArgs({ args: [...argv], options: RUN_OPTIONS, allowPositionals: true, strict: false });
    return values.output === 'json';
  } catch {
    return false;
  }
}

/**
 * The error `report` would print for a human, as the one JSON event a program
 * reads instead: `{"type":"error","ts":…,"message":…,"exit":N}` on stdout,
 * nothing else there, the exit status unchanged. Every error `main` knows how to
 * report goes through here unchanged in wording, so a new kind of error needs
 * nothing added for JSON. An error `report` does not know (a defect) is an
 * internal error, exit 1, with its stack on stderr for the bug report.
 */
export function reportAsJson(io: Io, report: (textIo: Io) => number): number {
  let text = '';
  const capture: Io = { ...io, out: (t) => (text += t), err: (t) => (text += t) };
  let exit: number;
  try {
    exit = report(capture);
  } catch (err) {
    io.err(internalErrorText(err));
    text = `internal error: ${(err as Error)?.message ?? String(err)}`;
    exit = 1;
  }
  new JsonRenderer(io).line({ type: 'error', message: errorMessage(text), exit: Math.max(1, exit) });
  return exit;
}

/** The human report without what only a human needs: the program name before each line and the pointer to --help. */
function errorMessage(text: string): string {
  const lines = text
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^Run "core-agent .*--help" for usage\.$/.test(l))
    .map((l) => l.replace(/^core-agent: /, ''));
  return lines.join('\n') || 'unknown error';
}
