/**
 * Ways a command leaves a process running after its shell is gone, one line
 * each. `command(secs, bin)` starts something that sleeps for `secs` seconds —
 * a number unique to the test, so `pgrep -f secs` finds exactly it — and leaves
 * it running; the runner puts `echo started` after it (and, for the deadline,
 * a `sleep 30` the timeout cuts). Every case must end with nothing left running.
 */
export interface Bins {
  node: string;
  python3: string | undefined;
  perl: string | undefined;
}

export interface EscapeCase {
  name: string;
  command: (secs: string, bin: Bins) => string;
  /** It leaves the process group, so the result lists it (one that stays is stopped by the group kill, unlisted). */
  escapes: boolean;
  needs?: 'python3' | 'perl';
  /** It ignores SIGTERM: it gets SIGKILL after the grace period. */
  ignoresTerm?: boolean;
  /**
   * Found only by the output pipe it holds (`env -i` dropped the tag). The
   * shell's end of the pipe is read right after the spawn, which a shell that
   * exits within microseconds can beat: only checked while the shell lives on.
   */
  pipeOnly?: boolean;
}

export const ESCAPE_CASES: readonly EscapeCase[] = [
  { name: 'setsid in the background', command: (s) => `setsid sleep ${s} &`, escapes: true },
  { name: 'setsid -f (it forks itself)', command: (s) => `setsid -f sleep ${s}`, escapes: true },
  { name: 'setsid inside a subshell', command: (s) => `(setsid sleep ${s} &)`, escapes: true },
  { name: 'setsid, output to /dev/null', command: (s) => `setsid sleep ${s} >/dev/null 2>&1 &`, escapes: true },
  { name: 'setsid -f, output to /dev/null', command: (s) => `setsid -f sleep ${s} >/dev/null 2>&1`, escapes: true },
  { name: 'nohup setsid, output to a file', command: (s) => `nohup setsid sleep ${s} >nohup.out 2>&1 &`, escapes: true },
  { name: 'double fork: a setsid shell that exits at once', command: (s) => `setsid sh -c 'sleep ${s} & exit 0' &`, escapes: true },
  { name: 'double fork, output closed', command: (s) => `setsid sh -c 'exec >&- 2>&-; sleep ${s} &' &`, escapes: true },
  { name: 'a daemon that ignores SIGTERM', command: (s) => `setsid sh -c "trap '' TERM; sleep ${s}" &`, escapes: true, ignoresTerm: true },
  { name: 'bash job control (set -m)', command: (s) => `bash -c 'set -m; sleep ${s} &'`, escapes: true },
  {
    name: 'python os.setpgrp()',
    command: (s, b) => `${b.python3} -c 'import os, time; os.setpgrp(); time.sleep(${s})' &`,
    escapes: true,
    needs: 'python3',
  },
  { name: 'perl setpgrp', command: (s, b) => `${b.perl} -e 'setpgrp(0, 0); sleep(${s})' &`, escapes: true, needs: 'perl' },
  {
    name: 'node spawn({ detached: true }) (setsid), output inherited',
    command: (s, b) => `${b.node} -e 'require("child_process").spawn("sleep", ["${s}"], { detached: true, stdio: "inherit" }).unref()'`,
    escapes: true,
  },
  {
    name: 'node spawn({ detached: true }), output ignored',
    command: (s, b) => `${b.node} -e 'require("child_process").spawn("sleep", ["${s}"], { detached: true, stdio: "ignore" }).unref()'`,
    escapes: true,
  },
  {
    name: 'env -i setsid (no tag), holding the output',
    command: (s) => `env -i /usr/bin/setsid /usr/bin/sleep ${s} &`,
    escapes: true,
    pipeOnly: true,
  },
  // Those that stay in the group: the group kill takes them.
  { name: 'nohup in the background', command: (s) => `nohup sleep ${s} >/dev/null 2>&1 &`, escapes: false },
  { name: 'bash: disown', command: (s) => `bash -c 'sleep ${s} & disown'`, escapes: false },
  { name: 'a plain background job that ignores SIGTERM', command: (s) => `sh -c "trap '' TERM; sleep ${s}" &`, escapes: false },
];
