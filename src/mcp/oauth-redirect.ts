import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListenerHostPolicy } from '../net/listener-host.ts';

/** How long a login waits for the browser to come back. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;
const CALLBACK_PATH = '/oauth/callback';
/** Bound to 127.0.0.1 and nothing configurable: the redirect URI names the loopback address. */
const REDIRECT_HOSTS = new ListenerHostPolicy({ bind: '127.0.0.1' });

/**
 * The loopback redirect of an authorization-code login (RFC 8252 §7.3): an HTTP
 * listener on 127.0.0.1 that takes the one redirect carrying our `state` and
 * hands its code over. It prefers the port the client was registered with, so a
 * stored registration stays valid, and takes any free port otherwise.
 */
export class LoopbackRedirect {
  private server: Server | undefined;
  private port = 0;
  private waiting: { state: string; resolve: (code: string) => void; reject: (err: Error) => void } | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  async listen(preferred?: string): Promise<void> {
    if (this.server) return;
    const want = preferred ? Number(new URL(preferred).port) || 0 : 0;
    // node:http only when a login needs the listener: `tools list` and most runs never load it.
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => this.onRequest(req, res));
    const bind = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    await bind(want).catch(() => bind(0));
    server.unref();
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** The code the browser brings back for this state, or an error by the deadline. */
  waitForCode(state: string, timeoutMs = LOGIN_TIMEOUT_MS): Promise<string> {
    this.waiting?.reject(new Error('a newer login replaced this one'));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no browser came back to ${this.url} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const done =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          this.waiting = undefined;
          f(v);
        };
      this.waiting = { state, resolve: done(resolve), reject: done(reject) };
    });
  }

  close(): void {
    this.waiting?.reject(new Error('the connection closed during login'));
    this.server?.close();
    this.server = undefined;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const reply = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(`${text}\n`);
    };
    // The listeners' one Host/Origin policy: the browser comes back to 127.0.0.1:PORT.
    const admitted = REDIRECT_HOSTS.check(req);
    if (!admitted.ok) return reply(admitted.status, `core-agent: ${admitted.error}`);
    const u = admitted.url;
    const w = this.waiting;
    // Anything but the redirect for the login in progress is turned away: another local
    // process must not be able to inject a code of its own.
    if (u.pathname !== CALLBACK_PATH || !w || u.searchParams.get('state') !== w.state) {
      reply(400, 'core-agent: no login is waiting for this request.');
      return;
    }
    const error = u.searchParams.get('error');
    const code = u.searchParams.get('code');
    if (error || !code) {
      const why = (u.searchParams.get('error_description') ?? error ?? 'no code').slice(0, 300);
      reply(400, `core-agent: the authorization server refused the login: ${why}`);
      w.reject(new Error(`the authorization server refused the login (${(error ?? 'no code').slice(0, 60)}: ${why})`));
      return;
    }
    reply(200, 'core-agent: logged in. You can close this window.');
    w.resolve(code);
  }
}

/**
 * Show the authorization URL and open it: $BROWSER when set (a test's script
 * fetches it), else xdg-open or open where one exists and a person is at the
 * terminal. The URL carries no secret (PKCE keeps the verifier here).
 */
export function openAuthorizationUrl(url: URL, env: NodeJS.ProcessEnv, say: (text: string) => void): void {
  say(`Open this URL to authorize core-agent:\n  ${url.href}\n`);
  const opener = env.BROWSER || ['/usr/bin/xdg-open', '/usr/bin/open'].find((p) => process.stderr.isTTY && existsSync(p));
  if (!opener) return;
  try {
    const child = spawn(opener, [url.href], { stdio: 'ignore', detached: true, env });
    child.on('error', (err) => say(`could not start ${opener}: ${err.message}\n`));
    child.unref();
  } catch (err) {
    say(`could not start ${opener}: ${(err as Error).message}\n`);
  }
}
