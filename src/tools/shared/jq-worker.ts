// Runs inside a worker thread: jq (WebAssembly) calls are synchronous and a jq
// program can loop forever, so the main thread keeps a timer and terminates
// this worker when it overruns. Bundled separately and started from source text
// (see scripts/worker-source.mjs), which is why it imports nothing of ours.
import { parentPort } from 'node:worker_threads';
import { loadJq } from 'jq-wasm/inline';

export interface JqRequest {
  id: number;
  input: string;
  expression: string;
  /** Output beyond this many bytes is dropped (and reported) before it crosses threads. */
  maxOutputBytes: number;
}

export interface JqResponse {
  id: number;
  exitCode: number;
  stdout: string;
  stderr: string;
  outputCut: boolean;
}

// jq-wasm's runtime prints "Aborted()" to stderr when the WebAssembly instance traps (out of
// memory, say). The caller is told in a sentence (jqCrashSentence); the process's stderr, which
// in a worker is the parent's, is not the place. jq's own messages come back in `stderr` below.
process.stderr.write = () => true;

const jq = loadJq();

parentPort!.on('message', (req: JqRequest) => {
  jq.then(
    (engine) => {
      const r = engine.raw(req.input, req.expression, ['-c']);
      let stdout = r.stdout;
      let outputCut = false;
      if (stdout.length > req.maxOutputBytes) {
        const cut = stdout.lastIndexOf('\n', req.maxOutputBytes);
        stdout = cut > 0 ? stdout.slice(0, cut) : '';
        outputCut = true;
      }
      const res: JqResponse = { id: req.id, exitCode: r.exitCode, stdout, stderr: r.stderr, outputCut };
      parentPort!.postMessage(res);
    },
    (err: unknown) => {
      const res: JqResponse = { id: req.id, exitCode: -1, stdout: '', stderr: `jq failed to load: ${String(err)}`, outputCut: false };
      parentPort!.postMessage(res);
    },
  );
});
