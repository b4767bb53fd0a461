import type { Socket } from 'node:net';

/**
 * An explicitly configured HTTP proxy (url_scope.proxy), used through CONNECT
 * tunnels for http and https alike. The tunnel is opened to the address the SSRF
 * guard checked — `CONNECT 203.0.113.7:443`, never the host name — so the proxy
 * cannot resolve the name differently, and TLS inside the tunnel still verifies
 * the original name. Environment proxies (HTTP_PROXY …) are never read.
 */

export interface TunnelTarget {
  /** The checked address to tunnel to. */
  address: string;
  port: number;
  tls: boolean;
  /** The name TLS verifies (undefined for an IP-literal URL). */
  servername: string | undefined;
}

export async function openTunnel(proxy: URL, target: TunnelTarget, timeoutMs: number): Promise<Socket> {
  // Loaded on use: node:tls brings up the crypto stack, which a start-up should not pay for.
  const [{ connect: netConnect }, { connect: tlsConnect }] = await Promise.all([import('node:net'), import('node:tls')]);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) });
    const fail = (message: string) => {
      socket.destroy();
      reject(new Error(`proxy ${proxy.host}: ${message}`));
    };
    socket.setTimeout(timeoutMs, () => fail('timed out'));
    socket.once('error', (err) => fail(err.message));
    socket.once('connect', () => {
      // Validated at startup (runtime.ts); a throw here would escape the promise.
      const authority = target.address.includes(':') ? `[${target.address}]:${target.port}` : `${target.address}:${target.port}`;
      const auth = proxy.username !== '' ? `Proxy-Authorization: Basic ${proxyCredentials(proxy)}\r\n` : '';
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`);
    });
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > 16 * 1024) fail('answered CONNECT with an oversized header');
        return;
      }
      socket.off('data', onData);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') return fail(`refused the tunnel (${status ? `HTTP ${status}` : 'not an HTTP answer'})`);
      // Anything after the header belongs to the tunnelled stream.
      const rest = head.subarray(end + 4);
      if (rest.length > 0) socket.unshift(rest);
      socket.setTimeout(0);
      socket.removeAllListeners('error');
      if (!target.tls) return resolve(socket);
      const handshake = setTimeout(() => {
        secure.destroy();
        reject(new Error(`proxy ${proxy.host}: the TLS handshake through the tunnel timed out`));
      }, timeoutMs);
      const secure = tlsConnect({
        socket,
        host: target.servername ?? target.address,
        ...(target.servername ? { servername: target.servername } : {}),
        ALPNProtocols: ['http/1.1'],
      });
      secure.once('secureConnect', () => {
        clearTimeout(handshake);
        resolve(secure);
      });
      secure.once('error', (err) => {
        clearTimeout(handshake);
        secure.destroy();
        reject(err);
      });
    };
    socket.on('data', onData);
  });
}

/** user:password from the proxy URL, base64 for Basic auth; throws on malformed %-escapes. */
export function proxyCredentials(proxy: URL): string {
  return Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
}
