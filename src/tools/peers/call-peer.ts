import * as z from 'zod/v4';
import { quoteArg } from '../framework/error-text.ts';
import { LIMITS } from '../framework/limits.ts';
import { defineTool, ToolError } from '../framework/tool.ts';
import description from './call-peer.md';
import { runPeerTurn } from './peer-session.ts';
import { monotonicMs } from '../../util/monotonic.ts';

/**
 * call_peer: hand a self-contained prompt to another daemon on this hub's
 * roster and return its answer. The destination is a registered name only —
 * there is no URL argument, and a name resolves against the live registry on
 * every call — and the token is the operator's (peers.token_env, resolved by
 * the root), never the model's. Its kind is `execute`: the peer runs a full
 * agent turn with its own tools, so what the call may do there is anything the
 * peer's gate allows, which this process cannot see.
 */
export const callPeerTool = defineTool({
  name: 'call_peer',
  description,
  kind: 'execute',
  needs: ['peers'],
  settings: z.strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe('Offer call_peer (only on a peer hub: peers.hub: true; elsewhere it is a start-up error).'),
    timeout_seconds: z
      .int()
      .min(1)
      .max(900)
      .default(120)
      .describe("One deadline from opening the session to the end of the peer's turn (default 120)."),
    max_response_bytes: z
      .int()
      .min(256)
      .max(1024 * 1024)
      .default(16 * 1024)
      .describe("The most of the peer's answer returned; beyond it reading stops and truncated is true (default 16384)."),
  }),
  narrowHint: 'ask the peer for a shorter answer',
  args: z.strictObject({
    peer: z
      .string()
      .min(1)
      .max(LIMITS.identifier)
      .describe('The name of a peer registered with this hub (an unknown name fails and lists them).'),
    prompt: z
      .string()
      .trim()
      .min(1)
      .max(32 * 1024)
      .describe('A self-contained request: the peer answers in a fresh session and sees nothing of this conversation.'),
  }),
  deadlineMs: (_args, settings) => (settings.timeout_seconds + 15) * 1000,
  async gateSubjects(args) {
    // Rules match the name: tool.call_peer:prod-* refuses every prod peer, in every mode.
    return { subject: args.peer, verbs: [] };
  },
  async run(args, ctx) {
    const directory = ctx.services.peers!;
    const roster = directory.peers();
    const target = roster.find((p) => p.name === args.peer);
    if (!target) {
      const names = roster.map((p) => p.name).sort();
      throw new ToolError(
        `no peer named ${quoteArg(args.peer)} is registered with this hub; ${
          names.length > 0 ? `the registered peers are ${names.join(', ')}` : 'no peers are registered right now'
        }`,
        'not_found',
      );
    }
    const bearer = directory.bearer();
    if ('unset' in bearer) {
      throw new ToolError(`peers.token_env names ${bearer.unset}, which is unset or empty here; set it (calls never go out anonymously)`);
    }
    const seconds = ctx.settings.timeout_seconds;
    const deadline = AbortSignal.timeout(seconds * 1000);
    const started = monotonicMs();
    try {
      const turn = await runPeerTurn({
        peer: target.name,
        endpoint: target.endpoint,
        token: 'token' in bearer ? bearer.token : undefined,
        prompt: args.prompt,
        maxBytes: ctx.settings.max_response_bytes,
        destinations: directory.destinations,
        signal: AbortSignal.any([ctx.signal, deadline]),
      });
      return {
        peer: target.name,
        session_id: turn.sessionId,
        response: turn.response,
        duration_ms: Math.round(monotonicMs() - started),
        ...(turn.truncated ? { truncated: true } : {}),
      };
    } catch (err) {
      if (deadline.aborted && !ctx.signal.aborted) {
        throw new ToolError(
          `peer "${target.name}" did not finish its turn within ${seconds}s (tools.call_peer.timeout_seconds); nothing of a partial answer is returned`,
          'deadline',
        );
      }
      throw err;
    }
  },
});
