// Random ids (sessions, tool calls) from the kernel's generator, read through node:fs, which
// every command has loaded already. Importing node:crypto, or touching globalThis.crypto, to
// make one loads Node's crypto layer: about 12 ms of a process's start on the build machine
// (a process that only loads it, beside `node -e 0`). The bytes are the same quality:
// /dev/urandom is what OpenSSL seeds from. Where it cannot be read, node:crypto makes them.
import { closeSync, openSync, readSync } from 'node:fs';

const POOL_BYTES = 512;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** Fills `buf` from the kernel's generator; false where it cannot be read (no /dev, a seccomp rule). */
export function fillFromKernel(buf: Buffer, device = '/dev/urandom'): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(device, 'r');
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n <= 0) return false;
      got += n;
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function refill(): void {
  // node:crypto only when the kernel's device cannot be read: loading it is what this module avoids.
  if (!fillFromKernel(pool)) process.getBuiltinModule('node:crypto').randomFillSync(pool);
  used = 0;
}

/** `n` random bytes (a copy: the pool's bytes are handed out once). */
export function randomBytes(n: number): Buffer {
  if (!Number.isInteger(n) || n < 0 || n > POOL_BYTES) throw new RangeError(`randomBytes: a whole number of bytes from 0 to ${POOL_BYTES}`);
  if (used + n > POOL_BYTES) refill();
  const out = Buffer.from(pool.subarray(used, used + n));
  pool.fill(0, used, used + n);
  used += n;
  return out;
}

/** A version 4 UUID, as node:crypto's randomUUID() formats one. */
export function randomUUID(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
