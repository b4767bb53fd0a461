// `mcp.servers.<name>.required` and `alerts.targets.<name>.required` through the built CLI
// (test/cli/required-services.test.ts): a required server that cannot start, or a required
// target that cannot deliver, stops the start with exit 2 and one sentence naming it and what is
// missing; not required, the run goes on without it; `recipe validate` never looks.
// `recipe` is the recipe's text, with placeholders: {ok-server} (the SDK test server over stdio),
// {missing-server} (a command that does not exist), {gke} (an http server authenticated with
// Google ADC, whose metadata server — on 127.0.0.1 — resets every connection, the answer that made
// google-auth-library print a raw MetadataLookupWarning), {recipes} (the shipped recipes' folder).
// `stdout` / `stderr`: what must match (null: nothing about required services on stderr). One case a line.

export type Command = 'run' | 'repl' | 'validate' | 'watch';
export interface RequiredCase {
  name: string;
  command: Command;
  /** The recipe's text; `file` instead runs a shipped recipe (relative to the repository). */
  recipe?: string;
  file?: string;
  env?: Record<string, string>;
  code: number;
  stderr: RegExp | null;
  stdout?: RegExp;
}

const MCP_REFUSED = (server: string) =>
  new RegExp(
    `^core-agent: the recipe requires the MCP server "${server}" \\(mcp\\.servers\\.${server}\\.required\\) and it did not start: \\S`,
    'm',
  );
const ALERT_REFUSED = (target: string, why: string) =>
  new RegExp(
    `^core-agent: the recipe requires the alert target "${target}" \\(alerts\\.targets\\.${target}\\.required\\) and it cannot deliver: ${why}$`,
    'm',
  );
const oncall = (more: string) => `alerts:\n  targets:\n    oncall: {url_env: ONCALL_URL${more}}\n`;

export const REQUIRED_CASES: RequiredCase[] = [
  {
    name: 'a required server that cannot start',
    command: 'run',
    recipe: 'mcp:\n  servers: {missing-server}\n',
    code: 2,
    stderr: MCP_REFUSED('missing'),
  },
  { name: 'the same in the REPL', command: 'repl', recipe: 'mcp:\n  servers: {missing-server}\n', code: 2, stderr: MCP_REFUSED('missing') },
  { name: 'a required server that starts', command: 'run', recipe: 'mcp:\n  servers: {ok-server}\n', code: 0, stderr: null },
  {
    name: 'a server not required that cannot start: the run goes on',
    command: 'run',
    recipe: 'mcp:\n  servers: {missing-optional}\n',
    code: 0,
    stderr: /MCP server did not start/,
  },
  {
    name: 'required and disabled: the file contradicts itself',
    command: 'validate',
    recipe: 'mcp:\n  servers:\n    x: {command: x, disabled: true, required: true}\n',
    code: 2,
    stderr: /a required server cannot be disabled/,
  },
  {
    name: 'validate starts no server',
    command: 'validate',
    recipe: 'mcp:\n  servers: {missing-server}\n',
    code: 0,
    stderr: null,
    stdout: /mcp servers: missing \(stdio, required\)/,
  },
  {
    name: 'Google ADC with no credentials, required: no raw MetadataLookupWarning',
    command: 'run',
    recipe: 'mcp:\n  servers: {gke}\n',
    code: 2,
    stderr: MCP_REFUSED('gke'),
  },
  {
    name: 'a required alert target, its URL unset',
    command: 'run',
    recipe: oncall(', required: true'),
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_URL \\(url_env\\) is not set'),
  },
  {
    name: 'the same in the REPL',
    command: 'repl',
    recipe: oncall(', required: true'),
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_URL \\(url_env\\) is not set'),
  },
  {
    name: 'a required alert target, its URL no URL',
    command: 'run',
    recipe: oncall(', required: true'),
    env: { ONCALL_URL: 'oncall.example' },
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_URL \\(url_env\\) is not an http\\(s\\) URL'),
  },
  {
    name: 'a required alert target, its token unset',
    command: 'run',
    recipe: oncall(', token_env: ONCALL_TOKEN, required: true'),
    env: { ONCALL_URL: 'http://127.0.0.1:9/hook' },
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_TOKEN \\(token_env\\) is not set'),
  },
  {
    name: 'a required alert target that can deliver',
    command: 'run',
    recipe: oncall(', required: true'),
    env: { ONCALL_URL: 'http://127.0.0.1:9/hook' },
    code: 0,
    stderr: null,
  },
  {
    name: 'an alert target not required, unset: dropped, the run goes on',
    command: 'run',
    recipe: oncall(''),
    code: 0,
    stderr: /alert target dropped/,
  },
  {
    name: 'validate reads no variable',
    command: 'validate',
    recipe: oncall(', required: true'),
    code: 0,
    stderr: null,
    stdout: /needs at start-up \(core-agent doctor checks them\): alert target oncall: ONCALL_URL \(required\)/,
  },
  {
    name: 'watch: a required alert target unset stops its start',
    command: 'watch',
    recipe: `${oncall(', required: true')}watch: {}\n`,
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_URL \\(url_env\\) is not set'),
  },
  // The shipped incident recipes, as a user without credentials runs them.
  {
    name: 'gke-incident.yaml with no webhook',
    command: 'run',
    file: 'recipes/gke-incident.yaml',
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_WEBHOOK_URL \\(url_env\\) is not set'),
  },
  {
    name: 'gke-incident.yaml with no Google credentials',
    command: 'run',
    file: 'recipes/gke-incident.yaml',
    env: { ONCALL_WEBHOOK_URL: 'http://127.0.0.1:9/hook' },
    code: 2,
    stderr: MCP_REFUSED('gke'),
  },
  {
    name: 'k8s-incident.yaml with no kubernetes-mcp-server on PATH',
    command: 'run',
    file: 'recipes/k8s-incident.yaml',
    env: { ONCALL_WEBHOOK_URL: 'http://127.0.0.1:9/hook' },
    code: 2,
    stderr: MCP_REFUSED('kubernetes'),
  },
  {
    name: 'k8s-remediate.yaml with no webhook',
    command: 'run',
    file: 'recipes/k8s-remediate.yaml',
    code: 2,
    stderr: ALERT_REFUSED('oncall', 'ONCALL_WEBHOOK_URL \\(url_env\\) is not set'),
  },
];
