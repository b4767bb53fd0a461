/**
 * Output larger than the caps, from the shell tools that show an end: bash's output and
 * wait_join's output_tail keep the END (the error summary, a server's last lines), fitted
 * to the caps by the tool, which count JSON bytes (ESC, a quote, a backslash take more)
 * and would keep the head; terminal_output's reads, concatenated, are the whole output
 * (a read the caps cut would skip what lay between its end and next_cursor).
 */
export interface ShellTailCase {
  what: string;
  tool: 'bash' | 'wait_join' | 'terminal_output';
  /** A command whose output ends with `end` (printf escapes: \\033 is ESC). */
  command: string;
  /** tool_output.max_bytes / max_lines for the three tools. */
  caps: { max_bytes?: number; max_lines?: number };
  end: string;
}

const END = 'error: the end';
const loop = (n: number, line: string) => `for i in $(seq 1 ${n}); do printf '${line}\\n'; done; echo "${END}"`;

export const SHELL_TAIL_CASES: readonly ShellTailCase[] = [
  {
    what: 'colored output (ESC is six JSON bytes)',
    tool: 'bash',
    command: loop(2000, '\\033[31mE\\033[0m x'),
    caps: { max_bytes: 8192 },
    end: END,
  },
  { what: 'quotes and backslashes', tool: 'bash', command: loop(3000, '"\\\\\\\\"'), caps: { max_bytes: 8192 }, end: END },
  { what: 'many short lines', tool: 'bash', command: 'seq 1 50000; echo "error: the end"', caps: { max_lines: 100 }, end: END },
  {
    what: 'one line longer than the cap',
    tool: 'bash',
    command: `head -c 20000 /dev/zero | tr '\\0' a; echo " ${END}"`,
    caps: { max_bytes: 8192 },
    end: END,
  },
  { what: 'colored output', tool: 'wait_join', command: loop(2000, '\\033[31mE\\033[0m x'), caps: { max_bytes: 8192 }, end: END },
  { what: 'many short lines', tool: 'wait_join', command: 'seq 1 50000; echo "error: the end"', caps: { max_lines: 100 }, end: END },
  {
    what: 'colored output read in steps',
    tool: 'terminal_output',
    command: loop(2000, '\\033[31mE\\033[0m x'),
    caps: { max_bytes: 8192 },
    end: END,
  },
  { what: 'quotes read in steps', tool: 'terminal_output', command: loop(3000, '"\\\\\\\\"'), caps: { max_bytes: 8192 }, end: END },
];
