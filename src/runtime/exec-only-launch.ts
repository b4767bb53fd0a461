import { accessSync, closeSync, constants, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { chmod, copyFile, mkdir, readdir, realpath, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { ProcessGuard, StdioLaunch, StdioParams } from '../mcp/stdio-transport.ts';
import { fnv1a, isDumpable, nodeCopyName, usableExecOnly } from './non-dumpable.ts';
import { stateDir } from './state-dir.ts';

/**
 * How a stdio MCP server is started so that no other process of the user — a command bash
 * runs — can read its environment (its `env:` values) or its memory through /proc.
 *
 * The kernel makes a process non-dumpable when the file it executes is one its user may execute
 * but not read (non-dumpable.ts says how, for core-agent itself). Dumpability is decided again
 * at every execve, by the file that execve runs: so the server is started from an
 * execute-only copy of the program that will hold its environment —
 *
 * - an ELF command: a copy of it, started with the command as its argv[0];
 * - a `#!` script: a copy of its interpreter (after `/usr/bin/env NAME` and `env -S`), given the
 *   script as the kernel would, with the interpreter's name as argv[0] so that Python still
 *   finds its prefix (or its venv) from it;
 * - a Node program (node itself, or a script run by node): the same, and the server's PATH
 *   starts with a directory whose `node` is that copy, so that what it starts by name (npx's
 *   package binary, `#!/usr/bin/env node`) is non-dumpable too.
 *
 * The copies live in $XDG_STATE_HOME/core-agent/exec-only/, mode 0100, one per program (a
 * reflink where the file system has them), and are made when first needed. What cannot be covered
 * this way, and is said: a program that execs a readable file by absolute path (uvx's venv
 * Python, a shell wrapper's child), a `#!` whose interpreter is itself a script. `verify` finds
 * those after the start by reading who owns each server process's /proc files.
 */

/**
 * The guard for this process's stdio servers: only where it can work and is meant — Linux, not
 * root (root's servers are readable by its commands whatever the file), and core-agent itself
 * non-dumpable (CORE_AGENT_DUMPABLE=1, root, a failed copy leave servers as given, too).
 */
export function processGuardFor(env: NodeJS.ProcessEnv): ProcessGuard | undefined {
  if (process.platform !== 'linux' || process.geteuid?.() === 0 || isDumpable() !== false) return undefined;
  return execOnlyLauncher(stateDir(env));
}

/** The first bytes a program's kind is read from: the kernel's own buffer for `#!` lines. */
const HEAD_BYTES = 256;

export function execOnlyLauncher(stateDirectory: string): ProcessGuard {
  const dir = path.join(stateDirectory, 'exec-only');
  return {
    launch: (p) => planLaunch(p, dir),
    dumpableIn,
  };
}

/** The launch of one server: the execute-only copy it runs from, or the command as given and why. */
export async function planLaunch(p: StdioParams, dir: string): Promise<StdioLaunch> {
  const asIs = (reason: string): StdioLaunch => ({
    file: p.command,
    argv0: p.command,
    args: p.args,
    env: p.env,
    guard: { exec_only: false, reason },
  });
  const resolved = which(p.command, p.env.PATH, p.cwd);
  if (resolved === undefined) return asIs(`${p.command} is not an executable file on the server's PATH`);
  const head = readHead(resolved);
  if (head === 'unreadable') return { ...asIs(''), guard: { exec_only: true, from: resolved } };
  if (head === undefined) return asIs(`${resolved} cannot be read`);
  try {
    if (isElf(head)) {
      const copy = await execOnlyCopy(resolved, dir);
      return {
        file: copy,
        argv0: p.command,
        args: p.args,
        env: await withNodeFirst(resolved, copy, p.env, dir),
        guard: { exec_only: true, from: copy },
      };
    }
    const interp = parseShebang(head, p.env.PATH, p.cwd);
    if (typeof interp === 'string') return asIs(`${resolved}: ${interp}`);
    const interpHead = readHead(interp.file);
    if (interpHead === 'unreadable') {
      return {
        file: interp.file,
        argv0: interp.argv0,
        args: [...interp.args, resolved, ...p.args],
        env: p.env,
        guard: { exec_only: true, from: interp.file },
      };
    }
    if (interpHead === undefined) return asIs(`its interpreter ${JSON.stringify(interp.file)} cannot be read`);
    if (!isElf(interpHead)) return asIs(`its interpreter ${interp.file} is not a compiled program (a script run by a script)`);
    const copy = await execOnlyCopy(interp.file, dir);
    return {
      file: copy,
      argv0: interp.argv0,
      args: [...interp.args, resolved, ...p.args],
      env: await withNodeFirst(interp.file, copy, p.env, dir),
      guard: { exec_only: true, from: copy },
    };
  } catch (err) {
    return asIs(`no execute-only copy could be made (${String((err as Error).message).slice(0, 300)})`);
  }
}

/** `execvp`'s search: a name with a slash is a path (from cwd), else the first executable file of that name on PATH. */
export function which(command: string, PATH: string | undefined, cwd: string): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : (PATH ?? '').split(':').map((d) => path.resolve(cwd, d || '.', command));
  for (const file of candidates) {
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The first bytes of a file; 'unreadable' for one its user may execute and not read (already execute-only). */
function readHead(file: string): Buffer | 'unreadable' | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EACCES') return undefined;
    try {
      accessSync(file, constants.X_OK);
      return 'unreadable';
    } catch {
      return undefined;
    }
  }
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    return buf.subarray(0, readSync(fd, buf, 0, HEAD_BYTES, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const isElf = (head: Buffer) => head.length >= 4 && head[0] === 0x7f && head.toString('latin1', 1, 4) === 'ELF';

interface Interpreter {
  /** The interpreter's file. */
  file: string;
  /** Its argv[0], as the kernel (or env) would give it. */
  argv0: string;
  /** Its arguments before the script's path. */
  args: string[];
}

/**
 * A `#!` line read as Linux reads it (fs/binfmt_script.c: the interpreter, then the rest of the
 * line as one argument), and `/usr/bin/env NAME` / `env -S NAME ARGS` as env reads it. A string
 * is why the script cannot be started from a copy of its interpreter.
 */
export function parseShebang(head: Buffer, PATH: string | undefined, cwd: string): Interpreter | string {
  if (head.toString('latin1', 0, 2) !== '#!') return 'neither a compiled program nor a #! script';
  const end = head.indexOf(0x0a);
  const line = head
    .toString('utf8', 2, end === -1 ? head.length : end)
    .replace(/^[ \t]+/, '')
    .replace(/[ \t]+$/, '');
  if (end === -1 && head.length >= HEAD_BYTES) return 'its #! line is longer than the kernel reads';
  const m = /^([^ \t]+)(?:[ \t]+(.*))?$/.exec(line);
  if (!m) return 'its #! line names no interpreter';
  const interp = m[1]!;
  const arg = m[2];
  if (path.basename(interp) !== 'env') return { file: path.resolve(cwd, interp), argv0: interp, args: arg === undefined ? [] : [arg] };
  if (arg === undefined) return 'its #! line runs env with no program';
  let words: string[];
  if (/^-S/.test(arg))
    words = arg
      .replace(/^-S/, '')
      .trim()
      .split(/[ \t]+/)
      .filter(Boolean);
  else if (/[ \t]/.test(arg)) return `its #! line gives env "${arg.slice(0, 80)}", which env would take as one program name`;
  else words = [arg];
  const program = words[0];
  if (program === undefined || program.startsWith('-') || program.includes('='))
    return `its #! line gives env options or variables (${arg.slice(0, 80)})`;
  const file = which(program, PATH, cwd);
  if (file === undefined) return `its interpreter ${program} is not on the server's PATH`;
  return { file, argv0: program, args: words.slice(1) };
}

/**
 * An execute-only copy of `source` in `dir`, made when absent. Node's own copy (the one
 * core-agent re-executed from) is used for the same node binary rather than made twice.
 */
async function execOnlyCopy(source: string, dir: string): Promise<string> {
  const real = await realpath(source);
  const st = await stat(real);
  if (path.basename(process.execPath) === nodeCopyName(real, st, process.version) && usableExecOnly(process.execPath, st.size))
    return process.execPath;
  const base = path.basename(real).replace(/[^\w.+-]/g, '_');
  const name = `bin-${base}-${fnv1a(`${real}\0${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`)}`;
  const copy = path.join(dir, name);
  if (usableExecOnly(copy, st.size)) return copy;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${copy}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    // A reflink where the file system has them: no second copy on disk.
    await copyFile(real, tmp, constants.COPYFILE_FICLONE);
    await chmod(tmp, 0o100);
    try {
      accessSync(tmp, constants.R_OK);
      throw new Error('the copy is readable all the same (a capability such as CAP_DAC_READ_SEARCH?)');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
    }
    await rename(tmp, copy);
  } finally {
    await rm(tmp, { force: true });
  }
  await pruneOlder(dir, `bin-${base}-`, name);
  return copy;
}

/**
 * For a Node program: PATH with a directory first whose `node` is the execute-only copy, so that
 * the node processes it starts by name are non-dumpable too (npx runs the package's
 * `#!/usr/bin/env node` binary that way).
 */
async function withNodeFirst(program: string, copy: string, env: Record<string, string>, dir: string): Promise<Record<string, string>> {
  if (!/^node(js)?(\d+)?$/.test(path.basename(program)) && !/^node(js)?(\d+)?$/.test(path.basename(await realpath(program)))) return env;
  const shim = path.join(dir, `path-${fnv1a(copy)}`);
  const link = path.join(shim, 'node');
  try {
    if ((await realpath(link)) === copy) return { ...env, PATH: joinPath(shim, env.PATH) };
  } catch {
    // Not made yet.
  }
  await mkdir(shim, { recursive: true, mode: 0o700 });
  const tmp = `${link}.${process.pid}.tmp`;
  await rm(tmp, { force: true });
  await symlink(copy, tmp);
  await rename(tmp, link);
  return { ...env, PATH: joinPath(shim, env.PATH) };
}

const joinPath = (first: string, rest: string | undefined) => (rest ? `${first}:${rest}` : first);

/** Copies of an older build of the same program go once they are an hour old (a server of it may be starting now). */
async function pruneOlder(dir: string, prefix: string, keep: string): Promise<void> {
  const hourAgo = Date.now() - 3600_000;
  for (const entry of await readdir(dir)) {
    if (entry === keep || !entry.startsWith(prefix) || entry.endsWith('.tmp')) continue;
    try {
      const file = path.join(dir, entry);
      if ((await stat(file)).mtimeMs < hourAgo) await rm(file, { force: true });
    } catch {
      // Gone already.
    }
  }
}

/**
 * The dumpable processes among `pid` and its descendants: a process is dumpable when its /proc
 * files belong to its own uid rather than root. Read from /proc/<pid>/stat (the parent pid),
 * which every process may read.
 */
export function dumpableIn(pid: number): Array<{ pid: number; command: string }> {
  const uid = process.geteuid?.();
  if (uid === undefined) return [];
  const parents = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const ppid = parentOf(Number(e));
    if (ppid === undefined) continue;
    const kids = parents.get(ppid);
    if (kids) kids.push(Number(e));
    else parents.set(ppid, [Number(e)]);
  }
  const found: Array<{ pid: number; command: string }> = [];
  const queue = [pid];
  for (let i = 0; i < queue.length && i < 1000; i++) {
    const p = queue[i]!;
    try {
      if (statSync(`/proc/${p}/environ`).uid === uid) found.push({ pid: p, command: commandOf(p) });
    } catch {
      // Gone.
    }
    queue.push(...(parents.get(p) ?? []));
  }
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    const text = readFileText(`/proc/${pid}/stat`);
    // The command is in parentheses and may hold anything: the fields after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileText(`/proc/${pid}/cmdline`).split('\0').filter(Boolean).join(' ').slice(0, 200);
  } catch {
    return '?';
  }
}

function readFileText(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, null));
  } finally {
    closeSync(fd);
  }
}
