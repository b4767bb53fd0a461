/**
 * `${NAME}` or `${env:NAME}` in args, env and header values, expanded from core-agent's
 * environment at start; `${NAME:-default}` (Claude Code's `.mcp.json` form, as in a shell) gives
 * the default when NAME is unset or empty. Apart from mcp-schema.ts, which builds zod schemas
 * as it loads: the root's secret registry reads it on every command.
 */
export const ENV_REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
