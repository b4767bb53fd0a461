/**
 * What a command run by core-agent's bash can read of the secrets around it through /proc, one
 * case a line; proc-secrets.test.ts runs each as `tools call bash` of the built CLI with a
 * planted provider key in core-agent's environment and an MCP server holding a planted `env:`
 * value, and the command test/fixtures/proc-read/read-secrets.sh. docs/shell.md ("Credentials
 * and /proc") says where each read fails and why.
 *
 * - `user`: who runs core-agent (and so bash): `nobody` is an unprivileged uid (65534 when the
 *   test runs as root, else the test's own), `root` is root.
 * - `server`: how the MCP server is given: `node` is node as installed (readable), `exec-only` a
 *   copy its user may execute but not read (what the image does with kubernetes-mcp-server),
 *   `env-node` a `#!/usr/bin/env node` script, `sh-wrapper` a `#!/bin/sh` script that runs node as
 *   its child (not `exec`), `node-opt-out` node with `exec_only: false`.
 * - `warns`: core-agent says the server's env: is readable (runtime/exec-only-launch.ts).
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
  server: 'node' | 'exec-only' | 'env-node' | 'sh-wrapper' | 'node-opt-out';
  /** More of core-agent's environment (CORE_AGENT_DUMPABLE). */
  env?: Record<string, string>;
  agentMem: ReadResult;
  agentEnviron: ReadResult;
  serverEnviron: ReadResult;
  serverMem: ReadResult;
  warns?: boolean;
}

// One case a line (prettier would spread each over several).
// prettier-ignore
export const PROC_SECRETS_CASES: ProcSecretsCase[] = [
  { name: 'unprivileged, a server given as an execute-only file: nothing readable', user: 'nobody', server: 'exec-only', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, node as installed: started from an execute-only copy, nothing readable', user: 'nobody', server: 'node', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, a #!/usr/bin/env node script: its interpreter copied, nothing readable', user: 'nobody', server: 'env-node', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, a #!/bin/sh wrapper whose child is node from PATH: the child is open, and core-agent says so', user: 'nobody', server: 'sh-wrapper', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'found', serverMem: 'found', warns: true },
  { name: 'unprivileged, exec_only: false: the server is open, as asked', user: 'nobody', server: 'node-opt-out', agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'found', serverMem: 'found' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=1: the memory is open, the environ block blanked', user: 'nobody', server: 'exec-only', env: { CORE_AGENT_DUMPABLE: '1' }, agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=yes: servers are started as given, both open', user: 'nobody', server: 'node', env: { CORE_AGENT_DUMPABLE: 'yes' }, agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'found', serverMem: 'found' },
  { name: 'unprivileged, CORE_AGENT_DUMPABLE=0 is no opt-out', user: 'nobody', server: 'env-node', env: { CORE_AGENT_DUMPABLE: '0' }, agentMem: 'denied', agentEnviron: 'denied', serverEnviron: 'denied', serverMem: 'denied' },
  { name: 'root: its commands read every process', user: 'root', server: 'node', agentMem: 'found', agentEnviron: 'absent', serverEnviron: 'found', serverMem: 'found' },
];
