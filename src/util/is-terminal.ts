import { fstatSync, statSync } from 'node:fs';

/**
 * Whether the descriptor is a terminal, as isatty(3) says, loading node:tty only for a
 * descriptor that can be one. A terminal is a character device, so a pipe, a socket, a regular
 * file or a closed descriptor is answered by one fstat; so is /dev/null (a service's or a CI
 * job's stdin), by its device number. node:tty (its streams, with node:net) cost a replayed run
 * about 5 ms of its start (docs/benchmarks.md).
 */
export function isTerminal(fd: number): boolean {
  let rdev: number;
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    rdev = st.rdev;
  } catch {
    return false; // EBADF: isatty says no for a closed descriptor too
  }
  if (rdev === devNull()) return false;
  // Loaded here, not imported: node:tty is the cost this function exists to avoid.
  const { isatty } = process.getBuiltinModule('node:tty');
  return isatty(fd);
}

let devNullRdev: number | null | undefined;
function devNull(): number | null {
  if (devNullRdev === undefined) {
    try {
      devNullRdev = statSync('/dev/null').rdev;
    } catch {
      devNullRdev = null;
    }
  }
  return devNullRdev;
}
