import type { LanguageModelV4FunctionTool } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/model/providers.ts';
import { streamGenerate } from '../../src/model/stream.ts';
import { MAX_ENUM } from '../../src/model/tool-schemas.ts';
import type { Schema } from '../helpers/arg-schema.ts';
import { fakeProvider, type FakeServer } from '../helpers/fake-providers.ts';
import { fullRuntime } from '../helpers/full-runtime.ts';
import { anthropicProblems, geminiProblems, openaiProblems } from '../helpers/schema-subsets.ts';
import { HOSTILE_SCHEMAS } from './tool-schemas.cases.ts';

/**
 * Every registered built-in tool, and the hostile MCP schemas of tool-schemas.cases.ts, sent
 * through each provider package (the one a run uses, wrapped as a run wraps it) to a server on
 * 127.0.0.1: the tool declarations in the request body the server received are checked against
 * the provider's documented subset (test/helpers/schema-subsets.ts, written from the docs).
 * Vertex sends what the Gemini API does (the same package); the built CLI's requests are checked
 * the same way in providers.test.ts.
 */
type Any = Record<string, any>;

const PROVIDERS = [
  {
    name: 'google',
    wire: 'google',
    spec: 'google:gemini-2.5-flash',
    env: (url: string) => ({ GOOGLE_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url }),
    declarations: (body: Any) =>
      (body.tools as Any[])
        .flatMap((t) => t.functionDeclarations ?? [])
        .map((d: Any) => ({ name: d.name, schema: d.parametersJsonSchema, description: d.description })),
    problems: geminiProblems,
  },
  {
    name: 'openai',
    wire: 'openai',
    spec: 'openai:gpt-4.1-mini',
    env: (url: string) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }),
    declarations: (body: Any) =>
      (body.tools as Any[]).map((t) => ({ name: t.function.name, schema: t.function.parameters, description: t.function.description })),
    problems: openaiProblems,
  },
  {
    name: 'openai-compatible',
    wire: 'openai',
    spec: 'openai-compatible:local-model',
    env: (url: string) => ({ OPENAI_COMPATIBLE_BASE_URL: url }),
    declarations: (body: Any) =>
      (body.tools as Any[]).map((t) => ({ name: t.function.name, schema: t.function.parameters, description: t.function.description })),
    problems: openaiProblems,
  },
  {
    name: 'anthropic',
    wire: 'anthropic',
    spec: 'anthropic:claude-sonnet-4-5',
    env: (url: string) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }),
    declarations: (body: Any) => (body.tools as Any[]).map((t) => ({ name: t.name, schema: t.input_schema, description: t.description })),
    problems: anthropicProblems,
  },
] as const;

let builtins: LanguageModelV4FunctionTool[] = [];
const servers: FakeServer[] = [];
beforeAll(async () => {
  const rt = await fullRuntime();
  builtins = rt.catalog
    .list()
    .map((t) => ({ type: 'function', name: t.modelName, description: t.description, inputSchema: t.inputSchema }));
}, 120_000);
afterAll(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const hostile: LanguageModelV4FunctionTool[] = HOSTILE_SCHEMAS.map((h) => ({
  type: 'function',
  name: `mcp__hostile__${h.name}`,
  description: `An MCP tool whose schema is ${h.name}.`,
  inputSchema: h.schema as LanguageModelV4FunctionTool['inputSchema'],
}));

/** One request with these tools, through the provider package; the declarations the server received. */
async function sent(p: (typeof PROVIDERS)[number], tools: LanguageModelV4FunctionTool[]) {
  const server = await fakeProvider(p.wire, [{ text: 'ok' }]);
  servers.push(server);
  const model = await resolveModel(p.spec, p.env(server.url));
  await streamGenerate(
    model,
    { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools, toolChoice: { type: 'auto' } },
    () => {},
  );
  expect(server.requests).toHaveLength(1);
  return p.declarations(server.requests[0]!.body);
}

describe.each(PROVIDERS)('$name: tool declarations in its documented subset', (p) => {
  it('every registered built-in tool', async () => {
    expect(builtins.length).toBeGreaterThan(40);
    const declared = await sent(p, builtins);
    expect(declared.map((d) => d.name)).toEqual(builtins.map((t) => t.name));
    const problems = declared.flatMap((d) => p.problems(d.name, d.schema).map((x) => `${d.name} ${x}`));
    expect(problems).toEqual([]);
    // Nothing the built-ins say is lost: every property they declare is there, and a length limit
    // Gemini's subset has no keyword for is in the property's description.
    for (const [i, d] of declared.entries()) {
      const source = builtins[i]!.inputSchema as Schema;
      expect(Object.keys((d.schema as Schema).properties ?? {}), d.name).toEqual(Object.keys(source.properties ?? {}));
      if (p.name !== 'google') continue;
      for (const [key, prop] of Object.entries(source.properties ?? {})) {
        if (typeof prop.maxLength === 'number') {
          expect(((d.schema as Any).properties[key] as Any).description, `${d.name}.${key}`).toContain(
            `at most ${prop.maxLength} characters`,
          );
        }
      }
    }
  });

  it.each(HOSTILE_SCHEMAS)('an MCP schema: $name', async (h) => {
    const declared = await sent(p, [hostile[HOSTILE_SCHEMAS.indexOf(h)]!]);
    expect(declared).toHaveLength(1);
    const d = declared[0]!;
    expect(p.problems(d.name, d.schema)).toEqual([]);
    const text = JSON.stringify(d.schema);
    for (const s of h.nowhere ?? []) expect(text).not.toContain(s);
    if (p.name === 'google') {
      // A note alone is a sentence (capitalised), after a description it is not: compared in lower case.
      for (const s of h.gemini?.holds ?? []) expect(text.toLowerCase()).toContain(s.toLowerCase());
      for (const s of h.gemini?.absent ?? []) expect(text).not.toContain(s);
    }
    // Our own bound on a request: no enum is sent with more than MAX_ENUM values.
    const enums = [...text.matchAll(/"enum":\[([^\]]*)\]/g)].map((m) => JSON.parse(`[${m[1]}]`) as unknown[]);
    for (const e of enums) expect(e.length).toBeLessThanOrEqual(MAX_ENUM);
  });
});
