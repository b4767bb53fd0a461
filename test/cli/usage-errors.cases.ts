/**
 * Command-line mistakes and the one sentence each must get (exit 2 unless said):
 * the flag or part at fault, the likely intent, the fix — never parseArgs' own
 * text or a stack. `tools call` of a tool this build has but did not register
 * says why instead of "unknown tool". A new case is one line.
 */
export interface UsageErrorCase {
  readonly argv: readonly string[];
  readonly stderr: RegExp;
  /** Where the answer is printed when it is not a usage error on stderr (tools call prints JSON). */
  readonly stdout?: RegExp;
  readonly code?: number;
}

export const USAGE_ERROR_CASES: readonly UsageErrorCase[] = [
  {
    argv: ['run', '--modle', 'x', 'hi'],
    stderr:
      /^core-agent: unknown option --modle — did you mean "--model" or "--mode"\? \(a PROMPT that starts with "-" goes after "--"\)\nRun "core-agent run --help" for usage\.\n$/,
  },
  { argv: ['run', '--max-stpes', '3', 'hi'], stderr: /unknown option --max-stpes — did you mean "--max-steps"\?/ },
  { argv: ['run', '--workspce', '.', 'hi'], stderr: /unknown option --workspce — did you mean "--workspace"\?/ },
  { argv: ['tools', 'list', '--jsn'], stderr: /unknown option --jsn — did you mean "--json"\? .*\nRun "core-agent tools list --help"/ },
  { argv: ['sessions', 'list', '--al'], stderr: /unknown option --al — did you mean "--all"\?/ },
  { argv: ['run', '-q', 'hi'], stderr: /^core-agent: unknown option -q \(a PROMPT that starts with "-" goes after "--"\)/ },
  { argv: ['run', '--zzzzzzzzzzzzzzzz', 'hi'], stderr: /^core-agent: unknown option --zzzzzzzzzzzzzzzz \(a PROMPT/ },
  { argv: ['run', `--${'x'.repeat(100_000)}`, 'hi'], stderr: /^core-agent: unknown option --x{58} \(a PROMPT/ },
  { argv: ['run', '--model'], stderr: /^core-agent: --model needs a value: --model VALUE\n/ },
  { argv: ['run', 'hi', '-m'], stderr: /--model needs a value/ },
  { argv: ['run', '--yolo=1', 'hi'], stderr: /^core-agent: --yolo takes no value\n/ },
  { argv: ['tools', 'list', '--json=yes'], stderr: /--json takes no value/ },
  { argv: ['sessions', 'prune', '--older-than', '-1d'], stderr: /--older-than: its value starts with "-"; write --older-than=VALUE/ },
  {
    argv: ['run', '-m', 'foo:bar', 'hi'],
    stderr: /provider "foo" is unknown \(known: replay, google, vertex, openai, openai-compatible, anthropic\)/,
  },
  { argv: ['run', '-m', 'gogle:gemini-2.5-flash', 'hi'], stderr: /provider "gogle" is unknown — did you mean "google"\?/ },
  {
    argv: ['run', '-m', 'gemini-2.5-flash', 'hi'],
    stderr: /model "gemini-2.5-flash" names no provider: write PROVIDER:MODEL, e\.g\. google:gemini-2\.5-flash/,
  },
  { argv: ['run', '-m', 'claude-sonnet-4-5', 'hi'], stderr: /e\.g\. anthropic:claude-sonnet-4-5/ },
  {
    argv: ['run', '--agentic-small-model', 'gemini-2.5-flash-lite', 'hi'],
    stderr: /^core-agent: --agentic-small-model: model "gemini-2\.5-flash-lite" names no provider: write PROVIDER:MODEL/,
  },
  {
    argv: ['tools', 'call', 'k8s_list', '{}'],
    stderr: /^$/,
    stdout:
      /"error": "k8s_list is not registered: no cluster is configured: no kubeconfig \(kubernetes\.kubeconfig in the recipe, \$KUBECONFIG, ~\/\.kube\/config\) and not running in a cluster"/,
    code: 1,
  },
  {
    argv: ['tools', 'call', 'web_fetch', '{}', '--dialect', 'cagent'],
    stderr: /^$/,
    stdout: /"error": "web_fetch is not registered: permissions\.url_scope\.allow is empty"/,
    code: 1,
  },
  {
    argv: ['tools', 'call', 'bash', '{"command": "ls"}', '--disable-tools', 'bash'],
    stderr: /^$/,
    stdout:
      /"error": "bash is not registered: it is turned off here \(tools\.disable in the recipe or a config file, CORE_AGENT_DISABLE_TOOLS, --disable-tools/,
    code: 1,
  },
  {
    argv: ['tools', 'call', 'bash', '{"command": "ls"}', '--task', 'debug'],
    stderr: /^$/,
    stdout: /"error": "bash is not registered: it is turned off here/,
    code: 1,
  },
  {
    argv: ['sesions', 'list'],
    stderr:
      /^core-agent: unknown command "sesions" — did you mean "sessions"\? \(to send it as a prompt: core-agent -p sesions\)\nRun "core-agent --help" for usage\.\n$/,
  },
  { argv: ['rn', 'hi'], stderr: /unknown command "rn" — did you mean "run"\?/ },
  // Any other first word is a prompt (`core-agent "…"` runs it): here it has no model.
  { argv: ['frobnicate'], stderr: /^core-agent: no model: give --model .*\nRun "core-agent run --help"/ },
  { argv: ['-p', '-v is broken'], stderr: /^core-agent: --prompt: its value starts with "-"; write --prompt=VALUE\n/ },
  // A name no build has stays an unknown tool, with the guess.
  {
    argv: ['tools', 'call', 'gerp', '{}'],
    stderr: /^$/,
    stdout: /"error": "unknown tool \\"gerp\\" — did you mean \\"grep\\"\? Valid: bash, /,
    code: 1,
  },
];
