// A CLI script's start: the process around one command line. Each script's entry passes the
// commands it holds (src/cli/start.ts, src/cli/start-tools.ts).
import { fdOutput } from '../util/fd-output.ts';
import { isTerminal } from '../util/is-terminal.ts';
import { internalErrorText } from './internal-error.ts';
import { main } from './main.ts';
import { flushLogs } from '../log.ts';
import { scrubSecretsFromEnviron } from '../runtime/environ-scrub.ts';
import type { Commands } from './commands.ts';
import type { Io } from './usage.ts';

/** Runs one command line as the process: sets the exit code, flushes the logs. */
export function startCli(argv: string[], env: NodeJS.ProcessEnv, commands: Commands): Promise<void> {
  // First, before any child process exists: credentials out of /proc/<this pid>/environ.
  scrubSecretsFromEnviron();

  const io: Io = {
    // Straight to the descriptors (src/util/fd-output.ts): no stream is built for a pipe. A
    // reader that goes away (`| head`) is not an error worth a stack trace: exit 0.
    out: fdOutput(1, () => process.exit(0)),
    err: fdOutput(2, () => undefined),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    // fd 0 asked directly, and only when a command asks: reading process.stdin.isTTY creates
    // the stdin stream (net, fs streams and tty loaded, ~6 ms); isTerminal loads node:tty only
    // for a character device.
    get isTty() {
      return isTerminal(0);
    },
    env,
  };

  return main(argv, io, commands)
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err: unknown) => {
        io.err(internalErrorText(err));
        process.exitCode = 1;
      },
    )
    .then(flushLogs);
}
