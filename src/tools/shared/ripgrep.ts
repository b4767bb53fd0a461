import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/v4';
import { ToolError } from '../framework/tool.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** An rg binary to prefer over the bundled one (CORE_AGENT_RIPGREP; the root sets it for the search engine). */
    readonly ripgrepPath?: string | undefined;
  }
}

export type SearchEngine = 'auto' | 'ripgrep' | 're2';

/** `tools.grep` and `tools.glob`: which engine lists and searches files. */
export const searchEngineSettings = z.strictObject({
  engine: z
    .enum(['auto', 'ripgrep', 're2'])
    .default('auto')
    .describe('auto: ripgrep when its binary is found, else the in-process RE2 engine.'),
  ripgrep_path: z.string().min(1).optional().describe('Path to an rg binary to use instead of the bundled one.'),
});

/** Found binaries, by the configured path they were looked for with ('' for none). */
const located = new Map<string, string | null>();

/**
 * Where the ripgrep binary is: an explicit path (the recipe's ripgrep_path), then
 * the run's configured one (CORE_AGENT_RIPGREP, read by the composition root),
 * then `rg` beside the bundle (the build copies it to dist/), then the binary
 * inside the @vscode/ripgrep platform package during development. null when
 * none exists; callers then use the in-process RE2 engine.
 */
export function locateRipgrep(explicit?: string, configured?: string): string | null {
  if (explicit) return executable(explicit) ? explicit : null;
  const known = located.get(configured ?? '');
  if (known !== undefined) return known;
  const candidates: string[] = [];
  if (configured) candidates.push(configured);
  candidates.push(fileURLToPath(new URL('./rg', import.meta.url)));
  try {
    const req = createRequire(import.meta.url);
    const pkg = `@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`;
    candidates.push(req.resolve(pkg));
  } catch {
    // not installed for this platform, or running from a bundle without node_modules
  }
  const found = candidates.find(executable) ?? null;
  located.set(configured ?? '', found);
  return found;
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
export function chooseEngine(
  settings: { readonly engine?: SearchEngine; readonly ripgrep_path?: string | undefined },
  configured: string | undefined,
): { kind: 'ripgrep'; rg: string } | { kind: 're2' } {
  const engine = settings.engine ?? 'auto';
  if (engine === 're2') return { kind: 're2' };
  const rg = locateRipgrep(settings.ripgrep_path, configured);
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
