import * as z from 'zod/v4';
import { credentialFreeUrl } from './mcp-schema.ts';
import { privateHostsSchema } from './private-hosts.ts';

/**
 * The recipe's `peers:` section: whether this daemon is a peer hub (keeps the
 * registry, may offer call_peer), whether it registers itself with a hub, and
 * the variable holding the bearer token call_peer presents to peers. Tokens are
 * named by variable only: a recipe is a file people share.
 */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name, e.g. PEER_TOKEN');
const peerName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'letters, digits, ".", "_" and "-" (at most 63), e.g. operator-prod-1');

export const peersSchema = z
  .strictObject({
    hub: z.boolean().optional().describe('true: this daemon keeps the peer registry (POST/GET /peers) and may offer call_peer.'),
    token_env: envName
      .optional()
      .describe('The variable holding the bearer token call_peer presents to peers; named but unset, every call fails (never anonymous).'),
    private_hosts: privateHostsSchema(
      'registered peer endpoints (the hub refuses other private endpoints, and call_peer does not call them); register.hub_url and register.endpoint need no entry',
    ),
    register: z
      .strictObject({
        hub_url: credentialFreeUrl('put the token in token_env').describe("The hub's attach address, e.g. https://hub.example:7777."),
        token_env: envName.optional().describe("The variable holding this daemon's bearer token for the hub."),
        name: peerName.describe('The name this daemon registers as (what call_peer and the rules call it).'),
        endpoint: credentialFreeUrl("peers are called with the hub's peers.token_env").describe(
          'Where the hub reaches this daemon: an absolute http(s) URL.',
        ),
        labels: z.record(z.string(), z.string().max(256)).optional().describe('Labels GET /peers?label=k=v filters on.'),
        ttl_seconds: z.int().min(5).max(300).optional().describe('The lease; heartbeats go every third of it (default 60).'),
      })
      .optional()
      .describe('Register this daemon with a hub and keep its lease alive while it runs.'),
  })
  .describe('The peer fleet: the hub registry, self-registration, and the token for call_peer.');
export type PeersConfig = z.output<typeof peersSchema>;
