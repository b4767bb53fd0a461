import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../core/principal.ts';

/**
 * Who made an HTTP request to the attach daemon, as its bearer token says.
 * `principal` is the name the operator gave the token (recorded as the owner
 * of what the caller creates and as the approver of what it answers).
 */
export interface Caller {
  /** The principal's name (`who.name`). */
  principal: string;
  /** The principal with its group, tenant and admin role (a users file's row; --token-env: name only). */
  who: Principal;
  /** How the principal was established: a bearer token, or none (a tokenless loopback daemon). */
  source?: 'bearer' | 'anonymous';
}

/**
 * One part of the daemon's HTTP API. The server authenticates first, then asks
 * each route in turn; a route answers the request and returns true, or returns
 * false to let the next one look at it. The session API and the peer registry
 * are separate routes so that each can be built and tested alone.
 */
export type Route = (req: IncomingMessage, res: ServerResponse, url: URL, caller: Caller) => Promise<boolean>;
