import { basename } from './shell-words.ts';

/**
 * Wrapper verbs: commands that run another command given in their own argv
 * (`sudo rm …`, `timeout 10 rm …`, `xargs rm …`). The denylist and the
 * `tool.bash.cmd` rules look through them to the verb that really runs.
 */
interface Wrapper {
  /** Short options that take a value (attached, `-uroot`, or as the next word). */
  readonly valueShort?: string;
  /** Long options that take the next word as their value when written without `=`. */
  readonly valueLong?: readonly string[];
  /** Short options after which nothing is run (`command -v rm` only prints a path). */
  readonly runsNothing?: string;
  /** Words before the command that are not options: timeout's duration, chroot's new root. */
  readonly operands?: number;
  /** `NAME=value` words before the command (env). */
  readonly assignments?: boolean;
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    valueShort: 'ugCDhprtTU',
    valueLong: [
      '--user',
      '--group',
      '--close-from',
      '--chdir',
      '--host',
      '--prompt',
      '--role',
      '--type',
      '--other-user',
      '--command-timeout',
    ],
    runsNothing: 'lvkKVe',
  },
  doas: { valueShort: 'uCa' },
  env: { valueShort: 'uCP', valueLong: ['--unset', '--chdir'], assignments: true },
  nice: { valueShort: 'n', valueLong: ['--adjustment'] },
  nohup: {},
  time: { valueShort: 'fo', valueLong: ['--format', '--output'] },
  command: { runsNothing: 'vV' },
  exec: { valueShort: 'a' },
  builtin: {},
  xargs: {
    valueShort: 'adEILnPs',
    valueLong: [
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  timeout: { valueShort: 'sk', valueLong: ['--signal', '--kill-after'], operands: 1 },
  stdbuf: { valueShort: 'ioe', valueLong: ['--input', '--output', '--error'] },
  ionice: { valueShort: 'cn', valueLong: ['--class', '--classdata'], runsNothing: 'p' },
  setsid: {},
  chroot: { valueLong: ['--userspec', '--groups'], operands: 1 },
  busybox: {},
};

/** The argv a wrapper runs, or null when it runs nothing it names. */
function unwrapOnce(w: Wrapper, argv: readonly string[]): string[] | null {
  let i = 1;
  while (i < argv.length) {
    const a = argv[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (a.startsWith('--')) {
      i += !a.includes('=') && w.valueLong?.includes(a) ? 2 : 1;
      continue;
    }
    if (a.length > 1 && a.startsWith('-')) {
      let step = 1;
      for (let j = 1; j < a.length; j++) {
        if (w.runsNothing?.includes(a[j]!)) return null;
        if (w.valueShort?.includes(a[j]!)) {
          step = j === a.length - 1 ? 2 : 1;
          break;
        }
      }
      i += step;
      continue;
    }
    if (w.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      i++;
      continue;
    }
    break;
  }
  i += w.operands ?? 0;
  return i < argv.length ? argv.slice(i) : null;
}

/** find's -exec/-execdir/-ok/-okdir commands, each up to its `;` or `+`. */
function findExecs(argv: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 1; i < argv.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(argv[i]!)) continue;
    const end = argv.findIndex((a, j) => j > i && (a === ';' || a === '+'));
    out.push(argv.slice(i + 1, end === -1 ? undefined : end));
    i = end === -1 ? argv.length : end;
  }
  return out.filter((c) => c.length > 0);
}

/**
 * Every command this argv runs: itself, then what each wrapper layer runs
 * (`sudo nice -n 5 rm -rf /` → sudo…, nice…, rm -rf /), and find's -exec commands.
 */
export function commandLayers(argv: readonly string[]): string[][] {
  const layers: string[][] = [];
  let current: readonly string[] | null = argv;
  for (let depth = 0; current && current.length > 0 && depth < 16; depth++) {
    layers.push([...current]);
    const verb = basename(current[0]!);
    if (verb === 'find') for (const c of findExecs(current)) layers.push(...commandLayers(c));
    const w = WRAPPERS[verb];
    current = w ? unwrapOnce(w, current) : null;
  }
  return layers;
}

export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'yash', 'fish']);

/**
 * A command line this argv hands to a shell as text: `sh -c '…'` (any shell, any
 * option cluster with c), `eval …`, `su -c '…'`, `env -S '…'`, `watch '…'`.
 */
export function shellScript(argv: readonly string[]): string | null {
  const verb = basename(argv[0] ?? '');
  if (verb === 'eval') return argv.slice(1).join(' ');
  if (SHELLS.has(verb)) return shellInvocation(argv).script;
  const valueOf = (short: string, long: string): string | null => {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === short || a === long) return argv[i + 1] ?? null;
      if (a.startsWith(`${long}=`)) return a.slice(long.length + 1);
      if (a.startsWith(short) && a.length > 2 && !a.startsWith('--')) return a.slice(2);
    }
    return null;
  };
  if (verb === 'su') return valueOf('-c', '--command');
  if (verb === 'env') return valueOf('-S', '--split-string');
  if (verb === 'watch') {
    const w = unwrapOnce({ valueShort: 'nq', valueLong: ['--interval', '--equexit'] }, argv);
    return w && !argv.includes('-x') && !argv.includes('--exec') ? w.join(' ') : null;
  }
  return null;
}

/** A shell's own options: the -c script, or whether it reads its commands from stdin. */
export function shellInvocation(argv: readonly string[]): { script: string | null; readsStdin: boolean } {
  let hasC = false;
  let hasS = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || a === '-') {
      i++;
      break;
    }
    if (a === '-o' || a === '+o' || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') {
      i++;
      continue;
    }
    if (a.startsWith('--')) continue;
    if ((a.startsWith('-') || a.startsWith('+')) && a.length > 1) {
      if (a.includes('c')) hasC = true;
      if (a.includes('s')) hasS = true;
      continue;
    }
    break;
  }
  if (hasC) return { script: argv[i] ?? null, readsStdin: false };
  return { script: null, readsStdin: hasS || i >= argv.length };
}
