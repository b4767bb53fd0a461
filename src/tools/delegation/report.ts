import type { ChildReport } from '../framework/services.ts';
import type { JsonObject } from '../framework/tool.ts';

/** A child's report as core-agent's delegation tools return it (spawn_agent's result fields). */
export function reportResult(r: ChildReport): JsonObject {
  return {
    name: r.name,
    branch: r.sessionId,
    status: r.status,
    ...(r.stopReason ? { stop_reason: r.stopReason } : {}),
    ...(r.finalText !== undefined ? { final_text: r.finalText } : {}),
    ...(r.guidance ? { guidance: r.guidance } : {}),
    ...(r.error ? { error: r.error } : {}),
    turns: r.turns,
    cost_usd: r.costUsd,
  };
}
