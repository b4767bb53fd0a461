import type { Worker } from 'node:worker_threads';
import jqWorkerSource from 'virtual:jq-worker-source';
import { decodeEmbedded } from '../../startup/embedded.ts';
import { jqCrashSentence } from './jq-errors.ts';
import type { JqRequest, JqResponse } from './jq-worker.ts';

export class JqTimeoutError extends Error {
  override readonly name = 'JqTimeoutError';
}

/** The worker died instead of answering (out of memory, a WebAssembly trap); the message is a model-facing sentence. */
export class JqCrashError extends Error {
  override readonly name = 'JqCrashError';
}

/** A worker's V8 heap (the input and output strings live there). */
export const JQ_WORKER_HEAP_MB = 512;
/** jq's own memory: jq-wasm 3.0.0's build caps its WebAssembly heap at 256 MiB (getHeapMax). */
export const JQ_WASM_MEMORY_MB = 256;
const JQ_LIMITS = { wasmMb: JQ_WASM_MEMORY_MB, heapMb: JQ_WORKER_HEAP_MB };

/** Idle workers kept warm for the next call; a busy one is never shared. */
const MAX_IDLE_WORKERS = 2;

/**
 * Runs jq programs in worker threads with a wall-clock limit. A worker that
 * overruns is terminated (the only way to stop a synchronous WebAssembly call)
 * and replaced on the next call; finished workers are kept for reuse and
 * unref'd so they never hold the process open.
 */
export class JqRunner {
  private readonly idle: Worker[] = [];
  private nextId = 1;

  async run(input: string, expression: string, timeoutMs: number, maxOutputBytes: number, signal?: AbortSignal): Promise<JqResponse> {
    const worker = this.idle.pop() ?? (await this.spawn());
    worker.ref();
    const id = this.nextId++;
    return new Promise<JqResponse>((resolve, reject) => {
      let settled = false;
      const finish = (keep: boolean, fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (keep && this.idle.length < MAX_IDLE_WORKERS) {
          worker.unref();
          this.idle.push(worker);
        } else {
          void worker.terminate();
        }
        fn();
      };
      const onMessage = (res: JqResponse) => {
        if (res.id === id) finish(true, () => resolve(res));
      };
      const onError = (err: Error) => finish(false, () => reject(new JqCrashError(jqCrashSentence(err, JQ_LIMITS))));
      const onExit = (code: number) =>
        finish(false, () => reject(new JqCrashError(jqCrashSentence({ message: `the jq worker exited (code ${code})` }, JQ_LIMITS))));
      const onAbort = () => finish(false, () => reject(new JqTimeoutError('the call was cancelled')));
      const timer = setTimeout(
        () => finish(false, () => reject(new JqTimeoutError(`the jq program did not finish within ${timeoutMs / 1000} s and was stopped`))),
        timeoutMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      const req: JqRequest = { id, input, expression, maxOutputBytes };
      worker.postMessage(req);
    });
  }

  /** Stop every idle worker (tests, shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private async spawn(): Promise<Worker> {
    // Loaded on first use: most runs never call jq, and these cost start-up time.
    const { Worker: WorkerThread } = await import('node:worker_threads');
    return new WorkerThread(await decodeEmbedded(jqWorkerSource), {
      eval: true,
      resourceLimits: { maxOldGenerationSizeMb: JQ_WORKER_HEAP_MB },
    });
  }
}

/** One runner per process: workers are an expensive thing to have many of. */
export const sharedJqRunner = new JqRunner();
