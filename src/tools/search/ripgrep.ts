import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ToolError } from '../tool.ts';

export type SearchEngine = 'auto' | 'ripgrep' | 're2';

let located: string | null | undefined;

/**
 * Where the ripgrep binary is: an explicit path (recipe or CORE_AGENT_RIPGREP),
 * then `rg` beside the bundle (the build copies it to dist/), then the binary
 * inside the @vscode/ripgrep platform package during development. null when
 * none exists; callers then use the in-process RE2 engine.
 */
export function locateRipgrep(explicit?: string): string | null {
  if (explicit) return executable(explicit) ? explicit : null;
  if (located !== undefined) return located;
  const candidates: string[] = [];
  if (process.env.CORE_AGENT_RIPGREP) candidates.push(process.env.CORE_AGENT_RIPGREP);
  candidates.push(fileURLToPath(new URL('./rg', import.meta.url)));
  try {
    const req = createRequire(import.meta.url);
    const pkg = `@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`;
    candidates.push(req.resolve(pkg));
  } catch {
    // not installed for this platform, or running from a bundle without node_modules
  }
  located = candidates.find(executable) ?? null;
  return located;
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Pick the engine for one call: an explicit choice is honoured or refused, never silently swapped. */
export function chooseEngine(settings: Readonly<Record<string, unknown>>): { kind: 'ripgrep'; rg: string } | { kind: 're2' } {
  const engine = (settings.engine as SearchEngine | undefined) ?? 'auto';
  if (engine === 're2') return { kind: 're2' };
  const rg = locateRipgrep(settings.ripgrep_path as string | undefined);
  if (rg) return { kind: 'ripgrep', rg };
  if (engine === 'ripgrep') {
    throw new ToolError('the ripgrep binary was not found (set tools.<tool>.ripgrep_path, or engine: auto to use the built-in engine)');
  }
  return { kind: 're2' };
}

export interface RipgrepRun {
  /** Resolves when rg exits or is stopped; `stderr` holds its complaints. */
  done: Promise<{ code: number | null; stderr: string; stopped: boolean }>;
  stop(): void;
}

/**
 * Run rg with arguments we built ourselves (the model supplies values, never
 * flags: its pattern goes in as `--regexp=…` and paths after `--`), feeding each
 * NUL- or newline-terminated record to `onRecord`. `--no-config` keeps a
 * RIPGREP_CONFIG_PATH from adding flags such as --pre.
 */
export function runRipgrep(
  rg: string,
  args: readonly string[],
  cwd: string,
  separator: '\n' | '\0',
  onRecord: (record: string) => boolean | void,
  signal: AbortSignal,
): RipgrepRun {
  const child = spawn(rg, ['--no-config', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stopped = false;
  const stop = () => {
    if (!stopped) {
      stopped = true;
      child.kill('SIGKILL');
    }
  };
  signal.addEventListener('abort', stop, { once: true });
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (stopped) return;
    pending += chunk;
    let start = 0;
    for (let end = pending.indexOf(separator); end !== -1; end = pending.indexOf(separator, start)) {
      const record = pending.slice(start, end);
      start = end + 1;
      if (onRecord(record) === false) {
        stop();
        return;
      }
    }
    pending = pending.slice(start);
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stderr: string; stopped: boolean }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (!stopped && pending.length > 0) onRecord(pending);
      resolve({ code, stderr, stopped });
    });
  });
  return { done, stop };
}
