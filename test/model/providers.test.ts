import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { fakeProvider, type FakeServer, type FakeTurn } from '../helpers/fake-providers.ts';
import { anthropicProblems, geminiProblems, openaiProblems } from '../helpers/schema-subsets.ts';
import { tempDir, writeTree } from '../helpers/workspace.ts';

const run = runCli;

const jsonLines = (s: string) =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The arguments of the tool call as the follow-up request carried it back to the provider. */
function sentArguments(wire: 'openai' | 'anthropic' | 'google', body: Record<string, unknown>): unknown {
  type Any = Record<string, any>;
  if (wire === 'openai') {
    const call = (body.messages as Any[]).find((m) => m.tool_calls)!.tool_calls[0];
    return JSON.parse(call.function.arguments as string);
  }
  if (wire === 'anthropic') {
    return (body.messages as Any[]).find((m) => m.role === 'assistant')!.content.find((c: Any) => c.type === 'tool_use').input;
  }
  return (body.contents as Any[]).find((c) => c.role === 'model')!.parts.find((x: Any) => x.functionCall).functionCall.args;
}

/** Each tool declaration in a request body, checked against the provider's documented subset (tool-schemas.test.ts has the matrix). */
function declarationProblems(
  wire: 'openai' | 'anthropic' | 'google',
  body: Record<string, unknown>,
): { count: number; problems: string[] } {
  type Any = Record<string, any>;
  const tools = (body.tools ?? []) as Any[];
  const list: Array<[string, unknown]> =
    wire === 'openai'
      ? tools.map((t) => [t.function.name, t.function.parameters])
      : wire === 'anthropic'
        ? tools.map((t) => [t.name, t.input_schema])
        : tools.flatMap((t) => (t.functionDeclarations ?? []) as Any[]).map((d) => [d.name, d.parametersJsonSchema]);
  const check = wire === 'openai' ? openaiProblems : wire === 'anthropic' ? anthropicProblems : geminiProblems;
  return { count: list.length, problems: list.flatMap(([name, schema]) => check(name, schema).map((p) => `${name} ${p}`)) };
}

const servers: FakeServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const providers = [
  { name: 'openai', wire: 'openai', model: 'openai:gpt-4.1-mini', env: (url: string) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }) },
  {
    name: 'openai-compatible',
    wire: 'openai',
    model: 'openai-compatible:local-model',
    env: (url: string) => ({ OPENAI_COMPATIBLE_BASE_URL: url }),
  },
  {
    name: 'anthropic',
    wire: 'anthropic',
    model: 'anthropic:claude-sonnet-4-5',
    env: (url: string) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }),
  },
  {
    name: 'google',
    wire: 'google',
    model: 'google:gemini-2.5-flash',
    env: (url: string) => ({ GOOGLE_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url }),
  },
] as const;

describe.each(providers)('the $name provider against its wire format on 127.0.0.1', (p) => {
  async function session(turns: FakeTurn[]) {
    const server = await fakeProvider(p.wire, turns);
    servers.push(server);
    const ws = await tempDir();
    await writeTree(ws, { 'notes.txt': 'alpha\n' });
    return { server, ws };
  }

  it('streams a tool call and the answer, after retrying a 429', async () => {
    const { server, ws } = await session([
      { status: 429 },
      { text: 'Let me look.', toolCalls: [{ name: 'read_file', args: '{"path":"notes.txt"}' }] },
      { text: 'The note says alpha.' },
    ]);
    const r = await run(['run', '-m', p.model, '-o', 'json', '--session-db', ':memory:', 'what does the note say?'], ws, p.env(server.url));
    expect(r.code, r.stderr).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events.find((e) => e.type === 'tool_end')).toMatchObject({ name: 'read_file', ok: true });
    expect(events.filter((e) => e.type === 'text').map((e) => e.text)).toEqual(['Let me look.', 'The note says alpha.']);
    expect(events.find((e) => e.type === 'turn_end')).toMatchObject({ status: 'done', usage: { inputTokens: 14, outputTokens: 6 } });
    expect(server.requests).toHaveLength(3);
    // The bundle sends every tool in the provider's documented schema subset.
    const declared = declarationProblems(p.wire, server.requests[1]!.body);
    expect(declared.count).toBeGreaterThan(10);
    expect(declared.problems).toEqual([]);
    // The tool result went back, and the call's arguments as a value, not double-encoded.
    const followUp = server.requests[2]!.body;
    expect(JSON.stringify(followUp)).toContain('alpha');
    expect(sentArguments(p.wire, followUp)).toEqual({ path: 'notes.txt' });
  });

  it('text output streams the answer to stdout', async () => {
    const { server, ws } = await session([{ text: 'Streaming works fine.' }]);
    const r = await run(['run', '-m', p.model, '--session-db', ':memory:', 'hi'], ws, p.env(server.url));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Streaming works fine.\n');
  });

  it('a malformed tool call becomes a model-visible error, and the turn goes on', async () => {
    const malformed = p.wire === 'google' ? '{"path": 5}' : '{"path": ';
    const { server, ws } = await session([{ toolCalls: [{ name: 'read_file', args: malformed }] }, { text: 'Sorry, my call was wrong.' }]);
    const r = await run(['run', '-m', p.model, '-o', 'json', '--session-db', ':memory:', 'read it'], ws, p.env(server.url));
    expect(r.code, r.stderr).toBe(0);
    const end = jsonLines(r.stdout).find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({ ok: false, error: expect.stringMatching(/read_file: (arguments are not valid JSON|invalid arguments)/) });
  });

  it('an error retrying cannot fix exits 3 with one sentence naming the status', async () => {
    const { server, ws } = await session([{ status: 401 }]);
    const r = await run(['run', '-m', p.model, '--session-db', ':memory:', 'hi'], ws, p.env(server.url));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/model call failed: .*HTTP 401/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('vertex: Gemini on Vertex AI with Application Default Credentials', () => {
  it('gets a token from the metadata server (GCE, GKE Workload Identity) and sends it on every call', async () => {
    const http = await import('node:http');
    // A metadata server on 127.0.0.1 standing in for 169.254.169.254 (GCE_METADATA_HOST points the client at it).
    const asked: string[] = [];
    const metadata = http.createServer((req, res) => {
      asked.push(`${req.url} ${String(req.headers['metadata-flavor'])}`);
      res.setHeader('Metadata-Flavor', 'Google');
      if (req.url?.includes('/service-accounts/default/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'ya29.metadata-token', expires_in: 3600, token_type: 'Bearer' }));
      } else if (req.url?.includes('/project/project-id')) {
        res.end('test-project');
      } else {
        res.end('');
      }
    });
    await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(metadata.address() as import('node:net').AddressInfo).port}`;
    try {
      const ws = await tempDir();
      const gemini = await fakeProvider('google', [{ text: 'Hello from Vertex.' }]);
      servers.push(gemini);
      const r = await run(['run', '-m', 'vertex:gemini-2.5-flash', '--session-db', ':memory:', 'hi'], ws, {
        GCE_METADATA_HOST: host,
        GOOGLE_CLOUD_PROJECT: 'test-project',
        GOOGLE_VERTEX_BASE_URL: gemini.url,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('Hello from Vertex.\n');
      expect(asked.some((a) => a.startsWith('/computeMetadata/v1/instance/service-accounts/default/token') && a.endsWith('Google'))).toBe(
        true,
      );
      expect(gemini.requests[0]!.headers.authorization).toBe('Bearer ya29.metadata-token');
      const declared = declarationProblems('google', gemini.requests[0]!.body);
      expect(declared.count).toBeGreaterThan(10);
      expect(declared.problems).toEqual([]);
    } finally {
      await new Promise((resolve) => metadata.close(resolve));
    }
  });

  it('without a project, says what to set', async () => {
    const ws = await tempDir();
    const r = await run(['run', '-m', 'vertex:gemini-2.5-flash', 'hi'], ws, {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/set GOOGLE_CLOUD_PROJECT/);
  });
});
