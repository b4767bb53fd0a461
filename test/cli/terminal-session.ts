import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/** Generous: the machine may be loaded (2 cores shared); polling returns as soon as the screen is right. */
const DEADLINE_MS = 30_000;

/**
 * The real CLI in a real terminal: a private tmux server (its own socket, so
 * no other tmux is touched) running one command; the screen read back with
 * capture-pane, as a person would see it.
 */
export class TerminalSession {
  private readonly socket = `core-agent-test-${randomUUID().slice(0, 8)}`;

  constructor(cwd: string, args: string[], env: Record<string, string> = {}) {
    const command = [process.execPath, bundle, ...args].map(quote).join(' ');
    const vars = Object.entries({ HOME: cwd, TERM: 'xterm-256color', PATH: process.env.PATH ?? '', ...env })
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(' ');
    // The shell traps SIGINT (a handler, not SIG_IGN: the CLI gets the default back at exec), so
    // a Ctrl-C that ends the CLI by the signal leaves the shell to say how it ended.
    this.tmux(
      'new-session',
      '-d',
      '-s',
      't',
      '-x',
      '120',
      '-y',
      '50',
      '-c',
      cwd,
      `trap true INT; env -i ${vars} ${command}; echo "exited $?"; sleep 600`,
    );
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The whole screen and its scroll-back, trailing blank lines dropped. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', 't', '-S', '-500').replace(/\n+$/, '\n');
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', 't', '-l', text);
    this.tmux('send-keys', '-t', 't', 'Enter');
  }

  key(name: string): void {
    this.tmux('send-keys', '-t', 't', name);
  }

  /** Wait until the screen shows `what` (text or pattern); the screen then. */
  async until(what: string | RegExp, deadlineMs = DEADLINE_MS): Promise<string> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const s = this.screen();
      if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
      if (Date.now() > deadline) throw new Error(`the terminal never showed ${String(what)}:\n${s}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Processes whose command line is exactly `args` (the process table, as ps sees it). */
export function processesRunning(args: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout;
  return ps.split('\n').filter((l) => l.trim().replace(/^\d+\s+/, '') === args);
}

/** A sleep no other process on the machine runs: a stand-in for a server that never answers, found by the process table checks. */
export function uniqueSleep(): string {
  return `sleep 40.${String(Math.floor(Math.random() * 9000) + 1000)}`;
}

/** Polls `f` until it gives a value, or fails naming `what` after `ms`. */
export async function until<T>(f: () => T | undefined, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
