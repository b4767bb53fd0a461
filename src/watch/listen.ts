/** Where watch serves /healthz, /readyz and /metrics when neither --listen nor CORE_AGENT_WATCH_LISTEN says. */
export const WATCH_LISTEN_DEFAULT = '127.0.0.1:9464';

/** "HOST:PORT", ":PORT" or "PORT" (all interfaces); "[::1]:9464" for IPv6. The caller names the flag or variable. */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:(?:\[([^\]]+)\]|([^:[\]]*)):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65_535) {
    const shown = text.length > 64 ? `${text.slice(0, 64)}…` : text;
    throw new Error(`"${shown}": give HOST:PORT, e.g. 127.0.0.1:9464 or 0.0.0.0:8080`);
  }
  return { host: m[1] ?? (m[2] || '0.0.0.0'), port };
}
