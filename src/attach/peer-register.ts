import type { Logger } from '../log.ts';
import { operatorFetch } from '../net/operator-fetch.ts';
import { PEER_TTL } from './peers-registry.ts';

/**
 * Keeps this daemon on a hub's roster while it runs: register (POST /peers),
 * heartbeat every third of the lease, register again when the hub has
 * forgotten the id (404: the hub restarted without state, or the lease ran out
 * while the network was down), and deregister on close. A failure is logged
 * and retried at the next beat — a hub that is down must not stop the daemon.
 *
 * The root reads `peers.register` from the recipe and the token from the
 * variable `token_env` names, and hands both in; nothing here reads the
 * environment, and the token is never logged.
 */
export interface PeerRegistrationConfig {
  hub_url: string;
  name: string;
  endpoint: string;
  labels?: Record<string, string> | undefined;
  ttl_seconds?: number | undefined;
}

export interface PeerRegistration {
  /** The current registration id, once the hub accepted one. */
  readonly registrationId: string | undefined;
  /** Resolves after the first attempt, whether it succeeded or not (tests, start-up logs). */
  readonly firstAttempt: Promise<void>;
  /** Stop beating and deregister (best effort, bounded). */
  close(): Promise<void>;
}

export interface PeerRegistrationOptions {
  config: PeerRegistrationConfig;
  /** The bearer token for the hub; undefined: none (a loopback hub without tokens). */
  token?: string | undefined;
  logger: Logger;
  /** Test seam: the beat interval, default a third of the TTL. */
  intervalMs?: number;
  /** Each request's own bound. */
  requestTimeoutMs?: number;
}

export function startPeerRegistration(o: PeerRegistrationOptions): PeerRegistration {
  const ttl = o.config.ttl_seconds ?? PEER_TTL.defaultSeconds;
  const interval = o.intervalMs ?? Math.max(1000, Math.floor((ttl * 1000) / 3));
  const timeout = o.requestTimeoutMs ?? 10_000;
  const base = o.config.hub_url.replace(/\/+$/, '');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (o.token) headers.Authorization = `Bearer ${o.token}`;
  const log = { hub: base, peer: o.config.name };
  let id: string | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const call = (method: 'POST' | 'DELETE', path: string, body?: unknown) =>
    operatorFetch(
      `${base}${path}`,
      { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
      AbortSignal.timeout(timeout),
      { what: 'answers from the peer hub' },
    );

  const register = async () => {
    const r = await call('POST', '/peers', {
      name: o.config.name,
      endpoint: o.config.endpoint,
      ...(o.config.labels ? { labels: o.config.labels } : {}),
      heartbeat_ttl_sec: ttl,
    });
    if (r.status !== 201 && r.status !== 200) {
      id = undefined;
      o.logger.warn(
        { ...log, status: r.status, said: hubSaid(r.text) },
        'the peer hub refused the registration; retrying at the next beat',
      );
      return;
    }
    id = (JSON.parse(r.text) as { registration_id?: string }).registration_id;
    o.logger.info({ ...log, registration_id: id }, 'registered with the peer hub');
  };

  const beat = async () => {
    try {
      if (id === undefined) return await register();
      const r = await call('POST', `/peers/${encodeURIComponent(id)}/heartbeat`);
      if (r.status === 404) {
        o.logger.info(log, 'the peer hub forgot this registration; registering again');
        id = undefined;
        return await register();
      }
      if (r.status !== 200) o.logger.warn({ ...log, status: r.status, said: hubSaid(r.text) }, 'peer heartbeat refused; retrying');
    } catch (err) {
      o.logger.warn({ ...log, error: (err as Error).message }, 'peer hub unreachable; retrying at the next beat');
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      inFlight = beat().finally(schedule);
    }, interval);
  };

  const firstAttempt = (inFlight = beat().finally(schedule));

  return {
    get registrationId() {
      return id;
    },
    firstAttempt,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await inFlight.catch(() => {});
      if (id === undefined) return;
      try {
        await call('DELETE', `/peers/${encodeURIComponent(id)}`);
      } catch (err) {
        o.logger.warn({ ...log, error: (err as Error).message }, 'could not deregister from the peer hub (its lease will run out)');
      }
      id = undefined;
    },
  };
}

/** What the hub said, bounded: its error sentence, never a whole page. */
function hubSaid(text: string): string {
  try {
    const e = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof e === 'string') return e.slice(0, 200);
  } catch {
    // not JSON: fall through
  }
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
