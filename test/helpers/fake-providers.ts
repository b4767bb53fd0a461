import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local HTTP servers on 127.0.0.1 that speak the real streaming wire formats of
 * the providers (OpenAI chat completions, Anthropic messages, Gemini
 * streamGenerateContent), so the provider packages are exercised for real —
 * request building, SSE parsing, tool-call assembly, error handling — with no
 * network. Each request takes the next scripted turn.
 */
export interface FakeTurn {
  /** Answer with this HTTP error status instead (e.g. 429). */
  status?: number;
  /** The error's JSON body (default: the provider's error shape with `status N`), and extra headers. */
  errorBody?: unknown;
  headers?: Record<string, string>;
  text?: string;
  /** `args` is the raw JSON text the model "sends" (it may be malformed). */
  toolCalls?: Array<{ name: string; args: string }>;
}

export interface FakeServer {
  url: string;
  requests: Array<{ path: string; body: Record<string, unknown>; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

type Provider = 'openai' | 'anthropic' | 'google';

/**
 * How an OpenAI-wire server reports usage: `always` (OpenAI), `when-asked` (only with
 * `stream_options.include_usage`, as vLLM and llama.cpp's server do), `never` (a server
 * that counts nothing). `rejectStreamOptions`: a server that refuses the field with a 400.
 */
export interface FakeOptions {
  usage?: 'always' | 'when-asked' | 'never';
  rejectStreamOptions?: boolean;
}

export async function fakeProvider(provider: Provider, turns: FakeTurn[], options: FakeOptions = {}): Promise<FakeServer> {
  const requests: FakeServer['requests'] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ path: req.url ?? '', body, headers: req.headers });
      if (options.rejectStreamOptions && body.stream_options !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' } }),
        );
        return;
      }
      // A models endpoint (doctor's check) answers the model, or the list of them, unless an error is scripted.
      if (req.method === 'GET' && !turns[0]?.status) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(modelsAnswer(provider, req.url ?? '')));
        return;
      }
      const turn = turns.shift() ?? { text: '(script ended)' };
      if (turn.status) {
        res.writeHead(turn.status, { 'content-type': 'application/json', 'retry-after': '0', ...turn.headers });
        res.end(JSON.stringify(turn.errorBody ?? errorBody(provider, turn.status)));
        return;
      }
      const asked = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      const withUsage = options.usage === 'never' ? false : options.usage === 'when-asked' ? asked : true;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of frames(provider, turn, withUsage)) res.write(chunk);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = {
    openai: `http://127.0.0.1:${port}/v1`,
    anthropic: `http://127.0.0.1:${port}/v1`,
    google: `http://127.0.0.1:${port}/v1beta`,
  }[provider];
  return { url: base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function errorBody(provider: Provider, status: number): unknown {
  if (provider === 'anthropic') return { type: 'error', error: { type: 'rate_limit_error', message: `status ${status}` } };
  if (provider === 'google') return { error: { code: status, message: `status ${status}`, status: 'RESOURCE_EXHAUSTED' } };
  return { error: { message: `status ${status}`, type: 'rate_limit' } };
}

/** Split a string into a few pieces, as a real stream would deliver it. */
function pieces(s: string): string[] {
  const n = Math.max(1, Math.ceil(s.length / 3));
  return s.length === 0 ? [] : Array.from({ length: Math.ceil(s.length / n) }, (_, i) => s.slice(i * n, (i + 1) * n));
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** What GET /models/ID (or /models) answers, in each provider's shape. */
function modelsAnswer(provider: Provider, url: string): unknown {
  const id = decodeURIComponent(url.split('?')[0]!.split('/models/')[1] ?? '');
  if (!id) return { object: 'list', data: [{ id: 'local-model', object: 'model', owned_by: 'me' }] };
  if (provider === 'anthropic') return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
  if (provider === 'google') return { name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent'] };
  return { id, object: 'model', owned_by: 'openai' };
}

function frames(provider: Provider, turn: FakeTurn, withUsage = true): string[] {
  const calls = turn.toolCalls ?? [];
  if (provider === 'openai') {
    const chunk = (delta: object, finish: string | null = null) =>
      sse({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    const out = [chunk({ role: 'assistant', content: '' })];
    for (const p of pieces(turn.text ?? '')) out.push(chunk({ content: p }));
    calls.forEach((c, index) => {
      out.push(chunk({ tool_calls: [{ index, id: `call_${index + 1}`, type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const p of pieces(c.args)) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
    });
    out.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
    if (withUsage)
      out.push(
        sse({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [],
          usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
        }),
      );
    out.push('data: [DONE]\n\n');
    return out;
  }
  if (provider === 'anthropic') {
    const out = [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 7, output_tokens: 1 },
          },
        },
        'message_start',
      ),
    ];
    let index = 0;
    if (turn.text) {
      out.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      for (const p of pieces(turn.text))
        out.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }, 'content_block_delta'));
      out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index++;
    }
    for (const c of calls) {
      out.push(
        sse(
          { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name: c.name, input: {} } },
          'content_block_start',
        ),
      );
      for (const p of pieces(c.args))
        out.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }, 'content_block_delta'));
      out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index++;
    }
    out.push(
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: 3 },
        },
        'message_delta',
      ),
    );
    out.push(sse({ type: 'message_stop' }, 'message_stop'));
    return out;
  }
  // Gemini: function-call arguments are an object on the wire, never partial JSON.
  const usageMetadata = { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 };
  const out: string[] = [];
  const textPieces = pieces(turn.text ?? '');
  textPieces.forEach((p) => out.push(sse({ candidates: [{ content: { role: 'model', parts: [{ text: p }] }, index: 0 }], usageMetadata })));
  const parts = calls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.args) as unknown } }));
  out.push(
    sse({
      candidates: [{ content: { role: 'model', parts: parts.length > 0 ? parts : [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata,
    }),
  );
  return out;
}
