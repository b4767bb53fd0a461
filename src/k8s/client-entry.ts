// @kubernetes/client-node, bundled apart as an embedded chunk (scripts/bundle/embedded.mjs):
// loaded only for a kubeconfig the lean transport (kube-http.ts) does not serve — a
// proxy-url, an auth provider (kubeconfig.ts libraryOnly). Everything goes through one raw GET that
// keeps the library's authentication (client certificates, tokens, exec plugins,
// in-cluster service accounts) and returns the API's JSON untouched — the typed
// models would drop fields they do not know (CRDs) and turn timestamps into Dates.
import { ApiException, HttpMethod, KubeConfig, KubernetesObjectApi, Watch } from '@kubernetes/client-node';
import type { KubernetesObject, ResponseContext } from '@kubernetes/client-node';
import path from 'node:path';
import type { ClusterSource, Connection } from './connection.ts';

export class RawApi extends KubernetesObjectApi {
  async raw(path: string, query: Record<string, string | undefined>, as: 'json' | 'text', signal?: AbortSignal): Promise<unknown> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, v);
    ctx.setHeaderParam('Accept', as === 'json' ? 'application/json' : 'text/plain, */*');
    if (signal) ctx.setSignal(signal);
    return this.requestPromise<KubernetesObject>(ctx, `raw-${as}`);
  }

  protected override async processResponse<T extends KubernetesObject>(response: ResponseContext, type?: string): Promise<T> {
    if (type !== 'raw-json' && type !== 'raw-text') return super.processResponse<T>(response, type);
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) return (type === 'raw-json' ? JSON.parse(text) : text) as T;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not a Status object: keep the text
    }
    throw new ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', body, response.headers);
  }
}

/**
 * From a kubeconfig file, or the pod's service account (in-cluster). `text`: the kubeconfig as
 * kubeconfig.ts read it (bounded, checked), so the library does not read the file again unbounded.
 */
export function connect(source: ClusterSource, context: string | undefined, why: string, text?: string): Connection {
  const kc = new KubeConfig();
  if ('kubeconfig' in source && text !== undefined) {
    kc.loadFromString(text);
    kc.makePathsAbsolute(path.dirname(source.kubeconfig));
  } else if ('kubeconfig' in source) kc.loadFromFile(source.kubeconfig);
  else kc.loadFromCluster();
  if (context) kc.setCurrentContext(context);
  const api = kc.makeApiClient(RawApi);
  const ctx = kc.getContextObject(kc.getCurrentContext());
  const watcher = new Watch(kc);
  // The library aborts a watch after 30 s without a byte; the API server sends bookmarks
  // about once a minute, so a quiet watch would be cut before its first one.
  (watcher as unknown as { requestTimeoutMs: number }).requestTimeoutMs = 150_000;
  return {
    watch: (p, q, onEvent, onDone) => watcher.watch(p, q, (type, obj) => onEvent(type, obj as Record<string, unknown>), onDone),
    raw: (p, q, as, signal) => api.raw(p, q, as, signal),
    context: kc.getCurrentContext(),
    server: kc.getCurrentCluster()?.server ?? '',
    namespace: ctx?.namespace ?? 'default',
    transport: { library: why },
  };
}

export { ApiException };
