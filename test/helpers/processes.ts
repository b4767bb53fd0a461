import { execFileSync } from 'node:child_process';

/** Live processes whose command line contains `marker` (zombies have none): to prove nothing was left behind. */
export function running(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
