import { SettingsError } from '../../core/settings-error.ts';
import type { Recipe } from '../../config/recipe-schema.ts';
import type { Logger } from '../../log.ts';
import { liveTargets, type AlertTarget } from '../../net/alert-targets.ts';
import type { NetworkAccess } from '../../net/network-access.ts';
import { proxyCredentials } from '../../net/proxy-tunnel.ts';
import type { SearchProvider } from '../../net/search-providers.ts';
import { UrlScope } from '../../net/url-scope.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons, ToolServices } from '../framework/services.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** url_scope and the resolver, when url_scope.allow has an entry (fetch_url, web_fetch). */
    readonly network?: NetworkAccess | undefined;
    /** web_search's provider, and its result count when a call gives none (absent: 5). */
    readonly searchProvider?: SearchProvider | undefined;
    readonly searchResults?: number | undefined;
    /** alert's targets whose environment is set (the others can never deliver). */
    readonly alertTargets?: readonly AlertTarget[] | undefined;
  }
}

/**
 * The network (url_scope, its resolver and proxy), web_search's provider and alert's live
 * targets. Said in the order they always were: web_search's key, then dropped alert targets.
 * The modules behind a configured service (the fetch stack, a search provider's schemas) are
 * imported only when it is configured: a run without them never evaluates them.
 */
export const services: FamilyServices = async ({ recipe, env, logger, resolver, world }) => {
  const search = await searchProviderOf(recipe, env, logger);
  const alertTargets = liveAlertTargets(recipe, env, logger, world);
  const urlScope = recipe.permissions?.url_scope;
  const network =
    urlScope?.allow && urlScope.allow.length > 0
      ? new (await import('../../net/network-access.ts')).NetworkAccess(
          UrlScope.parse(urlScope.allow, urlScope.deny ?? []),
          resolver,
          fetchProxy(urlScope, env, world),
        )
      : undefined;
  return { network, ...search, ...(alertTargets ? { alertTargets } : {}) };
};

export const missing: MissingReasons = {
  network: () => 'permissions.url_scope.allow is empty',
  searchProvider: () => 'no web_search provider is configured',
  alertTargets: () => 'no alert target is configured with its environment set',
};

/** web_search's provider: what the recipe names and the environment completes. */
async function searchProviderOf(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<Pick<ToolServices, 'searchProvider' | 'searchResults'>> {
  const ws = recipe.web_search;
  if (!ws) return {};
  const key = ws.api_key_env ? env[ws.api_key_env] : undefined;
  let provider: SearchProvider | undefined;
  if (ws.api_key_env && !key)
    logger.warn({ provider: ws.provider, api_key_env: ws.api_key_env }, 'web_search not registered: its API key variable is not set');
  else if (ws.provider === 'brave')
    provider = (await import('../../net/search-providers.ts')).braveProvider(ws.url ?? 'https://api.search.brave.com', key!);
  else provider = (await import('../../net/search-providers.ts')).searxngProvider(ws.url!, key);
  return { searchProvider: provider, ...(ws.max_results !== undefined ? { searchResults: ws.max_results } : {}) };
}

/**
 * The recipe's alert targets that can deliver (their URL and credentials are set), and why the
 * others cannot. A target with `required: true` that cannot is a SettingsError (exit 2), unless
 * `world` is false (recipe validate, which reads no variable).
 */
export function alertTargetsStep(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
  world = true,
): { live: AlertTarget[]; dropped: ReadonlyArray<{ target: string; reason: string }> } | undefined {
  const targets = recipe.alerts?.targets;
  if (!targets) return undefined;
  const found = liveTargets(targets, env);
  const missing = world ? found.dropped.find((d) => targets[d.target]?.required === true) : undefined;
  if (missing)
    throw new SettingsError(
      `the recipe requires the alert target "${missing.target}" (alerts.targets.${missing.target}.required) and it cannot deliver: ${missing.reason}`,
    );
  return found;
}

/**
 * alert's live targets; the others said at startup, loudly: an operator who configured a pager
 * expects it to work. A required one that cannot deliver stops the start (exit 2): an incident
 * recipe must not finish its run with nobody told.
 */
function liveAlertTargets(recipe: Recipe, env: NodeJS.ProcessEnv, logger: Logger, world: boolean): readonly AlertTarget[] | undefined {
  const targets = alertTargetsStep(recipe, env, world);
  if (!targets) return undefined;
  for (const d of targets.dropped) logger.warn({ target: d.target, reason: d.reason }, 'alert target dropped: it could never deliver');
  return targets.live;
}

/** url_scope.proxy, or the URL in url_scope.proxy_env; nothing else (no HTTP_PROXY). */
function fetchProxy(
  scope: { proxy?: string | undefined; proxy_env?: string | undefined },
  env: NodeJS.ProcessEnv,
  world: boolean,
): URL | undefined {
  const text = scope.proxy ?? (scope.proxy_env ? env[scope.proxy_env] : undefined);
  if (!text) {
    if (scope.proxy_env && world) throw new SettingsError(`permissions.url_scope.proxy_env: ${scope.proxy_env} is not set`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingsError(`permissions.url_scope: the proxy is not a URL (write http://host:port)`);
  }
  if (url.protocol !== 'http:') throw new SettingsError(`permissions.url_scope: the proxy must be an http:// URL, not ${url.protocol}`);
  try {
    proxyCredentials(url);
  } catch {
    throw new SettingsError('permissions.url_scope: the proxy URL has a malformed %-escape in its user or password (write % as %25)');
  }
  return url;
}
