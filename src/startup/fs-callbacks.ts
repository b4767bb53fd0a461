import * as fs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';

/**
 * The file-system calls every command makes at start-up (the workspace, the settings and
 * config files, path scope, skills, the pending-writes journal), as promises over node:fs's callback API. Importing
 * node:fs/promises loads readline's interface, the REPL history, fs watchers and dirs with
 * it: 1.8 MiB of peak RSS for `tools list --json` (docs/benchmarks.md, issue 19). The
 * results and the errors (code, syscall, path) are those of the same calls in
 * node:fs/promises; `realpath` is the native one, as node:fs/promises's is.
 *
 * Until the start-up is over (startUpIsOver: the first system built, src/runtime/system.ts, or a
 * daemon up, src/startup/daemon-start.ts, whichever comes first) each call is made synchronously
 * and its promise settles at once. Nothing else runs on the event loop while a command starts,
 * so a synchronous call holds nothing up; asynchronous, the first one started libuv's pool of
 * four threads, which a `tools list` then never used again (~0.04x of `node -e 0`'s CPU on two
 * cores, docs/benchmarks.md). After it, the calls go through the pool: a tool call's path
 * resolution on a slow mount stalls that call, not the process.
 */
let starting = true;

/** The start-up is over: from here on every call goes through libuv's thread pool. */
export function startUpIsOver(): void {
  starting = false;
}

const call = <T>(sync: () => T, run: (done: (err: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> => {
  if (starting) {
    try {
      return Promise.resolve(sync());
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }
  return new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));
};

export const stat = (p: string): Promise<Stats> =>
  call(
    () => fs.statSync(p),
    (done) => fs.stat(p, done),
  );
export const lstat = (p: string): Promise<Stats> =>
  call(
    () => fs.lstatSync(p),
    (done) => fs.lstat(p, done),
  );
export const realpath = (p: string): Promise<string> =>
  call(
    () => fs.realpathSync.native(p),
    (done) => fs.realpath.native(p, done),
  );
export const readlink = (p: string): Promise<string> =>
  call(
    () => fs.readlinkSync(p),
    (done) => fs.readlink(p, done),
  );
export const readdirEntries = (p: string): Promise<Dirent[]> =>
  call(
    () => fs.readdirSync(p, { withFileTypes: true }),
    (done) => fs.readdir(p, { withFileTypes: true }, done),
  );
export const readdirNames = (p: string): Promise<string[]> =>
  call(
    () => fs.readdirSync(p),
    (done) => fs.readdir(p, done),
  );

/** An open file: the part of node:fs/promises's FileHandle the config reader uses. */
export interface OpenFile {
  stat(): Promise<Stats>;
  /** Reads at the current position; the bytes read, 0 at the end. */
  read(buffer: Buffer, offset: number, length: number): Promise<number>;
  close(): Promise<void>;
}

export async function openFile(p: string, flags: number): Promise<OpenFile> {
  const fd = await call(
    () => fs.openSync(p, flags),
    (done) => fs.open(p, flags, done),
  );
  let closing: Promise<void> | undefined;
  return {
    stat: () =>
      call(
        () => fs.fstatSync(fd),
        (done) => fs.fstat(fd, done),
      ),
    read: (buffer, offset, length) =>
      call(
        () => fs.readSync(fd, buffer, offset, length, null),
        (done) => fs.read(fd, buffer, offset, length, null, done),
      ),
    // Once, as FileHandle does: closing the number again could close a descriptor opened since.
    close: () =>
      (closing ??= call<void>(
        () => fs.closeSync(fd),
        (done) => fs.close(fd, (err) => done(err, undefined)),
      )),
  };
}
