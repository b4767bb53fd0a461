// The attach daemon's defaults, below its flags and the recipe's attach: section. Their own
// module, with no imports, because `serve --help` says them (src/cli/command-table.ts) and the
// daemon applies them (src/runtime/), and help must not evaluate the daemon.

/** Where the API listens when neither --listen nor attach.listen says. */
export const ATTACH_LISTEN_DEFAULT = '127.0.0.1:7777';

/** How long a permission prompt waits for a remote answer when neither --prompt-timeout nor attach.prompt_timeout_seconds says. */
export const PROMPT_TIMEOUT_DEFAULT_S = 300;

/**
 * attach.incident_access.viewers when absent: every authenticated principal may follow an incident's
 * session (owned by the service principal). watch's API only lists and follows incidents — it sends
 * them nothing — and before sessions had owners a single-token watch let its operator see them all.
 */
export const INCIDENT_VIEWERS_DEFAULT: readonly string[] = ['*'];
