// What a stdio MCP server can send that must reach the model bounded and worded,
// one line each, for limits.test.ts: the test server's tool, its arguments, what
// the model must read, and the most characters it may be.

export interface LimitCase {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** The error the model reads (the dispatcher's `test_<tool>: ` prefix included); null: the call succeeds. */
  error: RegExp | null;
  /** The longest the error (or the result's JSON) may be. */
  maxChars: number;
}

// The dispatcher cuts every error, its `tool: ` prefix included, to 8,000 characters in the middle.
const CAP = 8_000;
const cut = (total: string) => ` …\\[\\d+ of ${total} characters cut\\]… `;
const tooLarge = (mib: string) =>
  new RegExp(
    `^test_huge_result: the result of "huge_result" on server "test" was larger than the 10 MiB the MCP stdio transport accepts \\(${mib} MiB\\); ask for less .*The server is still running\\.$`,
  );
const badShape = (field: string) =>
  new RegExp(`^test_bad_shape: server "test" returned a result for "bad_shape" that does not follow the MCP schema \\(${field}`);

// prettier-ignore
export const CASES: LimitCase[] = [
  // isError text: the README's 8,000 characters, whatever shape it comes in.
  { name: 'isError, one 1.2 MB text', tool: 'test_huge_error', args: { chars: 1_200_000 }, error: new RegExp(`^test_huge_error: e+${cut('1200017')}e+$`), maxChars: CAP },
  { name: 'isError, 1.2 MB in 300 blocks', tool: 'test_huge_error', args: { chars: 1_200_000, blocks: 300 }, error: new RegExp(`^test_huge_error: [e\\n]+${cut('\\d+')}[e\\n]+$`), maxChars: CAP },
  { name: 'isError, 1.2 MB structured', tool: 'test_huge_error', args: { chars: 1_200_000, structured: true }, error: new RegExp(`^test_huge_error: \\{"structured":\\{"detail":"e+${cut('\\d+')}`), maxChars: CAP },
  { name: 'isError, 8,000 chars with the prefix: whole', tool: 'test_huge_error', args: { chars: 7_983 }, error: /^test_huge_error: e{7983}$/, maxChars: CAP },
  { name: 'isError, 8,001 chars with the prefix: cut', tool: 'test_huge_error', args: { chars: 7_984 }, error: new RegExp(cut('8001')), maxChars: CAP },
  // JSON-RPC errors: the server's message, cut at the same figure; data never shown.
  { name: 'JSON-RPC error of 20 KB', tool: 'test_rpc_error', args: { chars: 20_000 }, error: new RegExp(`^test_rpc_error: MCP error -32603: E+${cut('20034')}E+$`), maxChars: CAP },
  { name: 'JSON-RPC error of 2 MB with 2 MB of data', tool: 'test_rpc_error', args: { chars: 2_000_000, with_data: true }, error: new RegExp(`^test_rpc_error: MCP error -32603: E+${cut('2000034')}E+$`), maxChars: CAP },
  { name: 'JSON-RPC error, short: whole', tool: 'test_rpc_error', args: { chars: 100 }, error: /^test_rpc_error: MCP error -32603: E{100}$/, maxChars: 200 },
  // A result that breaks the MCP schema: a sentence naming the field, never zod's dump.
  { name: 'content is not an array', tool: 'test_bad_shape', args: { shape: 'content-not-array' }, error: badShape('content: Invalid input: expected array, received string\\)$'), maxChars: 600 },
  { name: 'a content block of an unknown type', tool: 'test_bad_shape', args: { shape: 'unknown-block-type' }, error: badShape('content\\[0\\]\\.type: not one of the MCP content types \\(text, image, audio, resource_link, resource\\)\\)$'), maxChars: 600 },
  { name: 'a text block whose text is a number', tool: 'test_bad_shape', args: { shape: 'text-not-string' }, error: badShape('content\\[0\\]\\.text: Invalid input: expected string, received number\\)$'), maxChars: 600 },
  { name: 'isError is not a boolean', tool: 'test_bad_shape', args: { shape: 'isError-not-boolean' }, error: badShape('isError: Invalid input: expected boolean, received string\\)$'), maxChars: 600 },
  { name: '5,000 bad blocks', tool: 'test_bad_shape', args: { shape: 'many-bad-blocks' }, error: /\(content\[0\]\.text: Invalid input: expected string, received number; content\[1\]\.text: .*; and 4997 more problem\(s\)\)$/, maxChars: 800 },
  { name: 'structuredContent is not an object', tool: 'test_bad_shape', args: { shape: 'structured-not-object' }, error: badShape('structuredContent: Invalid input: expected record, received string\\)$'), maxChars: 600 },
  // Answers over the stdio transport's 10 MiB: that call fails, saying so; the server stays.
  { name: '11 MiB result, id last (the TypeScript SDK)', tool: 'test_huge_result', args: { mib: 11 }, error: tooLarge('11\\.0'), maxChars: 400 },
  { name: '11 MiB result, id first (Python, Go)', tool: 'test_huge_result', args: { mib: 11, order: 'id-first' }, error: tooLarge('11\\.0'), maxChars: 400 },
  { name: '11 MiB result, id before jsonrpc', tool: 'test_huge_result', args: { mib: 11, order: 'id-middle' }, error: tooLarge('11\\.0'), maxChars: 400 },
  { name: '11 MiB result, id unreadable, one call in flight', tool: 'test_huge_result', args: { mib: 11, order: 'id-hidden' }, error: tooLarge('11\\.0'), maxChars: 400 },
  { name: '40 MiB result', tool: 'test_huge_result', args: { mib: 40 }, error: tooLarge('40\\.0'), maxChars: 400 },
  { name: '9.5 MiB result: under the limit, it arrives', tool: 'test_huge_result', args: { mib: 9.5 }, error: null, maxChars: 3 * 1024 * 1024 },
];
