import type { Recipe } from '../config/recipe-schema.ts';
import { findCluster, Kube } from '../k8s/cluster.ts';
import { liveTargets, type AlertTarget } from '../net/alert-targets.ts';

/** The cluster the recipe and environment point at, or why there is none (the k8s tools say it; watch refuses to start). */
export function clusterStep(recipe: Recipe, env: NodeJS.ProcessEnv, home: string): { kube: Kube } | { unavailable: string } {
  if (recipe.kubernetes?.enabled === false) return { unavailable: 'kubernetes.enabled is false' };
  // ~/.kube/config under the home the root resolved (HOME, else the account's own).
  const cluster = findCluster(env, recipe.kubernetes, home);
  return 'unavailable' in cluster ? cluster : { kube: new Kube(cluster, recipe.kubernetes) };
}

/** The recipe's alert targets that can deliver (their URL and credentials are set), and why the others cannot. */
export function alertTargetsStep(
  recipe: Recipe,
  env: NodeJS.ProcessEnv,
): { live: AlertTarget[]; dropped: ReadonlyArray<{ target: string; reason: string }> } | undefined {
  const targets = recipe.alerts?.targets;
  return targets ? liveTargets(targets, env) : undefined;
}
