import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/v4';
import type { Logger } from '../log.ts';
import { refusalWithoutLookup } from '../net/outbound-fetch.ts';
import { makeDirs } from '../util/make-dirs.ts';

/**
 * The peer hub's roster: which daemons are in the fleet, where they listen, and
 * whose lease is still live. The wire shapes (`registration_id`, `name`,
 * `endpoint`, `labels`, `registered_at`, `last_heartbeat`, `lease_expires_at`;
 * the request's `heartbeat_ttl_sec`) are the Go original's, so its peers and
 * clients register here unchanged.
 *
 * State survives a restart in one JSON file under the state directory the root
 * hands in, rewritten whole and atomically (a temporary file renamed over it)
 * after every change. Not the session database: the roster is a few dozen rows
 * rewritten on every heartbeat, owned by the hub alone, and must never share a
 * lock or a migration with the event log. The file holds registration ids,
 * which are what heartbeat and delete authenticate with, so it is written 0600.
 */

export const PEER_TTL = { defaultSeconds: 60, maxSeconds: 300 } as const;

/** Peer names are what the model calls a peer and what rules match (`tool.call_peer:prod-*`): no `:` or `/`, so no URL is a name. */
export const PEER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;

/** C0 and C1 controls, DEL and whitespace: the URL parser drops tabs and newlines silently, so they would be stored (and shown) verbatim. */
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/** Why an endpoint is refused, or null: absolute http(s) with a host, no credentials, no fragment, no control characters. */
export function endpointProblem(endpoint: string): string | null {
  if (CONTROL_OR_SPACE.test(endpoint)) return 'must not contain spaces or control characters (CR, LF, tab…)';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'is not an absolute URL (e.g. http://peer.example:7777)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be http or https, not ${url.protocol.slice(0, 20)}`;
  if (url.hostname === '') return 'has no host';
  // A token in the URL would be shown to every GET /peers caller: tokens go in peers.token_env.
  if (url.username !== '' || url.password !== '')
    return 'must not carry credentials (user:password@); the hub sends peers.token_env instead';
  if (url.hash !== '') return 'must not have a #fragment';
  return null;
}

export const registerRequestSchema = z.strictObject({
  name: z.string().regex(PEER_NAME, 'a peer name is letters, digits, ".", "_" and "-" (at most 63), e.g. operator-prod-1'),
  endpoint: z
    .string()
    .max(2048, 'at most 2048 characters')
    .superRefine((e, ctx) => {
      const problem = endpointProblem(e);
      if (problem) ctx.addIssue({ code: 'custom', message: `the endpoint ${problem}` });
    }),
  labels: z
    .record(
      z.string().regex(LABEL_KEY, 'a label key is letters, digits, ".", "_", "/" and "-"'),
      z
        .string()
        .max(256)
        .refine((v) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(v), 'a label value has no control characters (CR, LF, tab…)'),
    )
    .refine((l) => Object.keys(l).length <= 32, 'at most 32 labels')
    .optional(),
  heartbeat_ttl_sec: z.int().min(1).max(86_400).optional(),
});
export type RegisterRequest = z.output<typeof registerRequestSchema>;

/** One registration as the hub keeps it; `owner` never goes on the wire. */
interface PeerRecord {
  registration_id: string;
  name: string;
  endpoint: string;
  labels: Record<string, string>;
  registered_at: string;
  last_heartbeat: string;
  lease_expires_at: string;
  ttl_seconds: number;
  owner: string;
}

/** A peer as GET /peers shows it: `registration_id` only to its owner. */
export interface PeerView {
  registration_id?: string;
  name: string;
  endpoint: string;
  labels?: Record<string, string>;
  registered_at: string;
  last_heartbeat: string;
  lease_expires_at: string;
}

/** A name another principal registered: taking it over would let anyone redirect a fleet member's calls. */
export class PeerOwnedError extends Error {
  override readonly name = 'PeerOwnedError';
}

/**
 * An endpoint the address policy refuses (src/net/outbound-fetch.ts): metadata,
 * link-local, or a loopback or private address the operator did not name.
 */
export class PeerEndpointRefused extends Error {
  override readonly name = 'PeerEndpointRefused';
}

export interface PeerRegistryOptions {
  /**
   * The hosts the operator named (peers.private_hosts and the recipe's own
   * hub and endpoint): only these may be registered on a loopback or private
   * address. Default none: every such endpoint is refused.
   */
  privateHosts?: readonly string[] | undefined;
  /** The state file; absent: in memory only (tests, a hub that asked for no state). */
  file?: string | undefined;
  /** The clock (ms since the epoch); tests move it to expire leases. */
  now?: () => number;
  maxTtlSeconds?: number;
  logger?: Logger | undefined;
}

const recordSchema = z.object({
  registration_id: z.string().regex(/^reg-[0-9a-f]{16}$/),
  name: z.string().regex(PEER_NAME),
  endpoint: z.string().refine((e) => endpointProblem(e) === null),
  labels: z.record(z.string(), z.string()),
  registered_at: z.string(),
  last_heartbeat: z.string(),
  lease_expires_at: z.string(),
  ttl_seconds: z.int().min(1),
  owner: z.string(),
});

export class PeerRegistry {
  private readonly byId = new Map<string, PeerRecord>();
  private readonly now: () => number;
  private readonly maxTtl: number;
  private sweeper: NodeJS.Timeout | undefined;

  private constructor(private readonly opts: PeerRegistryOptions) {
    this.now = opts.now ?? Date.now;
    this.maxTtl = opts.maxTtlSeconds ?? PEER_TTL.maxSeconds;
  }

  /**
   * Open the registry, reloading the state file when there is one. A file that
   * exists but cannot be read or parsed fails start-up (a hub that silently
   * forgot its fleet answers "who is there?" wrongly); a malformed entry is
   * skipped with a warning (that peer re-registers within a heartbeat), and an
   * entry whose lease ran out while the hub was down is dropped, not revived.
   */
  static open(opts: PeerRegistryOptions = {}): PeerRegistry {
    const reg = new PeerRegistry(opts);
    if (opts.file) reg.load(opts.file);
    return reg;
  }

  /** Drop expired leases every `intervalMs` even when nobody reads (the file then forgets them too). */
  startSweep(intervalMs = 5_000): void {
    this.sweeper ??= setInterval(() => this.prune(), intervalMs);
    this.sweeper.unref();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Register or, by name, re-register (a fresh id, a fresh lease). A name another principal owns is refused. */
  register(req: RegisterRequest, owner: string): PeerView {
    const refused = this.endpointRefusal(req.endpoint);
    if (refused) throw new PeerEndpointRefused(`refused by the address policy: ${refused}`);
    this.prune();
    const existing = [...this.byId.values()].find((p) => p.name === req.name);
    if (existing && existing.owner !== owner) {
      throw new PeerOwnedError(
        `the peer name "${req.name}" is registered by another principal; pick another name or have its owner delete it`,
      );
    }
    if (existing) this.byId.delete(existing.registration_id);
    const ttl = Math.min(req.heartbeat_ttl_sec ?? PEER_TTL.defaultSeconds, this.maxTtl);
    const now = this.now();
    const rec: PeerRecord = {
      registration_id: `reg-${randomBytes(8).toString('hex')}`,
      name: req.name,
      endpoint: req.endpoint,
      labels: { ...req.labels },
      registered_at: iso(now),
      last_heartbeat: iso(now),
      lease_expires_at: iso(now + ttl * 1000),
      ttl_seconds: ttl,
      owner,
    };
    this.byId.set(rec.registration_id, rec);
    this.save();
    return view(rec, true);
  }

  /** Live peers carrying every label asked for, by name; ids only on the viewer's own registrations. */
  list(labels: Readonly<Record<string, string>>, viewer: string): PeerView[] {
    this.prune();
    return [...this.byId.values()]
      .filter((p) => Object.entries(labels).every(([k, v]) => p.labels[k] === v))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => view(p, p.owner === viewer));
  }

  /** Extend the lease by its TTL; undefined for an unknown id — or one the caller does not own (masked alike). */
  heartbeat(id: string, caller: string): PeerView | undefined {
    this.prune();
    const rec = this.byId.get(id);
    if (!rec || rec.owner !== caller) return undefined;
    const now = this.now();
    rec.last_heartbeat = iso(now);
    rec.lease_expires_at = iso(now + rec.ttl_seconds * 1000);
    this.save();
    return view(rec, true);
  }

  /** Owner only; an unknown id is already gone (idempotent, as the Go original). */
  delete(id: string, caller: string): 'deleted' | 'unknown' | 'forbidden' {
    const rec = this.byId.get(id);
    if (!rec) return 'unknown';
    if (rec.owner !== caller) return 'forbidden';
    this.byId.delete(id);
    this.save();
    return 'deleted';
  }

  /** The callable roster (call_peer's directory): names and endpoints of live leases, nothing about ownership. */
  peers(): { name: string; endpoint: string }[] {
    return this.list({}, '').map((p) => ({ name: p.name, endpoint: p.endpoint }));
  }

  /**
   * Why the address policy refuses an endpoint, or null. Only what the URL itself
   * says (a metadata name, an address literal): a name is looked up and judged
   * when call_peer calls it, since its answer may change after registration.
   */
  private endpointRefusal(endpoint: string): string | null {
    return refusalWithoutLookup(new URL(endpoint), { namedHosts: this.opts.privateHosts ?? [], setting: 'peers.private_hosts' });
  }

  private prune(): void {
    const now = this.now();
    let dropped = false;
    for (const [id, p] of this.byId) {
      if (Date.parse(p.lease_expires_at) <= now) {
        this.byId.delete(id);
        dropped = true;
      }
    }
    if (dropped) this.save();
  }

  private load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(`the peer registry's state file ${file} cannot be read: ${(err as Error).message}`);
    }
    let rows: unknown;
    try {
      rows = (JSON.parse(text) as { peers?: unknown }).peers;
    } catch {
      throw new Error(`the peer registry's state file ${file} is not JSON; move it aside to start with an empty roster`);
    }
    if (!Array.isArray(rows)) throw new Error(`the peer registry's state file ${file} has no "peers" list; move it aside`);
    const now = this.now();
    for (const row of rows) {
      const r = recordSchema.safeParse(row);
      if (!r.success) {
        this.opts.logger?.warn({ file }, 'skipped a malformed peer entry in the state file (the peer re-registers on its next heartbeat)');
        continue;
      }
      if (Date.parse(r.data.lease_expires_at) <= now) continue;
      // Registered before the policy (or before private_hosts changed): not kept where call_peer would not go.
      const refused = this.endpointRefusal(r.data.endpoint);
      if (refused) {
        this.opts.logger?.warn({ file, peer: r.data.name, reason: refused }, 'dropped a peer whose endpoint the address policy refuses');
        continue;
      }
      this.byId.set(r.data.registration_id, r.data);
    }
  }

  private save(): void {
    const file = this.opts.file;
    if (!file) return;
    makeDirs(path.dirname(file), 0o700);
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify({ peers: [...this.byId.values()] }, null, 1), { mode: 0o600 });
    renameSync(tmp, file);
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function view(p: PeerRecord, owned: boolean): PeerView {
  return {
    ...(owned ? { registration_id: p.registration_id } : {}),
    name: p.name,
    endpoint: p.endpoint,
    ...(Object.keys(p.labels).length > 0 ? { labels: { ...p.labels } } : {}),
    registered_at: p.registered_at,
    last_heartbeat: p.last_heartbeat,
    lease_expires_at: p.lease_expires_at,
  };
}
