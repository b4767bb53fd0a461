// A stand-in for Gemini on 127.0.0.1 for the README's first run with a real model
// (.ci/readme-commands.sh): it speaks streamGenerateContent's SSE wire format, so the google
// provider runs for real, and answers each README prompt with the calls a model would make.
// Which answer: the request's last user text picks the script, and the model turns since it pick
// the step, so the replies do not depend on the order the commands run in.
//   node test/helpers/readme-model.ts   → prints its base URL (GOOGLE_GEMINI_BASE_URL), serves until killed
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Step = { text: string } | { call: string; args: Record<string, unknown> };

/** README prompt (a substring of it) → the model's steps. */
export const README_SCRIPTS: ReadonlyArray<readonly [prompt: string, steps: readonly Step[]]> = [
  [
    'Fix the placeholder greeting',
    [
      { call: 'read_file', args: { path: 'src/handler.ts' } },
      {
        call: 'edit_file',
        args: { path: 'src/handler.ts', old_string: '`Hello, PLACEHOLDER! (${name})`', new_string: '`Hello, ${name}!`' },
      },
      { text: 'The greeting in src/handler.ts now uses the caller’s name.' },
    ],
  ],
  [
    'Now read the timeout',
    [
      { call: 'read_file', args: { path: 'config/service.json' } },
      { text: 'config/service.json holds the timeout; src/handler.ts still hard-codes 5000 ms.' },
    ],
  ],
  ['What is left to do', [{ call: 'grep', args: { pattern: 'TODO' } }, { text: 'One TODO: read the timeout from config.' }]],
];

interface Content {
  role?: string;
  parts?: Array<{ text?: string; functionCall?: unknown; functionResponse?: unknown }>;
}

/** The step for this conversation: its last user text, and how many model turns followed it. */
export function answer(contents: readonly Content[]): Step {
  let last = -1;
  for (const [i, c] of contents.entries()) if (c.role === 'user' && c.parts?.some((p) => typeof p.text === 'string')) last = i;
  const prompt = last < 0 ? '' : contents[last]!.parts!.map((p) => p.text ?? '').join('');
  const turns = contents.slice(last + 1).filter((c) => c.role === 'model').length;
  const steps = README_SCRIPTS.find(([p]) => prompt.includes(p))?.[1] ?? [];
  return steps[turns] ?? { text: `Noted: ${prompt.slice(0, 80)}` };
}

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

export async function startReadmeModel(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const step = answer(((JSON.parse(raw || '{}') as { contents?: Content[] }).contents ?? []) as Content[]);
      const usageMetadata = { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 };
      const parts = 'text' in step ? [{ text: step.text }] : [{ functionCall: { name: step.call, args: step.args } }];
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(sse({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1beta`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${(await startReadmeModel()).url}\n`);
}
