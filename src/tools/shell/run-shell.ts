import type { Escapee } from './escapees.ts';
import { SupervisedShell, type GroupRecorder } from './supervised-shell.ts';

export interface ShellResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** stdout and stderr as they arrived, the last `keepBytes` of it. */
  output: string;
  /** Bytes produced in all (more than `output` holds when it was cut). */
  totalBytes: number;
  /** Processes that had left the command's process group, found and stopped. */
  escaped: Escapee[];
  /** Something held the output open after the shell exited; it was closed from our side. */
  pipesHeld: boolean;
  /** …and without /proc it could not be found (it may still be running). */
  untraceable: boolean;
}

/**
 * Run `/bin/sh -c command` in its own process group with stdin closed. At the
 * timeout (or an abort) the whole group gets SIGTERM, then SIGKILL after a grace
 * period, so grandchildren go too; the output so far is kept. Background jobs do
 * not outlive the command, not even those that left the group (supervised-shell.ts),
 * and the call never waits on a pipe one of them holds. Output is kept from the
 * end — where the errors are — within `keepBytes`.
 */
export async function runShell(
  command: string,
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    keepBytes: number;
    signal?: AbortSignal;
    graceMs?: number;
    records?: GroupRecorder | undefined;
    sessionId?: string | undefined;
  },
): Promise<ShellResult> {
  const graceMs = opts.graceMs ?? 2000;
  const sh = new SupervisedShell(command, {
    cwd: opts.cwd,
    env: opts.env,
    stdin: 'ignore',
    graceMs,
    records: opts.records,
    kind: 'bash',
    sessionId: opts.sessionId,
  });
  let chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  const onData = (d: Buffer) => {
    total += d.length;
    chunks.push(d);
    kept += d.length;
    // Drop whole chunks from the front while what remains still covers the budget.
    while (chunks.length > 1 && kept - chunks[0]!.length >= opts.keepBytes) kept -= chunks.shift()!.length;
  };
  sh.child.stdout.on('data', onData);
  sh.child.stderr.on('data', onData);

  let timedOut = false;
  const stop = () => sh.terminate(graceMs);
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, opts.timeoutMs);
  // The command is over when its shell exits; what it left behind is not waited for.
  sh.child.once('exit', () => clearTimeout(timer));
  opts.signal?.addEventListener('abort', stop, { once: true });
  if (opts.signal?.aborted) stop();
  const end = await sh.ended;
  clearTimeout(timer);
  opts.signal?.removeEventListener('abort', stop);
  if (end.error) throw end.error;
  let output = Buffer.concat(chunks);
  chunks = [];
  if (output.length > opts.keepBytes) output = output.subarray(output.length - opts.keepBytes);
  return {
    exitCode: end.code,
    signal: end.signal,
    timedOut,
    output: output.toString('utf8'),
    totalBytes: total,
    escaped: end.escaped,
    pipesHeld: end.pipesHeld,
    untraceable: end.untraceable,
  };
}
