import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const bundle = fileURLToPath(new URL('../../dist/core-agent.mjs', import.meta.url));

/**
 * Run the built CLI as a separate process without blocking this one — needed
 * whenever the other end (a fake provider, a webhook) is a server in this process.
 */
export function runCli(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bundle, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
