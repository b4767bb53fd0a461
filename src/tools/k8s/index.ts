import type { AnyTool } from '../tool.ts';
import { k8sApiResourcesTool } from './k8s-api-resources.ts';
import { k8sEventsTool } from './k8s-events.ts';
import { k8sGetTool } from './k8s-get.ts';
import { k8sListTool } from './k8s-list.ts';
import { k8sLogsTool } from './k8s-logs.ts';
import { k8sRolloutStatusTool } from './k8s-rollout-status.ts';

/** The Kubernetes family: read-only views of the configured cluster. */
export const tools: readonly AnyTool[] = [k8sGetTool, k8sListTool, k8sEventsTool, k8sLogsTool, k8sRolloutStatusTool, k8sApiResourcesTool];
