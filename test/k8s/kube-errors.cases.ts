import type { FailureKind } from '../../src/core/failure.ts';
import type { KubeErrorKind } from '../../src/k8s/kube-error.ts';

/**
 * Every way a Kubernetes request fails, as the model sees it: the tool call, the
 * sentence it gets back (unchanged from when the client threw ToolErrors), the
 * client's KubeError kind and the failure kind the k8s tools map it to. The fake
 * API (kube-errors.test.ts) answers pod names with the status they are named for.
 */
export interface KubeErrorCase {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  message: RegExp;
  kube: KubeErrorKind;
  failure: FailureKind;
  /** Point the kubeconfig at a port nothing listens on. */
  unreachable?: true;
}

export const KUBE_ERROR_CASES: readonly KubeErrorCase[] = [
  {
    what: 'a missing object',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'missing' },
    message: /^k8s_get: not found \(404\): pods "missing" not found$/,
    kube: 'not_found',
    failure: 'not_found',
  },
  {
    what: 'a missing Pod’s log',
    tool: 'k8s_logs',
    args: { pod: 'missing' },
    message: /^k8s_logs: not found \(404\): pods "missing" not found$/,
    kube: 'not_found',
    failure: 'not_found',
  },
  {
    what: 'a kind the cluster does not serve',
    tool: 'k8s_get',
    args: { kind: 'frobnicator', name: 'x' },
    message: /^k8s_get: the cluster serves no resource "frobnicator" \(k8s_api_resources/,
    kube: 'not_found',
    failure: 'not_found',
  },
  {
    what: 'a kind near a served one',
    tool: 'k8s_list',
    args: { kind: 'podz' },
    message: /serves no resource "podz"; similar kinds: Pod/,
    kube: 'not_found',
    failure: 'not_found',
  },
  {
    what: 'a version that does not serve the kind',
    tool: 'k8s_list',
    args: { kind: 'deploy', api_version: 'v1' },
    message: /serves no resource "deploy" in v1/,
    kube: 'not_found',
    failure: 'not_found',
  },
  {
    what: 'a Secret by get',
    tool: 'k8s_get',
    args: { kind: 'secret', name: 'db' },
    message: /^k8s_get: Secret objects are not readable here: Secrets are always refused\. Work from/,
    kube: 'denied',
    failure: 'denied',
  },
  {
    what: 'Secrets by list',
    tool: 'k8s_list',
    args: { kind: 'secrets' },
    message: /Secrets are always refused/,
    kube: 'denied',
    failure: 'denied',
  },
  {
    what: 'a kind the recipe denies',
    tool: 'k8s_list',
    args: { kind: 'cm' },
    message: /^k8s_list: ConfigMap objects are not readable here: the recipe lists it in kubernetes\.denied_resources\./,
    kube: 'denied',
    failure: 'denied',
  },
  {
    what: 'RBAC forbids it',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'forbidden' },
    message:
      /^k8s_get: forbidden \(403, RBAC\): pods "forbidden" is forbidden: .* The identity core-agent runs as may not do this; its role is read-only by design\.$/,
    kube: 'forbidden',
    failure: 'tool_error',
  },
  {
    what: 'bad credentials',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'unauthorized' },
    message: /^k8s_get: unauthorized \(401\): the cluster rejected core-agent's credentials: Unauthorized$/,
    kube: 'unauthorized',
    failure: 'tool_error',
  },
  {
    what: 'a request the API rejects',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'invalid' },
    message: /^k8s_get: the Kubernetes API answered 422 Invalid: the request is invalid$/,
    kube: 'invalid',
    failure: 'tool_error',
  },
  {
    what: 'an API that fails',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'broken' },
    message: /^k8s_get: the Kubernetes API answered 500 InternalError: etcd is down$/,
    kube: 'api_error',
    failure: 'tool_error',
  },
  {
    what: 'a status that is not JSON',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'plain' },
    message: /^k8s_get: the Kubernetes API answered 503: upstream unavailable$/,
    kube: 'api_error',
    failure: 'tool_error',
  },
  {
    what: 'a Pod with several containers and none named',
    tool: 'k8s_logs',
    args: { pod: 'multi' },
    message: /^k8s_logs: multi has several containers; give container: one of app, sidecar$/,
    kube: 'invalid',
    failure: 'tool_error',
  },
  {
    what: "the same, where the pod itself cannot be read: the API's own answer",
    tool: 'k8s_logs',
    args: { pod: 'guarded' },
    message: /^k8s_logs: .*a container name must be specified for pod guarded, choose one of: \[app sidecar\]/,
    kube: 'invalid',
    failure: 'tool_error',
  },
  {
    what: 'an API nobody answers',
    tool: 'k8s_get',
    args: { kind: 'pod', name: 'x' },
    message: /^k8s_get: cannot reach the Kubernetes API at http:\/\/127\.0\.0\.1:\d+: /,
    kube: 'unavailable',
    failure: 'tool_error',
    unreachable: true,
  },
  {
    what: 'an API nobody answers, listing',
    tool: 'k8s_api_resources',
    args: {},
    message: /^k8s_api_resources: cannot reach the Kubernetes API/,
    kube: 'unavailable',
    failure: 'tool_error',
    unreachable: true,
  },
];
