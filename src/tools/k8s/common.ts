import * as z from 'zod/v4';
import { LIMITS } from '../limits.ts';
import type { Kube } from '../../k8s/cluster.ts';
import { ToolError, type ToolContext } from '../tool.ts';

/** A Kubernetes object's name (also a Pod's, a container's). */
export const k8sNameArg = (description: string) => z.string().min(1).max(LIMITS.k8sName).describe(description);

/** The session's cluster; the tools are only registered when there is one. */
export function kube(ctx: ToolContext): Kube {
  const k = ctx.services.kube;
  if (!k) throw new ToolError('no Kubernetes cluster is configured in this run');
  return k;
}

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
