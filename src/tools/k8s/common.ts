import * as z from 'zod/v4';
import { LIMITS } from '../framework/limits.ts';
import { KubeError, type KubeErrorKind } from '../../k8s/kube-error.ts';
import type { FailureKind } from '../../core/failure.ts';
import { ToolError } from '../framework/tool.ts';

/**
 * What each client failure is to the dispatcher. `denied` is core-agent's own rule
 * (Secrets, kubernetes.denied_resources); an RBAC 403 is the cluster's answer, like
 * any other server's, and stays a tool_error.
 */
const FAILURE_OF: Readonly<Record<KubeErrorKind, FailureKind>> = {
  not_found: 'not_found',
  denied: 'denied',
  forbidden: 'tool_error',
  unauthorized: 'tool_error',
  invalid: 'tool_error',
  unavailable: 'tool_error',
  api_error: 'tool_error',
};

/** A client failure as the model sees it: the same sentence, with its failure kind. Anything else passes through. */
export function kubeToolError(err: unknown): unknown {
  return err instanceof KubeError ? new ToolError(err.message, FAILURE_OF[err.kind]) : err;
}

/**
 * The one place a k8s tool's failures are mapped: every k8s tool's `run` goes
 * through this, so the client never throws a tool's error type.
 */
export function withKubeErrors<Def extends { run(args: never, ctx: never): Promise<unknown> }>(def: Def): Def {
  const run = def.run.bind(def) as (args: unknown, ctx: unknown) => Promise<unknown>;
  return {
    ...def,
    async run(args: unknown, ctx: unknown) {
      try {
        return await run(args, ctx);
      } catch (err) {
        throw kubeToolError(err);
      }
    },
  };
}

/** A Kubernetes object's name (also a Pod's, a container's). */
export const k8sNameArg = (description: string) => z.string().min(1).max(LIMITS.k8sName).describe(description);

export const kindArg = z
  .string()
  .min(1)
  .max(LIMITS.k8sName)
  .describe('The kind as kubectl takes it: Pod, pods, po, Deployment, deploy, deployments.apps, a CRD kind…');
export const apiVersionArg = z
  .string()
  .min(1)
  .max(LIMITS.k8sName)
  .optional()
  .describe('Only when a kind is ambiguous, e.g. "apps/v1" or "v1".');
export const namespaceArg = z
  .string()
  .min(1)
  .max(LIMITS.k8sName)
  .optional()
  .describe('Default: the kubeconfig context’s namespace (usually "default").');

export const K8S_HINT = 'Narrow the call: a namespace, a label_selector or field_selector, a smaller limit.';
