import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as z from 'zod/v4';
import { pathSegment } from './http.ts';
import { PeerEndpointRefused, PeerOwnedError, registerRequestSchema, type PeerRegistry } from './peers-registry.ts';
import type { Route } from './route.ts';

/**
 * The peer hub's HTTP API, as one Route the daemon mounts after it has
 * authenticated the caller:
 *
 *   POST   /peers                  register (name upsert); 201 with the registration
 *   GET    /peers?label=k=v        the live roster, filtered; ids only to their owner
 *   POST   /peers/{id}/heartbeat   extend the lease; 404 for an unknown (or foreign) id
 *   DELETE /peers/{id}             owner only (403 otherwise); an unknown id is 204
 *
 * Paths, status codes and field names are the Go original's (attach-http.md,
 * "Peer / hub endpoints"). Errors are `{"error": sentence, "field"?: name}`.
 */

/** The Go original's cap on a registration body. */
export const PEERS_BODY_LIMIT = 16 * 1024;
const MAX_LABEL_FILTERS = 16;

export function peersRoute(registry: PeerRegistry): Route {
  return async (req, res, url, caller) => {
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] !== 'peers') return false;
    const method = req.method ?? 'GET';
    if (parts.length === 1) {
      if (method === 'GET') return list(res, url, registry, caller.principal);
      if (method === 'POST') return register(req, res, registry, caller.principal);
      return notAllowed(res, 'GET, POST');
    }
    const id = pathSegment(parts[1]!, 'id');
    if (parts.length === 2) {
      if (method !== 'DELETE') return notAllowed(res, 'DELETE');
      const outcome = registry.delete(id, caller.principal);
      if (outcome === 'forbidden') return send(res, 403, { error: 'only the principal that registered this peer may delete it' });
      res.writeHead(204).end();
      return true;
    }
    if (parts.length === 3 && parts[2] === 'heartbeat') {
      if (method !== 'POST') return notAllowed(res, 'POST');
      const peer = registry.heartbeat(id, caller.principal);
      if (!peer) return send(res, 404, { error: 'no such registration: register again with POST /peers' });
      return send(res, 200, peer);
    }
    return send(res, 404, { error: `no such peers endpoint: ${url.pathname.slice(0, 100)}` });
  };
}

async function register(req: IncomingMessage, res: ServerResponse, registry: PeerRegistry, owner: string): Promise<true> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return send(res, 415, { error: 'POST /peers takes a JSON body: send Content-Type: application/json' });
  }
  const body = await readBody(req, PEERS_BODY_LIMIT);
  if (body === 'too-large') return send(res, 413, { error: `the body is over ${PEERS_BODY_LIMIT} bytes` });
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return send(res, 400, { error: 'the body is not JSON' });
  }
  const parsed = registerRequestSchema.safeParse(json);
  if (!parsed.success) return send(res, 400, fieldError(parsed.error));
  try {
    return send(res, 201, registry.register(parsed.data, owner));
  } catch (err) {
    if (err instanceof PeerOwnedError) return send(res, 403, { error: err.message, field: 'name' });
    if (err instanceof PeerEndpointRefused) return send(res, 400, { error: `endpoint: ${err.message}`, field: 'endpoint' });
    throw err;
  }
}

function list(res: ServerResponse, url: URL, registry: PeerRegistry, viewer: string): true {
  const filters: Record<string, string> = {};
  const given = url.searchParams.getAll('label');
  if (given.length > MAX_LABEL_FILTERS) return send(res, 400, { error: `at most ${MAX_LABEL_FILTERS} label filters`, field: 'label' });
  for (const f of given) {
    const eq = f.indexOf('=');
    if (eq <= 0) return send(res, 400, { error: 'a label filter is key=value, e.g. ?label=env=prod', field: 'label' });
    filters[f.slice(0, eq)] = f.slice(eq + 1);
  }
  return send(res, 200, { peers: registry.list(filters, viewer) });
}

/** The first issue, named by its field path; never the input itself (it may be huge). */
function fieldError(err: z.ZodError): { error: string; field: string } {
  const issue = err.issues[0]!;
  const field = issue.path.length > 0 ? issue.path.join('.') : '(body)';
  const message = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.slice(0, 5).join(', ')}` : issue.message;
  return { error: `${field}: ${message.slice(0, 300)}`, field: issue.code === 'unrecognized_keys' ? issue.keys[0]! : field };
}

/** The body, or 'too-large' as soon as it passes `limit` (the rest is never buffered). */
function readBody(req: IncomingMessage, limit: number): Promise<string | 'too-large'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      if (over) return;
      size += c.length;
      if (size > limit) {
        over = true;
        resolve('too-large');
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

function notAllowed(res: ServerResponse, allow: string): true {
  res.setHeader('Allow', allow);
  return send(res, 405, { error: `method not allowed here; use ${allow}` });
}

function send(res: ServerResponse, status: number, body: unknown): true {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return true;
}
