import type { Resolver } from './guarded-fetch.ts';
import { systemResolver } from './guarded-fetch.ts';
import type { UrlScope } from './url-scope.ts';

/**
 * What the network tools share in a session: url_scope and the resolver the SSRF
 * guard uses. Present only when url_scope.allow has an entry — its absence is
 * what keeps fetch_url and web_fetch out of the catalog.
 */
export class NetworkAccess {
  constructor(
    readonly scope: UrlScope,
    readonly resolve: Resolver = systemResolver,
    /** An HTTP proxy the operator configured (url_scope.proxy / proxy_env); never one from the environment's HTTP_PROXY. */
    readonly proxy: URL | undefined = undefined,
    readonly userAgent = `core-agent/${__CORE_AGENT_VERSION__}`,
  ) {}
}
