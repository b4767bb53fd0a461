// `/model ARG` in the REPL (test/cli/repl-model.test.ts): each refusal says why and leaves the
// session on its model (the next turn still answers from the first script). `env` is added to
// the REPL's environment. One line a case.

export interface ModelSwitchCase {
  arg: string;
  says: RegExp;
  env?: Record<string, string>;
}

export const MODEL_REFUSALS: ModelSwitchCase[] = [
  { arg: 'foo:bar', says: /provider "foo" is unknown .*known: replay, google/ },
  { arg: 'opnai:gpt-5', says: /provider "opnai" is unknown — did you mean "openai"\?/ },
  { arg: 'gemini-2.5-flash', says: /names no provider: write PROVIDER:MODEL, e\.g\. google:gemini-2\.5-flash/ },
  { arg: 'openai:', says: /names no model after the provider/ },
  { arg: 'anthropic:claude-sonnet-4-5', says: /needs an API key: set ANTHROPIC_API_KEY/ },
  { arg: 'google:gemini-2.5-flash', says: /set GOOGLE_API_KEY or GEMINI_API_KEY/ },
  { arg: 'openai-compatible:llama', says: /needs the server URL: set OPENAI_COMPATIBLE_BASE_URL/ },
  { arg: 'vertex:gemini-2.5-pro', says: /needs a project: set GOOGLE_CLOUD_PROJECT/ },
  { arg: 'replay:nope.jsonl', says: /nope\.jsonl/ },
  { arg: `x${'y'.repeat(5000)}:z`, says: /provider "xy{39}…" is unknown/ },
];
