import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const testServer = fileURLToPath(new URL('../fixtures/mcp/test-server.ts', import.meta.url));

/** A recipe fragment declaring the test server over stdio as `test` (YAML; JSON is YAML). */
export function stdioServer(extra: Record<string, unknown> = {}, name = 'test'): string {
  return JSON.stringify({ [name]: { command: process.execPath, args: [testServer], ...extra } });
}

export function recipeWith(servers: string, more = ''): string {
  return `mcp:\n  servers: ${servers}\n${more}`;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** The test server on Streamable HTTP, as a process; resolves with its URL. */
export function httpServer(env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [testServer, '--http', '0'], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, child });
    });
    child.on('exit', (code) => reject(new Error(`test server exited (${code})`)));
  });
}

/** Poll until `check` is true (list_changed and restarts arrive asynchronously). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
