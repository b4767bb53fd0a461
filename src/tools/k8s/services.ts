import { SettingsError } from '../../core/settings-error.ts';
import type { Recipe } from '../../config/recipe-schema.ts';
import { findCluster, Kube } from '../../k8s/cluster.ts';
import type { FamilyServices } from '../framework/family.ts';
import type { MissingReasons } from '../framework/services.ts';

declare module '../framework/services.ts' {
  interface ToolServices {
    /** The Kubernetes cluster the k8s_* tools read, when one is configured. */
    readonly kube?: Kube | undefined;
    /** Why there is no cluster, when there is none (said instead of the generic reason). */
    readonly kubeUnavailable?: string | undefined;
  }
}

export const services: FamilyServices = async ({ recipe, env, home, world }) => {
  const cluster = clusterStep(recipe, env, home, world);
  await checkRequiredCluster(recipe, cluster);
  return 'kube' in cluster ? { kube: cluster.kube } : { kubeUnavailable: cluster.unavailable };
};

export const missing: MissingReasons = {
  kube: (s) => s.kubeUnavailable ?? 'no Kubernetes cluster is configured',
};

/**
 * The cluster the recipe and environment point at, or why there is none (the
 * k8s tools say it; watch refuses to start). With kubernetes.required, none is
 * a SettingsError (exit 2): an incident recipe without its cluster would run
 * blind and still exit 0. `world` false (recipe validate) looks for none.
 */
export function clusterStep(recipe: Recipe, env: NodeJS.ProcessEnv, home: string, world = true): { kube: Kube } | { unavailable: string } {
  // world false (recipe validate): the recipe alone, so only its own contradiction (required, yet enabled: false) is refused.
  if (!world && recipe.kubernetes?.enabled !== false) return { unavailable: 'recipe validate does not look for a cluster' };
  const found = findClusterFor(recipe, env, home);
  if ('unavailable' in found && recipe.kubernetes?.required === true) throw requiredButNone(found.unavailable);
  return 'unavailable' in found ? found : { kube: new Kube(found, recipe.kubernetes) };
}

/**
 * With kubernetes.required, the cluster's configuration read and checked before the run starts
 * (no request is made): a kubeconfig that cannot be used — not a file, too large, not YAML, no
 * such context — is the same SettingsError as none at all, not a failure at the first k8s call.
 */
export async function checkRequiredCluster(recipe: Recipe, cluster: { kube: Kube } | { unavailable: string }): Promise<void> {
  if (recipe.kubernetes?.required !== true || !('kube' in cluster)) return;
  const unusable = await cluster.kube.conn().then(
    () => undefined,
    (err: unknown) => (err as Error).message,
  );
  if (unusable !== undefined) throw requiredButNone(unusable);
}

const requiredButNone = (why: string) =>
  new SettingsError(`the recipe requires a Kubernetes cluster (kubernetes.required) and there is none: ${why}`);

function findClusterFor(recipe: Recipe, env: NodeJS.ProcessEnv, home: string) {
  if (recipe.kubernetes?.enabled === false) return { unavailable: 'kubernetes.enabled is false' };
  // ~/.kube/config under the home the root resolved (HOME, else the account's own).
  return findCluster(env, recipe.kubernetes, home);
}

/**
 * The line a run prints when its recipe declares `kubernetes:` and there is no
 * cluster (not required): the k8s_* tools are absent, and the user should know
 * why before the model finds out. Undefined when the recipe says nothing of
 * Kubernetes, or turned it off on purpose.
 */
export function clusterNotice(recipe: Recipe, unavailable: string | undefined): string | undefined {
  if (unavailable === undefined || recipe.kubernetes === undefined || recipe.kubernetes.enabled === false) return undefined;
  return `core-agent: no Kubernetes tools (k8s_*) in this run: ${unavailable}\n`;
}
