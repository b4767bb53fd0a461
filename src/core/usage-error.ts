/**
 * A command line that cannot be run as written: exit status 2, with a hint to
 * the command's --help. Here (not in cli/) because the composition root finds
 * some of them (no model, a model without its key) while it builds the system.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose --help would have helped, for the hint. */
    readonly command: string = '',
  ) {
    super(message);
  }
}
