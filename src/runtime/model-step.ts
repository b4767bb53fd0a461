import type { Recipe } from '../config/recipe-schema.ts';
import { UsageError } from '../core/usage-error.ts';
import { ModelConfigError, type ChatModel } from '../model/model.ts';
import { resolveModel } from '../model/providers.ts';
import type { Settings } from './settings.ts';

/** -m / CORE_AGENT_MODEL (both in `model`), then the recipe's model:. */
export function modelSpecOf(settings: Pick<Settings, 'model'>, recipe: Recipe, command: string): string {
  const spec = settings.model ?? recipe.model;
  if (!spec) {
    throw new UsageError(
      'no model: give --model (e.g. replay:script.jsonl or google:gemini-2.5-flash), CORE_AGENT_MODEL, or model: in the recipe',
      command,
    );
  }
  return spec;
}

/** The model step: the provider's model (its key checked now, a usage error when missing). */
export async function modelStep(spec: string, env: NodeJS.ProcessEnv, command: string): Promise<ChatModel> {
  try {
    return await resolveModel(spec, env);
  } catch (err) {
    if (err instanceof ModelConfigError) throw new UsageError(err.message, command);
    throw err;
  }
}
