import { tools as data } from './data/index.ts';
import { tools as files } from './files/index.ts';
import { tools as k8s } from './k8s/index.ts';
import { tools as network } from './network/index.ts';
import { tools as peers } from './peers/index.ts';
import { tools as planning } from './planning/index.ts';
import { tools as scion } from './scion/index.ts';
import { tools as search } from './search/index.ts';
import { tools as shell } from './shell/index.ts';
import { tools as skills } from './skills/index.ts';
import type { AnyTool } from './tool.ts';
import { tools as verify } from './verify/index.ts';
import { tools as workspace } from './workspace/index.ts';

/**
 * Every built-in tool, in canonical catalog order: the families one after the
 * other. Recipes, --disable-tools and permission rules are checked against
 * these names, so a name from a newer build is an error here rather than a
 * silent no-op. Which of them a run registers depends on its services (each
 * tool's `needs`).
 */
export const BUILTIN_TOOLS: readonly AnyTool[] = [
  ...shell,
  ...files,
  ...search,
  ...workspace,
  ...data,
  ...verify,
  ...k8s,
  ...skills,
  ...network,
  ...planning,
  ...scion,
  ...peers,
];

export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((t) => t.name);

export function isBuiltinToolName(name: string): boolean {
  return BUILTIN_TOOL_NAMES.includes(name);
}
