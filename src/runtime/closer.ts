// What a daemon opened, closed in one place. `watch` and `serve` open servers, a peer
// registration, stores and signal listeners one after another, and any of those steps can fail
// at start-up; each failure path used to close by hand what was open so far, and each had to
// remember the order. A daemon now adds each thing to its Closer as it opens it, and one call
// closes them all, on every path: a start-up that fails half-way, a signal, a halt.

/**
 * The order things close in, whatever order they were opened in: the sessions first (their
 * MCP connections, their last events written), then the announcement to a peer hub (a hub
 * should drop this daemon before its API goes away), then the servers (no new request), then
 * the stores the sessions wrote to, and the signal listeners last (a second signal during the
 * shutdown must not end the process before the stores are closed).
 */
export const CLOSE_STAGES = ['sessions', 'registration', 'servers', 'stores', 'signals'] as const;
export type CloseStage = (typeof CLOSE_STAGES)[number];

interface Step {
  stage: CloseStage;
  what: string;
  close: () => unknown;
}

export class Closer {
  private readonly steps: Step[] = [];
  private closing: Promise<void> | undefined;

  /** `onFailure`: told of a step that threw (the others still run). */
  constructor(private readonly onFailure: (what: string, err: unknown) => void) {}

  /** `close` runs once, at closeAll, in its stage; within a stage the latest added closes first. */
  add(stage: CloseStage, what: string, close: () => unknown): void {
    if (this.closing) throw new Error(`${what} opened while the daemon closes`);
    this.steps.push({ stage, what, close });
  }

  /**
   * Everything added, closed stage by stage, each step awaited. A step that throws is reported
   * to `onFailure` and the rest still run, so this never throws; a second call waits for the first.
   */
  closeAll(): Promise<void> {
    this.closing ??= this.run();
    return this.closing;
  }

  /** Runs `start`; if it throws, everything added so far is closed before the error goes on. */
  async closeOnFailure<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (err) {
      await this.closeAll();
      throw err;
    }
  }

  private async run(): Promise<void> {
    for (const stage of CLOSE_STAGES) {
      const steps = this.steps.filter((s) => s.stage === stage).reverse();
      for (const step of steps) {
        try {
          await step.close();
        } catch (err) {
          this.onFailure(step.what, err);
        }
      }
    }
  }
}

/** A daemon that could not take its address: said as one line, exit 1 (the address is the operator's to free or change). */
export class CannotListenError extends Error {
  override readonly name = 'CannotListenError';
}

/**
 * SIGTERM and SIGINT, as a promise of the first one's name. `then`: what a second signal does
 * while the daemon shuts down. `waits` (watch): the listeners stay until the Closer removes them
 * (stage `signals`, last), so neither a second signal nor one re-raised by a session's terminal
 * manager after it killed its terminals ends the process before its running sessions are
 * checkpointed and its stores closed. `ends` (serve): the first signal removes them, and a
 * second one ends the process as Node would, for a shutdown that hangs (a hub that does not
 * answer the deregistration).
 */
export function stopSignal(closer: Closer, then: 'waits' | 'ends'): Promise<string> {
  return new Promise<string>((resolve) => {
    const listeners = (['SIGTERM', 'SIGINT'] as const).map((sig) => ({ sig, listener: () => stopped(sig) }));
    const off = () => {
      for (const { sig, listener } of listeners) process.off(sig, listener);
    };
    const stopped = (sig: string) => {
      if (then === 'ends') off();
      resolve(sig);
    };
    for (const { sig, listener } of listeners) process.on(sig, listener);
    closer.add('signals', 'the SIGTERM and SIGINT listeners', off);
  });
}
