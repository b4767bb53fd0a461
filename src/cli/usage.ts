export { UsageError } from '../core/usage-error.ts';

/**
 * Exit statuses (docs/cli.md#exit-status): 0 done, 1 a runtime failure (a refused
 * `tools call`, a turn the watchdog cut…), 2 a usage or configuration error, 3 the model
 * call failed (the provider refused or could not be reached, after the retries).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, model: 3 } as const;

/** Where a command writes: injectable so tests can run the CLI in-process. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
}

export const COMMON_OPTIONS_HELP = `Common options:
  -c, --recipe FILE        Recipe (YAML) to configure the run     [env CORE_AGENT_RECIPE]
  -w, --workspace DIR      Workspace root (default: current dir) [env CORE_AGENT_WORKSPACE]
      --disable-tools a,b  Leave these tools out of the catalog   [env CORE_AGENT_DISABLE_TOOLS]
      --enable-tools a,b   Put these back after a disable         [env CORE_AGENT_ENABLE_TOOLS]
      --dialect NAME       core-agent|cagent|golem: whose tool names the model sees
                           (one tool per job; default core-agent) [env CORE_AGENT_DIALECT]
      --log-level LEVEL    fatal|error|warn|info|debug|trace|silent (default warn; logs go to stderr as JSON)
                                                                  [env CORE_AGENT_LOG_LEVEL]
      --bash-search-gate M enforce|warn|allow: search-shaped bash commands (default enforce)
                                                                  [env CORE_AGENT_BASH_SEARCH_GATE]
      --task T             debug|research|review: an investigation preset without bash
                           (--enable-tools bash puts it back; the search gate still applies)
      --no-mcp-digest      Show large MCP and survey-tool results as they are (capped)
                           instead of as a digest; no retrieve_raw [env CORE_AGENT_NO_MCP_DIGEST]
      --trust-workspace    Start the MCP servers .agents/mcp.json declares (it names
                           commands to run)               [env CORE_AGENT_TRUST_WORKSPACE]
  -h, --help               Show help for the command
Precedence: flags > environment > recipe > built-in defaults.`;
