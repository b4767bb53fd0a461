// `core-agent doctor` against real components (test/cli/doctor.test.ts): a stdio MCP server
// process, one that exits, one that never answers; an HTTP server on 127.0.0.1 answering
// /version as a kube API server, one that never answers, and a closed port; model providers
// answering their models endpoints. Placeholders in `args`, `env`, `user`, `project` and
// `recipe`: {ok-server} {broken-server} {hung-server} (MCP server declarations), {kube-live}
// {kube-hung} {kube-dead} (kubeconfig files), {openai-url} {anthropic-url} {google-url} (a
// provider's base URL), {refusing-url} (an OpenAI server refusing every key), {dead-url}
// {hung-url} (a closed port, a server that never answers), {ws} the workspace; alert targets
// by their variables (set or not). Every failure of the "model api" check by provider is in
// test/model/model-errors.cases.ts. `expect`: the status of each named check; checks not named are not looked at.
// Every case runs twice (text and -o json) with a planted secret that must appear in neither.
// One line a case.

export type Status = 'ok' | 'warn' | 'fail';

export interface DoctorCase {
  name: string;
  args?: string[];
  env?: Record<string, string>;
  user?: string;
  project?: string;
  /** Written to r.yaml and given with -c. */
  recipe?: string;
  expect: Record<string, Status>;
  detail?: Record<string, RegExp>;
  /** Checks that must not be there. */
  absent?: string[];
  exit: 0 | 1;
}

export const SECRET = 'sk-planted-4d1c9e0b7a3f';

export const DOCTOR_CASES: DoctorCase[] = [
  {
    name: 'nothing configured',
    expect: { node: 'ok', ripgrep: 'ok', 'user config': 'ok', 'project config': 'ok', model: 'warn', mcp: 'ok', cluster: 'warn' },
    detail: { cluster: /no cluster is configured/ },
    exit: 0,
  },
  {
    name: 'anthropic with its key',
    args: ['-m', 'anthropic:claude-sonnet-4-5'],
    env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: '{anthropic-url}' },
    expect: { model: 'ok', 'model api': 'ok' },
    detail: {
      model: /ANTHROPIC_API_KEY set/,
      'model api': /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/models\/claude-sonnet-4-5 answered 200: the key in ANTHROPIC_API_KEY works$/,
    },
    exit: 0,
  },
  {
    name: 'anthropic without its key',
    args: ['-m', 'anthropic:claude-sonnet-4-5'],
    expect: { model: 'fail' },
    absent: ['model api'],
    detail: { model: /ANTHROPIC_API_KEY not set/ },
    exit: 1,
  },
  {
    name: 'openai with its key',
    args: ['--model', 'openai:gpt-5'],
    env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: '{openai-url}' },
    expect: { model: 'ok', 'model api': 'ok' },
    detail: { model: /OPENAI_API_KEY set/, 'model api': /\/v1\/models\/gpt-5 answered 200: the key in OPENAI_API_KEY works$/ },
    exit: 0,
  },
  {
    name: 'google with the second name',
    args: ['-m', 'google:gemini-2.5-flash'],
    env: { GEMINI_API_KEY: SECRET, GOOGLE_GEMINI_BASE_URL: '{google-url}' },
    expect: { model: 'ok', 'model api': 'ok' },
    detail: {
      model: /GOOGLE_API_KEY not set, GEMINI_API_KEY set/,
      'model api': /\/v1beta\/models\/gemini-2\.5-flash answered 200: the key in GEMINI_API_KEY works$/,
    },
    exit: 0,
  },
  {
    name: 'openai-compatible without its URL',
    args: ['-m', 'openai-compatible:llama'],
    expect: { model: 'fail' },
    detail: { model: /OPENAI_COMPATIBLE_BASE_URL not set/ },
    exit: 1,
  },
  {
    name: 'an unknown provider',
    args: ['-m', 'foo:bar'],
    expect: { model: 'fail' },
    detail: { model: /provider "foo" is unknown/ },
    exit: 1,
  },
  { name: 'no provider', args: ['-m', 'gemini-2.5-flash'], expect: { model: 'fail' }, detail: { model: /names no provider/ }, exit: 1 },
  {
    name: 'a key the provider refuses, echoed back',
    args: ['-m', 'openai:gpt-4.1-mini'],
    env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: '{refusing-url}' },
    expect: { model: 'ok', 'model api': 'fail' },
    detail: {
      'model api': /^openai answered HTTP 401: the key in OPENAI_API_KEY was refused \("Incorrect API key provided: \*\*\*\*\."\)$/,
    },
    exit: 1,
  },
  {
    name: 'an OpenAI-compatible server listing the model',
    args: ['-m', 'openai-compatible:local-model'],
    env: { OPENAI_COMPATIBLE_BASE_URL: '{openai-url}' },
    expect: { model: 'ok', 'model api': 'ok' },
    detail: { 'model api': /\/v1\/models answered 200$/ },
    exit: 0,
  },
  {
    name: 'an OpenAI-compatible server not listing the model',
    args: ['-m', 'openai-compatible:other-model'],
    env: { OPENAI_COMPATIBLE_BASE_URL: '{openai-url}', OPENAI_COMPATIBLE_API_KEY: SECRET },
    expect: { model: 'ok', 'model api': 'warn' },
    detail: { 'model api': /: the key in OPENAI_COMPATIBLE_API_KEY works, but lists no model "other-model" \(it has 1: "local-model"\)$/ },
    exit: 0,
  },
  {
    name: 'a provider on a closed port',
    args: ['-m', 'openai-compatible:local-model'],
    env: { OPENAI_COMPATIBLE_BASE_URL: '{dead-url}' },
    expect: { 'model api': 'fail' },
    detail: { 'model api': /^openai-compatible: nothing answers at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)$/ },
    exit: 1,
  },
  {
    name: 'a provider that never answers',
    args: ['-m', 'anthropic:claude-sonnet-4-5', '--timeout', '2'],
    env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: '{hung-url}' },
    expect: { 'model api': 'fail' },
    detail: { 'model api': /^anthropic: no answer from http:\/\/127\.0\.0\.1:\d+ within 2 s$/ },
    exit: 1,
  },
  {
    name: 'a replay model makes no call',
    args: ['-m', 'replay:{ws}/r.yaml'],
    recipe: 'max_steps: 5\n',
    expect: { model: 'ok' },
    absent: ['model api'],
    exit: 0,
  },
  {
    name: 'a replay script that is missing',
    args: ['-m', 'replay:nope.jsonl'],
    expect: { model: 'fail' },
    detail: { model: /no such replay script/ },
    exit: 1,
  },
  {
    name: 'the model from CORE_AGENT_MODEL',
    env: { CORE_AGENT_MODEL: 'anthropic:claude-x', ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: '{anthropic-url}' },
    expect: { model: 'ok' },
    detail: { model: /^anthropic:claude-x/ },
    exit: 0,
  },
  {
    name: 'the model from the user file',
    user: 'model: openai:gpt-5\n',
    env: { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: '{openai-url}' },
    expect: { 'user config': 'ok', model: 'ok' },
    detail: { 'user config': /config\.yaml$/, model: /^openai:gpt-5/ },
    exit: 0,
  },
  {
    name: 'a YAML error in the user file',
    user: 'model: x\n  bad: [\n',
    expect: { 'user config': 'fail' },
    detail: { 'user config': /config\.yaml:\d+:\d+: YAML/ },
    exit: 1,
  },
  {
    name: 'an unknown key in the project file',
    project: 'max_steps: 5\nmodle: x\n',
    expect: { 'project config': 'fail' },
    detail: { 'project config': /config\.yaml:2:1/ },
    exit: 1,
  },
  {
    name: 'a valid project file',
    project: 'max_steps: 5\n',
    expect: { 'project config': 'ok' },
    detail: { 'project config': /\.agents\/config\.yaml$/ },
    exit: 0,
  },
  { name: 'a valid recipe', recipe: 'max_steps: 5\n', expect: { recipe: 'ok' }, exit: 0 },
  { name: 'a broken recipe', recipe: 'max_steps: lots\n', expect: { recipe: 'fail' }, detail: { recipe: /r\.yaml:1:\d+/ }, exit: 1 },
  {
    name: 'an MCP server that starts',
    recipe: 'mcp:\n  servers: {ok-server}\n',
    expect: { 'mcp ok': 'ok' },
    detail: { 'mcp ok': /connected, [1-9]\d* tools/ },
    exit: 0,
  },
  { name: 'an MCP server that exits', recipe: 'mcp:\n  servers: {broken-server}\n', expect: { 'mcp broken': 'fail' }, exit: 1 },
  {
    name: 'an MCP server that never answers',
    args: ['--timeout', '2'],
    recipe: 'mcp:\n  servers: {hung-server}\n',
    expect: { 'mcp hung': 'fail' },
    detail: { 'mcp hung': /no answer within 2s/ },
    exit: 1,
  },
  {
    name: 'one MCP server up, one down',
    recipe: 'mcp:\n  servers: {ok-server}\n',
    project: 'mcp:\n  servers: {broken-server}\n',
    args: ['--trust-workspace'],
    expect: { 'mcp ok': 'ok', 'mcp broken': 'fail' },
    exit: 1,
  },
  { name: 'a project MCP server without trust', project: 'mcp:\n  servers: {ok-server}\n', expect: { mcp: 'ok' }, exit: 0 },
  {
    name: 'a cluster that answers',
    env: { KUBECONFIG: '{kube-live}' },
    expect: { cluster: 'ok' },
    detail: { cluster: /Kubernetes v1\.31\.4/ },
    exit: 0,
  },
  { name: 'the cluster of the recipe', recipe: 'kubernetes:\n  kubeconfig: {kube-live}\n', expect: { cluster: 'ok' }, exit: 0 },
  { name: 'a cluster on a closed port', env: { KUBECONFIG: '{kube-dead}' }, expect: { cluster: 'fail' }, exit: 1 },
  {
    name: 'a cluster that never answers',
    args: ['--timeout', '2'],
    env: { KUBECONFIG: '{kube-hung}' },
    expect: { cluster: 'fail' },
    exit: 1,
  },
  {
    name: 'a kubeconfig that does not exist',
    env: { KUBECONFIG: '{ws}/nope' },
    expect: { cluster: 'warn' },
    detail: { cluster: /does not exist/ },
    exit: 0,
  },
  { name: 'a required cluster that is missing', recipe: 'kubernetes:\n  required: true\n', expect: { cluster: 'fail' }, exit: 1 },
  {
    name: 'an alert target whose URL is set',
    recipe: 'alerts:\n  targets:\n    oncall: {url_env: HOOK_URL, required: true}\n',
    env: { HOOK_URL: 'http://127.0.0.1:9/hook' },
    expect: { 'alert oncall': 'ok' },
    exit: 0,
  },
  {
    name: 'an alert target whose URL is unset',
    recipe: 'alerts:\n  targets:\n    oncall: {url_env: HOOK_URL}\n',
    expect: { 'alert oncall': 'warn' },
    detail: { 'alert oncall': /HOOK_URL \(url_env\) is not set: dropped at start-up/ },
    exit: 0,
  },
  {
    name: 'a required alert target whose token is unset',
    recipe: 'alerts:\n  targets:\n    pager: {url_env: HOOK_URL, token_env: HOOK_TOKEN, required: true}\n',
    env: { HOOK_URL: 'http://127.0.0.1:9/hook' },
    expect: { 'alert pager': 'fail' },
    detail: { 'alert pager': /HOOK_TOKEN \(token_env\) is not set: a run refuses to start \(required\)/ },
    exit: 1,
  },

  {
    name: 'kubernetes turned off',
    recipe: 'kubernetes:\n  enabled: false\n',
    env: { KUBECONFIG: '{kube-dead}' },
    expect: { cluster: 'ok' },
    exit: 0,
  },
  {
    name: 'the secret in an MCP server env',
    recipe: 'mcp:\n  servers: {ok-server}\n',
    env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: '{anthropic-url}' },
    args: ['-m', 'anthropic:c'],
    expect: { 'mcp ok': 'ok', model: 'ok' },
    exit: 0,
  },
];
