import path from 'node:path';
import picomatch from 'picomatch';
import { basename } from './shell-words.ts';
import { commandLayers, shellInvocation, SHELLS } from './wrappers.ts';

/**
 * The denylist's checks on one simple command, given its argv with quotes
 * removed and `$HOME`/`${HOME}` kept as written (shell-words.ts looseWord).
 * Verbs are matched by base name, through wrapper verbs (wrappers.ts); options
 * are read the GNU way — combined or separate, long or short, before or after
 * the operands, until `--`.
 */
export const REASONS = {
  remove: 'recursive removal of /, a top-level system directory or the home directory',
  chmod: 'recursive chmod, chown or chgrp of / or a top-level system directory',
  format: 'formatting a filesystem (mkfs, mke2fs, mkswap on a device)',
  device: 'writing over a disk device',
  wipe: 'wiping data beyond recovery (shred, wipefs, blkdiscard)',
  partition: 'rewriting a disk’s partition table (fdisk, sfdisk, gdisk, parted)',
  forkBomb: 'a fork bomb',
  download: 'downloading and executing a script (curl/wget piped to a shell)',
} as const;

/** Top-level directories of a Linux system (FHS): removing or re-owning one recursively wrecks the machine. */
const SYSTEM_DIRS = [
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'srv',
  'sys',
  'usr',
  'var',
];

/** A path as written, reduced to its base (`/` or the home directory) and what follows; null when relative. */
function anchored(target: string): { base: 'root' | 'home'; segments: string[]; aboveHome: boolean } | null {
  // $HOME, ${HOME}, ${HOME:?}, ${HOME:-/root}, ~, ~user
  const home = /^(?:\$HOME|\$\{HOME(?::?[-=?+][^}]*)?\}|~[A-Za-z0-9._-]*)(?=\/|$)/.exec(target);
  let base: 'root' | 'home';
  let rest: string;
  if (home) {
    base = 'home';
    rest = target.slice(home[0].length);
  } else if (target.startsWith('/')) {
    base = 'root';
    rest = target;
  } else return null;
  const segments: string[] = [];
  let aboveHome = false;
  for (const s of rest.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (segments.length > 0) segments.pop();
      else if (base === 'home') aboveHome = true;
    } else segments.push(s);
  }
  return { base, segments, aboveHome };
}

const matchesSystemDir = (glob: string) => {
  const match = picomatch(glob, { dot: true });
  return SYSTEM_DIRS.some((d) => match(d));
};
const everything = (glob: string) => glob === '*' || glob === '.*' || glob === '{*,.*}' || glob === '{.*,*}';

/**
 * `/`, `//`, `/.`, `/..`, `/*`, `/b*`, `/usr`, `/usr/*`, `~`, `~/`, `~/*`, `~/..`,
 * `$HOME`, `${HOME}/`, `$HOME/*`: the root, a top-level system directory, the
 * home directory, or everything in one of them.
 */
export function wholeSystemOrHome(target: string, includeHome: boolean): boolean {
  const t = anchored(target);
  if (!t) return false;
  const [first, second, ...more] = t.segments;
  if (t.base === 'home') return includeHome && (t.aboveHome || first === undefined || (second === undefined && everything(first)));
  if (first === undefined) return true;
  if (more.length > 0) return false;
  if (second === undefined) return matchesSystemDir(first);
  return SYSTEM_DIRS.includes(first) && everything(second);
}

const BLOCK_DEVICE =
  /^\/dev\/(?:(?:sd|hd|vd|xvd)[a-z]+\d*|nvme\d+(?:n\d+(?:p\d+)?)?|mmcblk\d+(?:p\d+|boot\d+)?|dm-\d+|md\d+(?:p\d+)?|mapper\/[^/]+|disk\/by-[^/]+\/[^/]+)$/;

/** A disk, a partition or a device-mapper volume, however the path is spelled (`/dev//sda`, `/dev/./sda1`). */
export function isBlockDevice(target: string): boolean {
  return target.startsWith('/') && BLOCK_DEVICE.test(path.posix.normalize(target).replace(/\/$/, ''));
}

/** An argv split GNU-style into options and operands: options anywhere until `--`. */
function options(args: readonly string[]): { opts: string[]; operands: string[] } {
  const opts: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') ended = true;
    else if (!ended && a.length > 1 && a.startsWith('-')) opts.push(a);
    else operands.push(a);
  }
  return { opts, operands };
}

/** A short option letter in any cluster, or a long option (or an unambiguous getopt prefix of it). */
function hasOption(opts: readonly string[], letters: string, long?: string): boolean {
  return opts.some((o) =>
    o.startsWith('--')
      ? long !== undefined && o.length > 2 && long.startsWith(o.split('=', 1)[0]!)
      : [...o.slice(1)].some((c) => letters.includes(c)),
  );
}

const FORMATTERS = /^(?:mkfs(?:\..+)?|mke2fs|mkdosfs|mkntfs|mkexfatfs)$/;
const SFDISK_READS = ['-l', '--list', '-d', '--dump', '-J', '--json', '-s', '--show-size', '-V', '--verify', '-g', '--show-geometry'];
const SGDISK_READS = ['-p', '--print', '-i', '--info', '-v', '--verify', '-P', '--pretend', '-O', '--print-mbr'];
const PARTED_WRITES = new Set([
  'mklabel',
  'mktable',
  'mkpart',
  'mkpartfs',
  'rm',
  'resizepart',
  'resize',
  'rescue',
  'name',
  'set',
  'toggle',
]);

/** Why one command (one layer of its wrappers) is refused, or null. */
function checkLayer(argv: readonly string[]): string | null {
  const verb = basename(argv[0] ?? '');
  const args = argv.slice(1);
  const { opts, operands } = options(args);
  switch (verb) {
    case 'rm':
      // -f or not: with stdin closed nothing prompts, so `rm -r /` is `rm -rf /`.
      return hasOption(opts, 'rR', '--recursive') && operands.some((t) => wholeSystemOrHome(t, true)) ? REASONS.remove : null;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return hasOption(opts, 'R', '--recursive') && operands.some((t) => wholeSystemOrHome(t, false)) ? REASONS.chmod : null;
    case 'mkswap':
      return operands.some(isBlockDevice) ? REASONS.format : null;
    case 'shred':
    case 'blkdiscard':
      return REASONS.wipe;
    case 'wipefs':
      // Without --all or --offset it only lists the signatures.
      return hasOption(opts, 'ao', '--all') || hasOption(opts, '', '--offset') ? REASONS.wipe : null;
    case 'dd':
      return args.some((a) => a.startsWith('of=') && isBlockDevice(a.slice(3))) ? REASONS.device : null;
    case 'tee':
      return operands.some(isBlockDevice) ? REASONS.device : null;
    case 'cp':
    case 'install': {
      const target = opts.find((o) => o.startsWith('--target-directory='))?.slice('--target-directory='.length);
      const t = args.indexOf('-t');
      return [target, t === -1 ? undefined : args[t + 1], operands.at(-1)].some((d) => d !== undefined && isBlockDevice(d))
        ? REASONS.device
        : null;
    }
    case 'fdisk':
    case 'cfdisk':
    case 'gdisk':
      return operands.some(isBlockDevice) && !hasOption(opts, 'l', '--list') ? REASONS.partition : null;
    case 'sfdisk':
      return operands.some(isBlockDevice) && !opts.some((o) => SFDISK_READS.includes(o.split('=', 1)[0]!)) ? REASONS.partition : null;
    case 'sgdisk':
      return operands.some(isBlockDevice) && !opts.every((o) => SGDISK_READS.includes(o.split('=', 1)[0]!)) ? REASONS.partition : null;
    case 'parted':
      return operands.some(isBlockDevice) && operands.some((w) => PARTED_WRITES.has(w)) ? REASONS.partition : null;
    default:
      return FORMATTERS.test(verb) ? REASONS.format : null;
  }
}

/** Why this argv is refused, looking through its wrappers (`sudo timeout 5 rm -rf /`), or null. */
export function checkArgv(argv: readonly string[]): string | null {
  for (const layer of commandLayers(argv)) {
    const reason = checkLayer(layer);
    if (reason) return reason;
  }
  return null;
}

export const DOWNLOADERS = new Set(['curl', 'wget']);

/** The argv runs curl or wget (through any wrapper). */
export function downloads(argv: readonly string[]): boolean {
  return commandLayers(argv).some((l) => DOWNLOADERS.has(basename(l[0] ?? '')));
}

/** The argv is a shell that reads its commands from stdin (`sh`, `sudo bash -s --`), so a pipe into it runs what arrives. */
export function stdinShell(argv: readonly string[]): boolean {
  return commandLayers(argv).some((l) => SHELLS.has(basename(l[0] ?? '')) && shellInvocation(l).readsStdin);
}

/** Text that runs a download where the shell reads it: `$(curl …)`, `` `wget …` ``, `<(curl …)`. */
export const SUBSTITUTED_DOWNLOAD = /(?:\$\(|`|<\()\s*(?:[^\s)`]{1,64}\s+){0,6}?(?:[^\s)`]{0,64}\/)?(?:curl|wget)(?:[\s)`]|$)/;

/** The classic fork bomb and its renamings, as text: `:(){ :|:& };:`, `bomb(){ bomb|bomb& };bomb`. */
export const FORK_BOMB = /(?<![\w:.-])([A-Za-z_:.][\w:.-]{0,63})\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*;?\s*\}\s*;?\s*\1/;
