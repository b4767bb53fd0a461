/**
 * A setting that cannot be used — a flag, a variable, a recipe value, or what one of them
 * points at (no cluster where the recipe requires one): the command exits 2 with this
 * message. Here (not in runtime/) because the families' services find some of them while
 * the root builds the system.
 */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}
