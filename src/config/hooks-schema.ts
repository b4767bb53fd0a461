import * as z from 'zod/v4';

/**
 * The recipe's `hooks:` section: commands core-agent runs at the agent's
 * boundaries, each handed a JSON envelope on stdin (what Scion's `sciontool hook`
 * reads). The event names are Scion's canonical ones; each command says which
 * envelope it reads (ours, or Claude Code's for sciontool's built-in dialect).
 * Strict: a misspelt event is an error at its position, never a hook that
 * silently never fires.
 */
import { HOOK_DEFAULT_TIMEOUT_SECONDS, HOOK_ENVELOPES, HOOK_EVENTS, type HookEvent } from './hook-events.ts';

export { HOOK_DEFAULT_TIMEOUT_SECONDS, HOOK_EVENTS, type HookEvent };

/** Long enough for any argv a hook needs; far below what the kernel refuses. */
const ARG_MAX_CHARS = 4096;

const hookCommand = z.strictObject({
  command: z
    .union([
      z
        .array(z.string().min(1, 'an argv entry cannot be empty').max(ARG_MAX_CHARS))
        .min(1, 'an argv list needs at least the program: [/path/to/program, arg…]')
        .max(64)
        .describe('The program and its arguments, run without a shell (works in a distroless image).'),
      z
        .string()
        .trim()
        .min(1, 'an empty command: give a command line, or an argv list [program, arg…]')
        .max(ARG_MAX_CHARS)
        .describe('A command line for /bin/sh -c (refused at start-up where there is no /bin/sh).'),
    ])
    .describe('An argv list [program, arg…] run directly, or a string run with /bin/sh -c.'),
  timeout_seconds: z
    .number()
    .positive()
    .max(600)
    .optional()
    .describe(`Seconds before the command is killed (default ${HOOK_DEFAULT_TIMEOUT_SECONDS}); the agent never waits longer.`),
  envelope: z
    .enum(HOOK_ENVELOPES)
    .optional()
    .describe(
      "What the command reads on stdin: core-agent (default: our event names and fields) or claude (Claude Code's hook input, for sciontool hook --dialect=claude).",
    ),
});

export type HookCommand = z.output<typeof hookCommand>;

const hookList = z.array(hookCommand).max(32).describe('Commands run in this order, each with the envelope on stdin.');

export const hooksSchema = z
  .strictObject(Object.fromEntries(HOOK_EVENTS.map((e) => [e, hookList.optional()])) as Record<HookEvent, z.ZodOptional<typeof hookList>>)
  .describe(`Commands run at the agent's boundaries: ${HOOK_EVENTS.join(', ')}. A failing hook is logged, never fatal.`);

export type HooksConfig = z.output<typeof hooksSchema>;
