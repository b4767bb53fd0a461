import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { looksSecret } from '../../util/secret-names.ts';

export const SHELL = '/bin/sh';

/** Whether this system has a shell at all (a distroless image does not). */
export function shellAvailable(): boolean {
  return existsSync(SHELL);
}

/** Environment variables that look like credentials never reach a model's command. */
export function shellEnv(base: NodeJS.ProcessEnv, passEnv: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!looksSecret(k) || passEnv.includes(k)) env[k] = v;
  // Nothing may stop to ask: there is nobody at the keyboard of a tool call.
  return { ...env, CI: '1', GIT_TERMINAL_PROMPT: '0', PAGER: 'cat', GIT_PAGER: 'cat', DEBIAN_FRONTEND: 'noninteractive' };
}

export interface ShellResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** stdout and stderr as they arrived, the last `keepBytes` of it. */
  output: string;
  /** Bytes produced in all (more than `output` holds when it was cut). */
  totalBytes: number;
}

/**
 * Run `/bin/sh -c command` in its own process group with stdin closed. At the
 * timeout (or an abort) the whole group gets SIGTERM, then SIGKILL after a grace
 * period, so grandchildren go too; the output so far is kept. Background jobs do
 * not outlive the command. Output is kept from the end — where the errors are —
 * within `keepBytes`.
 */
export function runShell(
  command: string,
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; keepBytes: number; signal?: AbortSignal; graceMs?: number },
): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(SHELL, ['-c', command], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);

    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return; // already gone
      }
      killTimer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, opts.graceMs ?? 2000);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    opts.signal?.addEventListener('abort', stop, { once: true });

    // When the shell itself exits, what it left running in the background goes too
    // (its pipes would otherwise hold the call open until the timeout).
    child.on('exit', () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // gone
        }
      }, 500).unref();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', stop);
      // Whatever else is left in the group (a daemonised grandchild) goes now.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // nothing left
      }
      let output = Buffer.concat(chunks);
      chunks = [];
      if (output.length > opts.keepBytes) output = output.subarray(output.length - opts.keepBytes);
      resolve({ exitCode: code, signal, timedOut, output: output.toString('utf8'), totalBytes: total });
    });
  });
}
