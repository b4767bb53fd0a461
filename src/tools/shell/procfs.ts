import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The few facts about other processes that Linux's /proc gives and Node does not:
 * a process's group, start time (to tell a process from a later one that reuses
 * its pid), environment and open files. Everything here is best effort — a
 * process can vanish between two reads — so a failed read is "no such process",
 * never an exception. Elsewhere (macOS, a sandbox without /proc) `procAvailable()`
 * is false and callers fall back to what plain signals can do.
 */

export interface ProcStat {
  pid: number;
  /** The executable's name as the kernel keeps it (at most 15 characters). */
  comm: string;
  /** R, S, D, Z (zombie: exited, waiting to be reaped), T, … */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** Clock ticks after boot at which it started (field 22 of /proc/PID/stat). */
  startTime: number;
  /** Where the environment block starts and ends in its memory (fields 50 and 51). */
  envStart: number;
  envEnd: number;
}

/** Processes examined in one scan at most: bounds the cost on a machine with a huge process table. */
export const MAX_SCAN = 32_768;

export function procAvailable(): boolean {
  return existsSync('/proc/self/stat');
}

/**
 * Parse /proc/PID/stat. The name (field 2) is in parentheses and may itself hold
 * spaces and ')', so the fields are counted from after the last ')'.
 */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // rest[0] is field 3 (state): field N is rest[N - 3].
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (n: number) => Number(rest[n - 3]);
  const stat = {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state: rest[0] ?? '?',
    ppid: field(4),
    pgid: field(5),
    sid: field(6),
    startTime: field(22),
    envStart: field(50),
    envEnd: field(51),
  };
  return Number.isInteger(stat.pid) && Number.isFinite(stat.startTime) ? stat : undefined;
}

export function readStat(pid: number | 'self'): ProcStat | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** Whether `pid` is still the process that started at `startTime`, and not a zombie. */
export function sameProcess(pid: number, startTime: number): boolean {
  const s = readStat(pid);
  return s !== undefined && s.startTime === startTime && s.state !== 'Z';
}

/** The pids in /proc, at most MAX_SCAN of them. */
export function listPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const n of names) {
    if (n.charCodeAt(0) < 48 || n.charCodeAt(0) > 57) continue;
    pids.push(Number(n));
    if (pids.length >= MAX_SCAN) break;
  }
  return pids;
}

/** The environment block a process was started with (NUL-separated), if we may read it. */
export function readEnviron(pid: number): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
}

/** What each open file descriptor of `pid` points at ("socket:[123]", "pipe:[45]", a path). */
export function fdTargets(pid: number | 'self', fds?: readonly number[]): string[] {
  const out: string[] = [];
  let list: readonly (number | string)[];
  try {
    list = fds ?? readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of list) {
    try {
      out.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return out;
}

/** Its command line, NULs as spaces, cut to `max` characters (for reports). */
export function commandLine(pid: number, max = 120): string {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
    return raw.length > max ? `${raw.slice(0, max)}…` : raw;
  } catch {
    return '';
  }
}

/** This boot's id: start times count from boot, so a record from another boot names nobody alive. */
export function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}
