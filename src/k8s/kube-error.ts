/**
 * Why a Kubernetes request failed, as data. The client knows nothing of tools:
 * the k8s tools turn a KubeError into a ToolError with a failure kind
 * (tools/k8s/common.ts), and the watcher reads the kind to tell an object that
 * is gone from a cluster that is down.
 */
export const KUBE_ERROR_KINDS = [
  /** The API answered 404, or the cluster serves no resource of that kind. */
  'not_found',
  /** core-agent's own rule refused it: Secrets always, and the recipe's kubernetes.denied_resources. */
  'denied',
  /** The API answered 403: RBAC does not let core-agent's identity do this. */
  'forbidden',
  /** The API answered 401: the cluster rejected the credentials. */
  'unauthorized',
  /** The API answered 400 or 422: it rejected the request as written (e.g. a Pod with several containers and none named). */
  'invalid',
  /** The API could not be reached, or the kubeconfig could not be loaded. */
  'unavailable',
  /** Any other answer from the API, or a watch the API ended with an error. */
  'api_error',
] as const;

export type KubeErrorKind = (typeof KUBE_ERROR_KINDS)[number];

export class KubeError extends Error {
  override readonly name = 'KubeError';

  constructor(
    message: string,
    readonly kind: KubeErrorKind,
    /** The HTTP status the API answered with, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The kind an API status means. */
export function kubeErrorKind(status: number): KubeErrorKind {
  if (status === 404) return 'not_found';
  if (status === 403) return 'forbidden';
  if (status === 401) return 'unauthorized';
  if (status === 400 || status === 422) return 'invalid';
  return 'api_error';
}
