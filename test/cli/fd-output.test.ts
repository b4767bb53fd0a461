// src/util/fd-output.ts: the CLI's output written to the descriptor. In process with a scripted
// writeSync (partial writes, EAGAIN, EPIPE, EBADF), then the built CLI on real pipes.
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fdOutput, shareStream } from '../../src/util/fd-output.ts';

const errno = (code: string) => Object.assign(new Error(code), { code });

/** A writeSync that follows `script` (a byte count to accept, or an errno to throw), then accepts all. */
function scripted(script: Array<number | string>) {
  const fd: string[] = [];
  const stream: string[] = [];
  const emitter = new EventEmitter();
  let streams = 0;
  const deps = {
    writeSync: (_fd: number, buffer: Uint8Array, offset: number) => {
      const step = script.shift();
      if (typeof step === 'string') throw errno(step);
      const n = Math.min(step ?? Infinity, buffer.length - offset);
      fd.push(Buffer.from(buffer.subarray(offset, offset + n)).toString());
      return n;
    },
    stream: () => {
      streams += 1;
      return Object.assign(emitter, {
        write: (b: Uint8Array) => stream.push(Buffer.from(b).toString()) > 0,
      }) as unknown as NodeJS.WritableStream;
    },
  };
  return { deps, fd, stream, emitter, streams: () => streams };
}

describe('fdOutput', () => {
  it('writes each text whole, looping over partial writes, and skips empty text', () => {
    const s = scripted([3, 1]);
    const write = fdOutput(1, () => undefined, s.deps);
    write('hello');
    write('');
    write('é!');
    expect(s.fd.join('')).toBe('helloé!');
    expect(s.fd.slice(0, 3)).toEqual(['hel', 'l', 'o']);
    expect(s.streams()).toBe(0);
  });

  it('on EAGAIN sends the rest and every later text through the stream, in order', () => {
    const s = scripted([2, 'EAGAIN']);
    const write = fdOutput(1, () => undefined, s.deps);
    write('abcdef');
    write('ghi');
    expect(s.fd).toEqual(['ab']);
    expect(s.stream).toEqual(['cdef', 'ghi']);
    expect(s.streams()).toBe(1);
  });

  it('on EPIPE calls onBrokenPipe once and drops what follows', () => {
    const s = scripted(['EPIPE']);
    let broken = 0;
    const write = fdOutput(1, () => (broken += 1), s.deps);
    write('a');
    write('b');
    expect(broken).toBe(1);
    expect(s.fd).toEqual([]);
  });

  it('an EPIPE from the stream after an EAGAIN is the same broken pipe; another stream error is thrown', () => {
    const s = scripted(['EAGAIN']);
    let broken = 0;
    const write = fdOutput(1, () => (broken += 1), s.deps);
    write('a');
    s.emitter.emit('error', errno('EPIPE'));
    write('b');
    expect(broken).toBe(1);
    expect(s.stream).toEqual(['a']);
    expect(() => s.emitter.emit('error', errno('EIO'))).toThrow('EIO');
  });

  it('on EBADF (no descriptor) drops everything without a word', () => {
    const s = scripted(['EBADF']);
    let broken = 0;
    const write = fdOutput(1, () => (broken += 1), s.deps);
    write('a');
    write('b');
    expect(broken).toBe(0);
    expect(s.fd).toEqual([]);
  });

  it('after shareStream, writes through the stream, whose EPIPE is the broken pipe', () => {
    const s = scripted([]);
    let broken = 0;
    const write = fdOutput(1, () => (broken += 1), s.deps);
    write('a');
    shareStream(1);
    write('b');
    expect(s.fd).toEqual(['a']);
    expect(s.stream).toEqual(['b']);
    s.emitter.emit('error', errno('EPIPE'));
    write('c');
    expect(broken).toBe(1);
    expect(s.stream).toEqual(['b']);
  });

  it('throws any other error', () => {
    const write = fdOutput(1, () => undefined, scripted(['EIO']).deps);
    expect(() => write('a')).toThrow('EIO');
  });
});

describe('the built CLI on real descriptors', () => {
  const bundle = path.resolve(import.meta.dirname, '../../dist/core-agent.mjs');
  const cwd = path.resolve(import.meta.dirname, '../fixtures');

  it('recipe schema, 70 KB through a pipe, arrives whole', () => {
    const r = spawnSync(process.execPath, [bundle, 'recipe', 'schema'], { cwd, encoding: 'utf8', maxBuffer: 1 << 24 });
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(64 * 1024); // more than a pipe holds: the writer waited for the reader
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'core-agent recipe' });
  });

  // The reader: a pipe whose write end is non-blocking (as a parent may leave it), shrunk to one
  // page (F_SETPIPE_SZ; 4 KiB, or 64 KiB where pages are), read only once the command has filled
  // it (FIONREAD) and is still running, so its next write is refused (EAGAIN) and the rest must
  // come through the stream, whole and in order. Exit 97: the pipe never filled.
  const SLOW_READER = `import fcntl, os, struct, subprocess, sys, termios, time
r, w = os.pipe()
os.set_blocking(w, False)
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ
size = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ
child = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
pending = lambda: struct.unpack('i', fcntl.ioctl(r, termios.FIONREAD, b'\\0' * 4))[0]
while pending() < size and child.poll() is None:
    time.sleep(0.01)
filled = pending() >= size and child.poll() is None
time.sleep(0.2)
data = b''
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    data += chunk
sys.stdout.buffer.write(data)
sys.exit(child.wait() if filled else 97)
`;
  const python3 = ['/usr/bin/python3', '/usr/local/bin/python3'].find((p) => existsSync(p));

  it.skipIf(python3 === undefined)('recipe schema into a full non-blocking pipe: the same bytes, exit 0', () => {
    const plain = spawnSync(process.execPath, [bundle, 'recipe', 'schema'], { cwd, encoding: 'utf8', maxBuffer: 1 << 24 });
    const r = spawnSync(python3!, ['-c', SLOW_READER, process.execPath, bundle, 'recipe', 'schema'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(64 * 1024);
    expect(r.stdout).toBe(plain.stdout);
  });

  // A reader that closes the pipe before the command writes (bash: `| { exec 0<&-; sleep; }`):
  // the first write is refused with EPIPE.
  it.each([['recipe', 'schema'], ['tools', 'list', '--json'], ['--help']])(
    '%s into a reader that has gone: exit 0, nothing on stderr',
    (...argv) => {
      const script = '"$0" "$@" | { exec 0<&-; sleep 0.5; }; exit ${PIPESTATUS[0]}';
      const r = spawnSync('bash', ['-c', script, process.execPath, bundle, ...argv], { cwd, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    },
  );

  // Node opens /dev/null for a 0, 1 or 2 closed at start: nothing to write to, nothing to fail.
  it.each([['tools', 'list'], ['--version']])('%s with stdout closed (>&-): exit 0, nothing on stderr', (...argv) => {
    const r = spawnSync('bash', ['-c', `"$0" "$@" >&-`, process.execPath, bundle, ...argv], { cwd, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
