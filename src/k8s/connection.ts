/**
 * One cluster as the Kube (cluster.ts) uses it, whichever transport serves it: the lean
 * one (kube-http.ts) or the whole @kubernetes/client-node (client-entry.ts).
 */
export interface Connection {
  /**
   * GET an API path and answer its JSON (or text) untouched. A non-2xx answer rejects
   * with `{ code, body }` (the Status object, else the text); a transport failure
   * rejects with the socket's error; an abort with an AbortError.
   */
  raw(path: string, query: Record<string, string | undefined>, as: 'json' | 'text', signal?: AbortSignal): Promise<unknown>;
  /**
   * A watch stream (`?watch=true`) with the same authentication: `onEvent` per line,
   * `onDone` once when the stream ends (null) or fails (a non-200 answer carries
   * `statusCode`). Returns the stream's abort.
   */
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (type: string, object: Record<string, unknown>) => void,
    onDone: (err: unknown) => void,
  ): Promise<AbortController>;
  context: string;
  server: string;
  namespace: string;
  /** Which transport serves it, and for the library why (kubeconfig.ts libraryOnly). */
  transport: 'lean' | { library: string };
}

/** Where the cluster is: a kubeconfig file, or the pod's service account (the API's address from the pod's environment). */
export type ClusterSource = { kubeconfig: string } | { inCluster: true; host: string; port: string };
