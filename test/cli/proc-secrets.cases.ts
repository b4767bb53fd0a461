/**
 * What a command run by core-agent's bash can read of the secrets around it through /proc, one
 * case a line; proc-secrets.test.ts runs each as `tools call bash` of the built CLI with a
 * planted provider key in core-agent's environment and an MCP server holding a planted `env:`
 * value, and the command test/fixtures/proc-read/read-secrets.sh. docs/shell.md ("Credentials
 * and /proc") says where each read fails and why.
 *
 * - `user`: who runs core-agent (and so bash): `nobody` is an unprivileged uid (65534 when the
 *   test runs as root, else the test's own), `root` is root.
 * - `server`: the MCP server's executable: `readable` is node as installed, `exec-only` a copy
 *   its user may execute but not read (what the image does with kubernetes-mcp-server).
 * - each read: `denied` (EACCES), `found` (the secret is there), `absent` (read, and not there:
 *   core-agent's own environment block has it blanked).
 *
 * Expectations are for Yama's ptrace_scope 0 (or no Yama, as on the CI machine); the runner
 * turns a `found` in memory into `denied` where Yama forbids the attach (scope 1 and 2 for
 * non-root, 3 for all) — environ is a read, which Yama does not govern.
 */
export type ReadResult = 'denied' | 'found' | 'absent';

export interface ProcSecretsCase {
  name: string;
  user: 'nobody' | 'root';
  server: 'readable' | 'exec-only';
  /** More of core-agent's environment (CORE_AGENT_DUMPABLE). */
  env?: Record<string, string>;
  agentMem: ReadResult;
  agentEnviron: ReadResult;
  serverEnviron: ReadResult;
  serverMem: ReadResult;
}

// One case a line (prettier would spread each over several).
// prettier-ignore
export const PROC_SECRETS_CASES: ProcSecretsCase[] = [
  { name: 'unprivileged, an execute-only server: nothing readable', user: 'nobody', server: 'exec-only', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, a server from readable node: core-agent holds, the server is open', user: 'nobody', server: 'readable', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'found', serverMem: 'found' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=1: the memory is open, the environ block blanked', user: 'nobody', server: 'exec-only', env: { CORE_AGENT_DUMPABLE: '1' }, agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=yes, a readable server: both open', user: 'nobody', server: 'readable', env: { CORE_AGENT_DUMPABLE: 'yes' }, agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'found', serverMem: 'found' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=0 is no opt-out', user: 'nobody', server: 'exec-only', env: { CORE_AGENT_DUMPABLE: '0' }, agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'root: its commands read every process', user: 'root', server: 'exec-only', agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'found', serverMem: 'found' },
];
