import * as fs from 'node:fs';
import type { Dirent, Stats } from 'node:fs';

/**
 * The file-system calls every command makes at start-up (the workspace, the settings and
 * config files, path scope, skills, the pending-writes journal), as promises over node:fs's callback API. Importing
 * node:fs/promises loads readline's interface, the REPL history, fs watchers and dirs with
 * it: 1.8 MiB of peak RSS for `tools list --json` (docs/benchmarks.md, issue 19). The
 * results and the errors (code, syscall, path) are those of the same calls in
 * node:fs/promises; `realpath` is the native one, as node:fs/promises's is.
 */
const call = <T>(run: (done: (err: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));

export const stat = (p: string): Promise<Stats> => call((done) => fs.stat(p, done));
export const lstat = (p: string): Promise<Stats> => call((done) => fs.lstat(p, done));
export const realpath = (p: string): Promise<string> => call((done) => fs.realpath.native(p, done));
export const readlink = (p: string): Promise<string> => call((done) => fs.readlink(p, done));
export const readdirEntries = (p: string): Promise<Dirent[]> => call((done) => fs.readdir(p, { withFileTypes: true }, done));
export const readdirNames = (p: string): Promise<string[]> => call((done) => fs.readdir(p, done));

/** An open file: the part of node:fs/promises's FileHandle the config reader uses. */
export interface OpenFile {
  stat(): Promise<Stats>;
  /** Reads at the current position; the bytes read, 0 at the end. */
  read(buffer: Buffer, offset: number, length: number): Promise<number>;
  close(): Promise<void>;
}

export async function openFile(p: string, flags: number): Promise<OpenFile> {
  const fd = await call<number>((done) => fs.open(p, flags, done));
  let closing: Promise<void> | undefined;
  return {
    stat: () => call((done) => fs.fstat(fd, done)),
    read: (buffer, offset, length) => call((done) => fs.read(fd, buffer, offset, length, null, done)),
    // Once, as FileHandle does: closing the number again could close a descriptor opened since.
    close: () => (closing ??= call<void>((done) => fs.close(fd, (err) => done(err, undefined)))),
  };
}
