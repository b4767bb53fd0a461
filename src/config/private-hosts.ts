import * as z from 'zod/v4';

/**
 * A `private_hosts` list: the hosts the operator names as reachable on loopback
 * or private addresses when a server or a peer points there (src/net/outbound-fetch.ts).
 * Exact hosts only — a name, an IPv4 address, an IPv6 address with or without
 * brackets — as url_scope's exact-host entries: a wildcard never opens the
 * cluster network or localhost, and no scheme, port or path (the port does not
 * change which machine answers).
 */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9])?\.?)$/;

export function privateHostsSchema(whose: string) {
  return z
    .array(
      z
        .string()
        .min(1)
        .max(253)
        .superRefine((h, ctx) => {
          if (h.includes('*'))
            ctx.addIssue({ code: 'custom', message: 'an exact host: a wildcard never opens loopback or private addresses' });
          else if (!HOST.test(h))
            ctx.addIssue({
              code: 'custom',
              message: 'a host name or address alone, without scheme, port or path (e.g. auth.internal, 10.0.0.5)',
            });
        }),
    )
    .max(64)
    .optional()
    .describe(
      `Hosts ${whose} may reach on a loopback or private address (exact names or addresses; metadata addresses stay blocked). Others must be public.`,
    );
}
