import { closeSync, existsSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { parseStat } from '../tools/shell/procfs.ts';
import { looksSecret } from '../util/secret-names.ts';
import { isDumpable } from './non-dumpable.ts';

/**
 * Credentials out of core-agent's own /proc/PID/environ. bash never gets the
 * secret-looking variables, but every process of the same user may read
 * /proc/<core-agent>/environ — the environment block exactly as it was exec'd,
 * which `delete process.env.X` does not touch. So, once at start-up, before any
 * child exists: each such variable is set again (glibc's setenv copies it to the
 * heap and points `environ` there, so the process keeps its value), and then its
 * value's bytes in the original block are overwritten in place through
 * /proc/self/mem — the range /proc/self/stat gives (env_start, env_end) — with a
 * filler of the same length, so the block keeps its layout and names.
 *
 * The heap copy remains; reading it takes ptrace rights over core-agent
 * (/proc/PID/mem), which a same-user process has where Yama's ptrace_scope is 0
 * and core-agent is dumpable. A non-dumpable core-agent (non-dumpable.ts: the
 * image, or re-executed from an execute-only node) needs none of this: its
 * /proc files are root's, another process reads neither environ nor mem — and
 * nor may it open its own environ or mem, so the scrub is not tried there.
 */

export type ScrubOutcome =
  | { status: 'nothing' }
  | { status: 'scrubbed'; names: string[] }
  /** Nothing to do: no other process of this user may read this one's /proc/PID/environ. */
  | { status: 'non-dumpable' }
  /** Not Linux: there is no /proc/PID/environ to read (other systems have their own ways: docs/shell.md). */
  | { status: 'no-proc' }
  | { status: 'failed'; names: string[]; reason: string };

const FILLER = 0x2a; // '*'

let outcome: ScrubOutcome | undefined;
let warned = false;

/** Scrub once (later calls return the first outcome). */
export function scrubSecretsFromEnviron(env: NodeJS.ProcessEnv = process.env): ScrubOutcome {
  outcome ??= scrub(env);
  return outcome;
}

/** The warning to log about a scrub that failed, once per process (undefined when there is none). */
export function takeScrubWarning(): { names: string[]; reason: string } | undefined {
  if (outcome?.status !== 'failed' || warned) return undefined;
  warned = true;
  return { names: outcome.names, reason: outcome.reason };
}

function scrub(env: NodeJS.ProcessEnv): ScrubOutcome {
  const wanted = Object.keys(env).filter((k) => looksSecret(k) && env[k]);
  if (wanted.length === 0) return { status: 'nothing' };
  if (!existsSync('/proc/self/environ')) return { status: 'no-proc' };
  if (isDumpable() === false) return { status: 'non-dumpable' };
  const values = new Map(wanted.map((k) => [k, env[k]]));
  try {
    const stat = parseStat(readFileSync('/proc/self/stat', 'latin1'));
    if (!stat || !(stat.envEnd > stat.envStart)) throw new Error('/proc/self/stat has no environment range');
    const fd = openSync('/proc/self/mem', 'r+');
    try {
      const block = Buffer.alloc(stat.envEnd - stat.envStart);
      readSync(fd, block, 0, block.length, stat.envStart);
      // First give the process its own copy of each value, then blank the original.
      // A value that is not valid UTF-8 cannot be set again byte for byte from
      // JavaScript (it would change): it is left, and the check below names it.
      const ranges = secretValues(block).filter((r) => env[r.name] !== undefined && Buffer.from(env[r.name]!, 'utf8').equals(r.raw));
      // Not a no-op: the assignment is a setenv(), which copies the value to the heap.
      for (const r of ranges) env[r.name] = env[r.name]!;
      for (const r of ranges) writeSync(fd, Buffer.alloc(r.length, FILLER), 0, r.length, stat.envStart + r.offset);
    } finally {
      closeSync(fd);
    }
    // Verify what another process would read, and that this one still has the values.
    const left = secretValues(readFileSync('/proc/self/environ')).filter((r) => !r.blank);
    if (left.length > 0) throw new Error(`still readable after the overwrite: ${left.map((r) => r.name).join(', ')}`);
    // Exactly the value it had: a setenv that had not copied would now read the filler.
    const lost = wanted.filter((k) => env[k] !== values.get(k));
    if (lost.length > 0) throw new Error(`lost their value: ${lost.join(', ')}`);
    return { status: 'scrubbed', names: wanted };
  } catch (err) {
    return { status: 'failed', names: wanted, reason: (err as Error).message.slice(0, 300) };
  }
}

/** The secret-looking entries of an environment block: where each value lies, and whether it is already blank. */
function secretValues(block: Buffer): Array<{ name: string; raw: Buffer; offset: number; length: number; blank: boolean }> {
  const out: Array<{ name: string; raw: Buffer; offset: number; length: number; blank: boolean }> = [];
  let at = 0;
  while (at < block.length) {
    let end = block.indexOf(0, at);
    if (end < 0) end = block.length;
    const eq = block.indexOf(0x3d, at); // '='
    if (eq > at && eq < end) {
      const name = block.toString('utf8', at, eq);
      const value = block.subarray(eq + 1, end);
      if (looksSecret(name) && value.length > 0) {
        out.push({
          name,
          raw: value,
          offset: eq + 1,
          length: value.length,
          blank: value.every((b) => b === FILLER),
        });
      }
    }
    at = end + 1;
  }
  return out;
}
