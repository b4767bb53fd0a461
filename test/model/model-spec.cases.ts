/**
 * PROVIDER:MODEL specs a user types (--model, CORE_AGENT_MODEL, model: in a
 * recipe) and the sentence each must get: which part is wrong and the fix.
 * `ok` specs are well formed (their provider may still refuse them later).
 */
export const MODEL_SPEC_CASES: ReadonlyArray<{ readonly spec: string; readonly problem?: RegExp }> = [
  { spec: 'google:gemini-2.5-flash' },
  { spec: 'replay:script.jsonl' },
  { spec: 'openai-compatible:llama3' },
  { spec: 'vertex:gemini-2.5-pro' },
  { spec: 'anthropic:claude-sonnet-4-5' },
  // A colon inside the model id is the id's (Ollama tags).
  { spec: 'openai-compatible:qwen2.5:7b' },
  {
    spec: 'gemini-2.5-flash',
    problem:
      /^model "gemini-2.5-flash" names no provider: write PROVIDER:MODEL, e\.g\. google:gemini-2\.5-flash \(known: replay, google, vertex, openai, openai-compatible, anthropic\)$/,
  },
  { spec: 'claude-sonnet-4-5', problem: /names no provider: .*e\.g\. anthropic:claude-sonnet-4-5 / },
  { spec: 'gpt-5', problem: /names no provider: .*e\.g\. openai:gpt-5 / },
  { spec: 'o3-mini', problem: /e\.g\. openai:o3-mini / },
  { spec: 'llama3', problem: /names no provider: .*e\.g\. google:gemini-2\.5-flash / },
  { spec: 'foo:bar', problem: /^provider "foo" is unknown \(known: replay, google, / },
  { spec: 'gogle:gemini-2.5-flash', problem: /^provider "gogle" is unknown — did you mean "google"\? \(known: / },
  { spec: 'antropic:claude', problem: /did you mean "anthropic"\?/ },
  { spec: 'openai_compatible:llama3', problem: /did you mean "openai-compatible"\?/ },
  { spec: 'Google:gemini-2.5-flash', problem: /^provider "Google" is unknown — did you mean "google"\?/ },
  { spec: ':gemini', problem: /^provider "" is unknown/ },
  { spec: 'google:', problem: /^model "google:" names no model after the provider: e\.g\. google:MODEL$/ },
  { spec: 'replay:', problem: /e\.g\. replay:script\.jsonl$/ },
  { spec: `${'x'.repeat(10_000)}:m`, problem: /^provider "x{40}…" is unknown/ },
  { spec: 'x'.repeat(10_000), problem: /^model "x{80}…" names no provider/ },
];
