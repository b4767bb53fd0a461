/**
 * Every request core-agent makes on someone else's say-so, aimed at every kind
 * of destination (test/net/say-so.test.ts runs them; src/net/outbound-fetch.ts is
 * the policy). A path is where the address comes from:
 *
 *   oauth-resource-metadata  an MCP server's 401 names resource_metadata="D/…" (RFC 9728)
 *   oauth-server-metadata    its protected-resource metadata names D as authorization server
 *   oauth-token              the authorization server's metadata names D/token (client_credentials: Basic id:secret)
 *   oauth-registration       … names D/register (dynamic client registration, headless)
 *   hub-registration         a peer registers endpoint D with the hub (POST /peers)
 *   call-peer                call_peer with D on the roster (a state file from before the policy, or a name)
 *   mcp-endpoint             the operator's MCP server URL is D            } the operator named D:
 *   register-with-hub        the operator's peers.register.hub_url is D     } loopback and private
 *   alert                    the operator's alert target URL is D           } are allowed, metadata
 *   web-search               the operator's SearXNG URL is D                } never
 *
 * Destinations (say-so-servers.ts puts a recording server behind each): the
 * metadata address in four notations and by name, a name resolving to it,
 * loopback in four notations (not named), an RFC 1918 address, a name resolving
 * to a private address, a named host redirecting to metadata or to loopback, a
 * named host (auth.test: in the path's private_hosts), and that host streaming
 * 200 MiB.
 *
 * Outcomes: `refused` — zero requests reach the destination, and the refusal
 * says which class of address and, for a private one, which setting allows it;
 * `reached` — the request arrives; `not-followed` — the named host is reached,
 * the redirect's target never; `capped` — reading stops at the cap, which the
 * error names; `accepted` — the hub stores the registration (a name is judged
 * when call_peer resolves it). Whatever the outcome, no secret reaches a server
 * the case does not reach on purpose, and none is in what core-agent says.
 */
export type SaySoPath =
  | 'oauth-resource-metadata'
  | 'oauth-server-metadata'
  | 'oauth-token'
  | 'oauth-registration'
  | 'hub-registration'
  | 'call-peer'
  | 'mcp-endpoint'
  | 'register-with-hub'
  | 'alert'
  | 'web-search';

export type Destination =
  | 'metadata'
  | 'metadata-decimal'
  | 'metadata-hex'
  | 'metadata-mapped'
  | 'metadata-name'
  | 'name-to-metadata'
  | 'loopback'
  | 'loopback-mapped'
  | 'loopback-decimal'
  | 'loopback-hex'
  | 'private'
  | 'name-to-private'
  | 'redirect-to-metadata'
  | 'redirect-to-loopback'
  | 'named'
  | 'huge';

export type Outcome = 'refused' | 'reached' | 'not-followed' | 'capped' | 'accepted';

export type SaySoCase = readonly [path: SaySoPath, destination: Destination, outcome: Outcome];

export const SAY_SO_CASES: readonly SaySoCase[] = [
  ['oauth-resource-metadata', 'metadata', 'refused'],
  ['oauth-resource-metadata', 'metadata-decimal', 'refused'],
  ['oauth-resource-metadata', 'metadata-hex', 'refused'],
  ['oauth-resource-metadata', 'metadata-mapped', 'refused'],
  ['oauth-resource-metadata', 'metadata-name', 'refused'],
  ['oauth-resource-metadata', 'name-to-metadata', 'refused'],
  ['oauth-resource-metadata', 'loopback', 'refused'],
  ['oauth-resource-metadata', 'loopback-mapped', 'refused'],
  ['oauth-resource-metadata', 'loopback-decimal', 'refused'],
  ['oauth-resource-metadata', 'loopback-hex', 'refused'],
  ['oauth-resource-metadata', 'private', 'refused'],
  ['oauth-resource-metadata', 'name-to-private', 'refused'],
  ['oauth-resource-metadata', 'redirect-to-metadata', 'not-followed'],
  ['oauth-resource-metadata', 'redirect-to-loopback', 'not-followed'],
  ['oauth-resource-metadata', 'named', 'reached'],
  ['oauth-resource-metadata', 'huge', 'capped'],

  ['oauth-server-metadata', 'metadata', 'refused'],
  ['oauth-server-metadata', 'metadata-decimal', 'refused'],
  ['oauth-server-metadata', 'metadata-hex', 'refused'],
  ['oauth-server-metadata', 'metadata-mapped', 'refused'],
  ['oauth-server-metadata', 'metadata-name', 'refused'],
  ['oauth-server-metadata', 'name-to-metadata', 'refused'],
  ['oauth-server-metadata', 'loopback', 'refused'],
  ['oauth-server-metadata', 'loopback-mapped', 'refused'],
  ['oauth-server-metadata', 'loopback-decimal', 'refused'],
  ['oauth-server-metadata', 'loopback-hex', 'refused'],
  ['oauth-server-metadata', 'private', 'refused'],
  ['oauth-server-metadata', 'name-to-private', 'refused'],
  ['oauth-server-metadata', 'redirect-to-metadata', 'not-followed'],
  ['oauth-server-metadata', 'redirect-to-loopback', 'not-followed'],
  ['oauth-server-metadata', 'named', 'reached'],
  ['oauth-server-metadata', 'huge', 'capped'],

  ['oauth-token', 'metadata', 'refused'],
  ['oauth-token', 'metadata-decimal', 'refused'],
  ['oauth-token', 'metadata-hex', 'refused'],
  ['oauth-token', 'metadata-mapped', 'refused'],
  ['oauth-token', 'metadata-name', 'refused'],
  ['oauth-token', 'name-to-metadata', 'refused'],
  ['oauth-token', 'loopback', 'refused'],
  ['oauth-token', 'loopback-mapped', 'refused'],
  ['oauth-token', 'loopback-decimal', 'refused'],
  ['oauth-token', 'loopback-hex', 'refused'],
  ['oauth-token', 'private', 'refused'],
  ['oauth-token', 'name-to-private', 'refused'],
  ['oauth-token', 'redirect-to-metadata', 'not-followed'],
  ['oauth-token', 'redirect-to-loopback', 'not-followed'],
  ['oauth-token', 'named', 'reached'],
  ['oauth-token', 'huge', 'capped'],

  ['oauth-registration', 'metadata', 'refused'],
  ['oauth-registration', 'metadata-decimal', 'refused'],
  ['oauth-registration', 'metadata-hex', 'refused'],
  ['oauth-registration', 'metadata-mapped', 'refused'],
  ['oauth-registration', 'metadata-name', 'refused'],
  ['oauth-registration', 'name-to-metadata', 'refused'],
  ['oauth-registration', 'loopback', 'refused'],
  ['oauth-registration', 'loopback-mapped', 'refused'],
  ['oauth-registration', 'loopback-decimal', 'refused'],
  ['oauth-registration', 'loopback-hex', 'refused'],
  ['oauth-registration', 'private', 'refused'],
  ['oauth-registration', 'name-to-private', 'refused'],
  ['oauth-registration', 'redirect-to-metadata', 'not-followed'],
  ['oauth-registration', 'redirect-to-loopback', 'not-followed'],
  ['oauth-registration', 'named', 'reached'],
  ['oauth-registration', 'huge', 'capped'],

  ['hub-registration', 'metadata', 'refused'],
  ['hub-registration', 'metadata-decimal', 'refused'],
  ['hub-registration', 'metadata-hex', 'refused'],
  ['hub-registration', 'metadata-mapped', 'refused'],
  ['hub-registration', 'metadata-name', 'refused'],
  ['hub-registration', 'name-to-metadata', 'accepted'],
  ['hub-registration', 'loopback', 'refused'],
  ['hub-registration', 'loopback-mapped', 'refused'],
  ['hub-registration', 'loopback-decimal', 'refused'],
  ['hub-registration', 'loopback-hex', 'refused'],
  ['hub-registration', 'private', 'refused'],
  ['hub-registration', 'name-to-private', 'accepted'],
  ['hub-registration', 'named', 'accepted'],

  ['call-peer', 'metadata', 'refused'],
  ['call-peer', 'metadata-decimal', 'refused'],
  ['call-peer', 'metadata-hex', 'refused'],
  ['call-peer', 'metadata-mapped', 'refused'],
  ['call-peer', 'metadata-name', 'refused'],
  ['call-peer', 'name-to-metadata', 'refused'],
  ['call-peer', 'loopback', 'refused'],
  ['call-peer', 'loopback-mapped', 'refused'],
  ['call-peer', 'loopback-decimal', 'refused'],
  ['call-peer', 'loopback-hex', 'refused'],
  ['call-peer', 'private', 'refused'],
  ['call-peer', 'name-to-private', 'refused'],
  ['call-peer', 'redirect-to-metadata', 'not-followed'],
  ['call-peer', 'redirect-to-loopback', 'not-followed'],
  ['call-peer', 'named', 'reached'],
  ['call-peer', 'huge', 'capped'],

  ['mcp-endpoint', 'metadata', 'refused'],
  ['mcp-endpoint', 'metadata-decimal', 'refused'],
  ['mcp-endpoint', 'metadata-mapped', 'refused'],
  ['mcp-endpoint', 'metadata-name', 'refused'],
  ['mcp-endpoint', 'name-to-metadata', 'refused'],
  ['mcp-endpoint', 'loopback', 'reached'],
  ['mcp-endpoint', 'loopback-mapped', 'reached'],
  ['mcp-endpoint', 'private', 'reached'],
  ['mcp-endpoint', 'name-to-private', 'reached'],
  ['mcp-endpoint', 'redirect-to-metadata', 'not-followed'],
  ['mcp-endpoint', 'redirect-to-loopback', 'not-followed'],
  ['mcp-endpoint', 'named', 'reached'],
  ['mcp-endpoint', 'huge', 'capped'],

  ['register-with-hub', 'metadata', 'refused'],
  ['register-with-hub', 'metadata-hex', 'refused'],
  ['register-with-hub', 'metadata-mapped', 'refused'],
  ['register-with-hub', 'metadata-name', 'refused'],
  ['register-with-hub', 'name-to-metadata', 'refused'],
  ['register-with-hub', 'loopback', 'reached'],
  ['register-with-hub', 'loopback-decimal', 'reached'],
  ['register-with-hub', 'private', 'reached'],
  ['register-with-hub', 'name-to-private', 'reached'],
  ['register-with-hub', 'redirect-to-metadata', 'not-followed'],
  ['register-with-hub', 'redirect-to-loopback', 'not-followed'],
  ['register-with-hub', 'named', 'reached'],
  ['register-with-hub', 'huge', 'capped'],

  ['alert', 'metadata', 'refused'],
  ['alert', 'metadata-decimal', 'refused'],
  ['alert', 'metadata-hex', 'refused'],
  ['alert', 'metadata-mapped', 'refused'],
  ['alert', 'metadata-name', 'refused'],
  ['alert', 'name-to-metadata', 'refused'],
  ['alert', 'loopback', 'reached'],
  ['alert', 'loopback-hex', 'reached'],
  ['alert', 'private', 'reached'],
  ['alert', 'name-to-private', 'reached'],
  ['alert', 'redirect-to-metadata', 'not-followed'],
  ['alert', 'redirect-to-loopback', 'not-followed'],
  ['alert', 'named', 'reached'],
  ['alert', 'huge', 'capped'],

  ['web-search', 'metadata', 'refused'],
  ['web-search', 'metadata-decimal', 'refused'],
  ['web-search', 'metadata-name', 'refused'],
  ['web-search', 'name-to-metadata', 'refused'],
  ['web-search', 'loopback', 'reached'],
  ['web-search', 'private', 'reached'],
  ['web-search', 'redirect-to-metadata', 'not-followed'],
  ['web-search', 'redirect-to-loopback', 'not-followed'],
  ['web-search', 'named', 'reached'],
  ['web-search', 'huge', 'capped'],
];
